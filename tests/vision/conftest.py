"""Shared fixtures for the vision tests: the stored frames and crops under data/."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from table.rules import Card

DATA = Path(__file__).resolve().parent / "data"


def read_image(path: Path) -> np.ndarray:
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    assert image is not None, f"cannot read {path}"
    return np.asarray(image)


def under_thumb(card: np.ndarray, corners: tuple[int, ...], rng: np.random.Generator
                ) -> np.ndarray:
    """A portrait card image with a skin-coloured blob over each of its index `corners` (0:
    top-left, 1: bottom-right), hiding the index under it."""
    covered = card.copy()
    h, w = covered.shape[:2]
    for corner in corners:
        x, y = (0, 0) if corner == 0 else (w, h)
        skin = tuple(int(v) for v in rng.uniform((60, 90, 140), (170, 190, 240)))
        r = int(rng.uniform(0.26, 0.32) * w)
        centre = (abs(x - int(rng.uniform(0, 0.08) * w)), abs(y - int(rng.uniform(0.06, 0.14) * h)))
        cv2.ellipse(covered, centre, (r, int(r * 1.4)), 0, 0, 360, skin, -1)
    return covered


@pytest.fixture(scope="session")
def game_frames() -> list[np.ndarray]:
    return [read_image(p) for p in sorted((DATA / "game").glob("*.jpg"))]


@pytest.fixture(scope="session")
def game_script() -> dict[str, Any]:
    return dict(json.loads((DATA / "game" / "script.json").read_text()))


def _crops(deck: str, shot: int) -> dict[Card, np.ndarray]:
    out = {}
    for path in sorted((DATA / "crops" / deck).glob(f"*_{shot}.jpg")):
        out[Card.parse(path.stem.split("_")[0])] = read_image(path)
    assert out, f"no stored crops of {deck}: run tests/vision/make_data.py"
    return out


@pytest.fixture(scope="session")
def standard_crops() -> dict[Card, np.ndarray]:
    """Straightened cards of kdegames' standard deck (first shot), as find_cards cuts them."""
    return _crops("svg-standard", 0)


@pytest.fixture(scope="session")
def enroll_shots() -> tuple[dict[Card, np.ndarray], dict[Card, np.ndarray]]:
    """Two shots of every face of the deck used for the enrollment round trip."""
    return _crops("svg-ancient-egyptians", 0), _crops("svg-ancient-egyptians", 1)


@pytest.fixture(scope="session")
def unseen_crops() -> list[tuple[str, str, np.ndarray]]:
    """Straightened cards of designs the corner reader never trained on (evaluation designs and
    a calibration one), as (design, card or "other_N", image): make_unseen_crops.py."""
    return [(p.parent.name, p.stem, read_image(p))
            for p in sorted((DATA / "unseen").glob("*/*.jpg"))]
