"""White balance on the mat's white margins (vision.white): their colour, gains that make them
colourless and bright enough, none when nothing needs correcting, and a lamp past correcting
named."""

from __future__ import annotations

import numpy as np
import pytest

from vision.calibration import calibrate
from vision.mat import draw_mat, mat_layout
from vision.white import BRIGHT, balanced, light_fault, margin_white, quiet_zones, white_gains

Mat = tuple[np.ndarray, tuple[np.ndarray, ...]]


@pytest.fixture(scope="module")
def mat() -> Mat:
    """The printed mat as a frame (its own calibration) and its margins' places in it."""
    frame = draw_mat(mat_layout(3), 2.0)
    return frame, quiet_zones(calibrate(frame, mat_layout(3)))


def _lit(frame: np.ndarray, lamp: tuple[float, float, float]) -> np.ndarray:
    return np.clip(frame * np.array(lamp, np.float32), 0, 255).astype(np.uint8)


def _white(frame: np.ndarray, zones: tuple[np.ndarray, ...]) -> np.ndarray:
    white = margin_white(frame, zones)
    assert white is not None
    return white


def test_the_margins_are_white_paper(mat: Mat) -> None:
    frame, zones = mat
    assert len(zones) == len(mat_layout(3).markers)
    for rows, cols in zones:
        assert len(rows) > 100
        assert frame[rows, cols].min() >= 240
    assert _white(frame, zones).min() >= 240


@pytest.mark.parametrize("lamp", [(0.6, 0.87, 1.0), (1.0, 0.9, 0.7), (0.3, 0.3, 0.3),
                                  (0.25, 0.3, 0.4)])
def test_gains_make_the_margins_colourless_and_bright_again(
        mat: Mat, lamp: tuple[float, float, float]) -> None:
    frame, zones = mat
    lit = _lit(frame, lamp)
    white = _white(lit, zones)
    assert light_fault(white) is None
    gains = white_gains(white)
    assert gains is not None
    mean = np.concatenate([balanced(lit, gains)[r, c] for r, c in zones]).mean(axis=0)
    assert np.ptp(mean) <= 4
    assert mean.max() >= BRIGHT - 4


def test_a_lamp_as_bright_and_white_as_paper_needs_nothing(mat: Mat) -> None:
    frame, zones = mat
    assert white_gains(_white(frame, zones)) is None
    assert white_gains(_white(_lit(frame, (0.8, 0.8, 0.8)), zones)) is None  # dimmer, bright


def test_a_covered_margin_is_outvoted(mat: Mat) -> None:
    frame, zones = mat
    lit = _lit(frame, (0.7, 0.9, 1.0))
    want = white_gains(_white(lit, zones))
    assert want is not None
    rows, cols = zones[0]
    lit[rows, cols] = (120, 150, 210)        # a hand over one marker
    assert white_gains(_white(lit, zones)) == pytest.approx(want, abs=0.02)
    assert margin_white(np.zeros((16, 16, 3), np.uint8), zones) is None   # no margin in view


@pytest.mark.parametrize(("lamp", "fault"), [((0.1, 0.12, 0.15), "dark"),
                                             ((0.3, 0.9, 1.0), "tinted")])
def test_a_lamp_past_correcting_is_named_and_left_alone(
        mat: Mat, lamp: tuple[float, float, float], fault: str) -> None:
    frame, zones = mat
    white = _white(_lit(frame, lamp), zones)
    assert light_fault(white) == fault
    assert white_gains(white) is None
