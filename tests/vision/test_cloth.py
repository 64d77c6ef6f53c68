"""Cards on plain cloths of any colour, light or dark, with meld cards side by side touching or
overlapping a little, and hands coming and going (scenes from stored card images)."""

from __future__ import annotations

import itertools
from typing import Any

import cv2
import numpy as np
import pytest

from table.rules import Card, CardPlayed, MeldShown, parse_cards
from vision.calibration import calibrate
from vision.detect import card_outlines, find_cards
from vision.faces import FACE_HEIGHT, FACE_WIDTH
from vision.mat import mat_layout
from vision.simulator import Effects, MatScene
from vision.tracker import Tracker

Faces = dict[Card, np.ndarray]
CLOTHS = {"red": (40, 40, 150), "blue": (120, 60, 30), "grey": (110, 110, 110),
          "black": (25, 25, 25), "beige": (170, 200, 220), "brown": (40, 70, 110)}
NUMBER_CARDS = parse_cards("AS 10S 9S AH 10H 9H AC 10C 9C AD 10D 9D")


@pytest.fixture(scope="module")
def faces(standard_crops: Faces) -> Faces:
    """The stored crops as opaque faces with a clean white edge (as in test_scene),
    their white brought back to a card's (the crops were taken under a dim lamp)."""
    out = {}
    for card, img in standard_crops.items():
        big = cv2.resize(img[2:-2, 2:-2], (FACE_WIDTH, FACE_HEIGHT),
                         interpolation=cv2.INTER_CUBIC)
        white = np.percentile(big.reshape(-1, 3), 90, axis=0)
        big = np.clip(big * (250.0 / np.maximum(white, 1.0)), 0, 255).astype(np.uint8)
        cv2.rectangle(big, (0, 0), (FACE_WIDTH - 1, FACE_HEIGHT - 1), (245, 245, 245), 5)
        out[card] = np.dstack([big, np.full(big.shape[:2], 255, np.uint8)])
    return out


def _corner_error(corners: np.ndarray, truth: np.ndarray) -> float:
    return min(float(np.abs(np.roll(truth, k, axis=0) - corners).max()) for k in range(4))


@pytest.mark.parametrize(("cloth", "pitch"), [("red", 60.0), ("blue", 63.0), ("grey", 61.0),
                                              ("black", 58.0), ("beige", 62.0)])
def test_every_card_is_outlined_on_any_cloth(faces: Faces, cloth: str, pitch: float) -> None:
    """A trick of four and two meld cards per seat side by side (touching at 63 mm, overlapping
    below), on a cloth: every card outlined within a few pixels, none read wrong."""
    scene = MatScene.create(mat_layout(4), faces, 31, effects=Effects(slide_frames=0),
                            cloth=CLOTHS[cloth], pitch=pitch)
    for i, card in enumerate(NUMBER_CARDS):
        scene.place(card, i % 4, "play" if i < 4 else "meld")
    found = find_cards(scene.render())
    assert len(found) == len(NUMBER_CARDS)
    for item in scene.laid:
        truth = scene.card_corners(item)
        match = min(found, key=lambda d: float(np.linalg.norm(d.corners.mean(0)
                                                             - truth.mean(0))))
        assert _corner_error(match.corners, truth) < 12, (cloth, item.card)
        assert match.reading.card in (None, item.card)


def test_a_row_of_touching_cards_is_cut_into_cards(faces: Faces) -> None:
    """Six meld cards in one row, edge to edge, on a dark cloth: six outlines, not one (those
    between the two ends are spaced evenly, so they may be a few millimetres off)."""
    scene = MatScene.create(mat_layout(4), faces, 32, effects=Effects(slide_frames=0),
                            cloth=CLOTHS["black"], pitch=62.0)
    for card in NUMBER_CARDS[:6]:
        scene.place(card, 0, "meld")
    outlines = card_outlines(scene.render())
    assert len(outlines) == 6
    for item in scene.laid:
        truth = scene.card_corners(item)
        assert min(_corner_error(q, truth) for q in outlines) < 16, item.card


def _run(scene: MatScene, tracker: Tracker, frames: int) -> list[Any]:
    return [e for _ in range(frames) for e in tracker.update(scene.render())]


@pytest.mark.parametrize("cloth", ["beige", "red", "grey"])
def test_the_tracker_on_a_cloth_with_hands_coming_and_going(faces: Faces, cloth: str) -> None:
    """Cards laid by hand on a cloth: each played card reported once, right, after the hand
    has gone; a hand reaching across says nothing; a meld of touching cards is shown."""
    scene = MatScene.create(mat_layout(3), faces, 33, cloth=CLOTHS[cloth], pitch=64.0)
    ticks = itertools.count()
    tracker = Tracker(calibrate(scene.render(), mat_layout(3)),
                      clock=lambda: float(next(ticks)))
    events = []
    for seat, card in enumerate(parse_cards("AH 10C 9D")):
        scene.place(card, seat, "play")
        events += _run(scene, tracker, 8)
    played = [(e.seat, e.card) for e in events if isinstance(e, CardPlayed)]
    assert played == list(enumerate(parse_cards("AH 10C 9D")))
    scene.hand_over(1, frames=5)
    assert _run(scene, tracker, 6) == []
    for card in parse_cards("10D 9S AH"):
        scene.place(card, 0, "meld")
        _run(scene, tracker, 5)
    meld = [e for e in _run(scene, tracker, tracker.settle_frames + 4)
            if isinstance(e, MeldShown)]
    assert [(e.seat, sorted(e.cards)) for e in meld] == [(0, sorted(parse_cards("10D 9S AH")))]
