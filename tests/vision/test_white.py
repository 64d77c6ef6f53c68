"""White balance on the mat's white margins (vision.white): gains that make them colourless and
bright enough, none when nothing needs correcting or too little of them shows paper."""

from __future__ import annotations

import numpy as np
import pytest

from vision.calibration import calibrate
from vision.mat import draw_mat, mat_layout
from vision.white import BRIGHT, balanced, quiet_zones, white_gains


@pytest.fixture(scope="module")
def mat() -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
    """The printed mat as a frame (its own calibration) and its margins' places in it."""
    frame = draw_mat(mat_layout(3), 2.0)
    return frame, quiet_zones(calibrate(frame, mat_layout(3)))


def _lit(frame: np.ndarray, lamp: tuple[float, float, float]) -> np.ndarray:
    return np.clip(frame * np.array(lamp, np.float32), 0, 255).astype(np.uint8)


def test_the_margins_are_white_paper(mat: tuple[np.ndarray, tuple[np.ndarray, ...]]) -> None:
    frame, zones = mat
    assert len(zones) == len(mat_layout(3).markers)
    for rows, cols in zones:
        assert len(rows) > 100
        assert frame[rows, cols].min() >= 240


@pytest.mark.parametrize("lamp", [(0.6, 0.87, 1.0), (1.0, 0.9, 0.7), (0.3, 0.3, 0.3),
                                  (0.25, 0.3, 0.4)])
def test_gains_make_the_margins_colourless_and_bright_again(
        mat: tuple[np.ndarray, tuple[np.ndarray, ...]], lamp: tuple[float, float, float]
) -> None:
    frame, zones = mat
    lit = _lit(frame, lamp)
    gains = white_gains(lit, zones)
    assert gains is not None
    white = np.concatenate([balanced(lit, gains)[r, c] for r, c in zones]).astype(float)
    mean = white.mean(axis=0)
    assert np.ptp(mean) <= 4
    assert mean.max() >= BRIGHT - 4


def test_a_lamp_as_bright_and_white_as_paper_needs_nothing(
        mat: tuple[np.ndarray, tuple[np.ndarray, ...]]) -> None:
    frame, zones = mat
    assert white_gains(frame, zones) is None
    assert white_gains(_lit(frame, (0.8, 0.8, 0.8)), zones) is None   # dimmer, still bright


def test_a_covered_or_dark_margin_tells_nothing(
        mat: tuple[np.ndarray, tuple[np.ndarray, ...]]) -> None:
    frame, zones = mat
    lit = _lit(frame, (0.7, 0.9, 1.0))
    want = white_gains(lit, zones)
    assert want is not None
    skin = lit.copy()
    rows, cols = zones[0]
    skin[rows, cols] = (120, 150, 210)        # a hand over one marker
    assert white_gains(skin, zones) == pytest.approx(want, abs=0.02)
    assert white_gains(_lit(frame, (0.1, 0.12, 0.15)), zones) is None   # the lamp off
    assert white_gains(_lit(frame, (0.3, 0.9, 1.0)), zones) is None     # no lamp's tint
    assert white_gains(np.zeros((40, 60, 3), np.uint8), zones) is None  # a smaller frame
