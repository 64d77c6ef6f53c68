"""The simulator, find_cards and the tracker's meld, kitty and unsure notices, on scenes built
from stored card images (so no SVG rendering is needed)."""

from __future__ import annotations

import itertools
import random
from typing import Any

import cv2
import numpy as np
import pytest

from table.rules import Card, CardPlayed, KittyShown, MeldShown, parse_cards
from vision import find_cards
from vision.calibration import calibrate
from vision.faces import FACE_HEIGHT, FACE_WIDTH, cut_out_card, face_problem
from vision.mat import mat_layout
from vision.simulator import Effects, MatScene
from vision.tracker import CardUnsure, Tracker

Faces = dict[Card, np.ndarray]


@pytest.fixture(scope="module")
def faces(standard_crops: Faces) -> Faces:
    """The stored crops blown up to face size with a clean white edge (a crop's outermost
    pixels are part table), opaque: a deck the simulator can lay. (Blown up, the court cards'
    pictures reach the edge, which real faces never do: the tests lay number cards.)"""
    out = {}
    for card, img in standard_crops.items():
        big = cv2.resize(img[2:-2, 2:-2], (FACE_WIDTH, FACE_HEIGHT),
                         interpolation=cv2.INTER_CUBIC)
        cv2.rectangle(big, (0, 0), (FACE_WIDTH - 1, FACE_HEIGHT - 1), (245, 245, 245), 5)
        out[card] = np.dstack([big, np.full(big.shape[:2], 255, np.uint8)])
    return out


def test_scenes_are_reproducible_from_their_seed(faces: Faces) -> None:
    a = MatScene(mat_layout(3), faces, np.random.default_rng(3))
    b = MatScene.create(mat_layout(3), faces, random.Random(5))
    c = MatScene.create(mat_layout(3), faces, 3)
    for scene in (a, c):
        scene.place(Card.parse("AS"), 0, "play")
    assert np.array_equal(a.render(), c.render())
    assert b.render().shape == (1080, 1920, 3)


def test_a_card_slides_in_under_a_hand_then_lies_still(faces: Faces) -> None:
    scene = MatScene.create(mat_layout(3), faces, 1)
    laid = scene.place(Card.parse("KH"), 1, "play")
    assert not scene.settled and scene.hands
    for _ in range(scene.effects.slide_frames + 2):
        scene.render()
    assert scene.settled and laid.still
    zone = scene.layout.zone_at(laid.x, laid.y)
    assert zone is not None and (zone.area, zone.seat) == ("play", 1)
    assert scene.gather() == [laid] and scene.laid == []
    with pytest.raises(ValueError, match="no play area for seat 3"):
        scene.place(Card.parse("KH"), 3, "play")


def test_find_cards_outlines_every_card(faces: Faces) -> None:
    scene = MatScene.create(mat_layout(4), faces, 11, effects=Effects(slide_frames=0))
    for i, card in enumerate(parse_cards("AS 10H 9C 10D 9S AH AD 10C")):
        scene.place(card, i % 4, "play" if i < 4 else "meld")
    frame = scene.render()
    found = find_cards(frame)
    assert len(found) == 8
    for item in scene.laid:
        truth = scene.card_corners(item)
        match = min(found, key=lambda d: float(np.linalg.norm(d.corners.mean(0) - truth.mean(0))))
        error = min(np.abs(np.roll(truth, k, axis=0) - match.corners).max() for k in range(4))
        assert error < 6, (item.card, error)
        assert match.reading.card in (None, item.card)


def _run(scene: MatScene, tracker: Tracker, frames: int) -> list[Any]:
    return [e for _ in range(frames) for e in tracker.update(scene.render())]


def test_meld_and_kitty_are_reported_once_settled(faces: Faces) -> None:
    scene = MatScene.create(mat_layout(3), faces, 21)
    ticks = itertools.count()
    tracker = Tracker(calibrate(scene.render(), mat_layout(3)), clock=lambda: float(next(ticks)))
    for card in parse_cards("10S 9S"):
        scene.place(card, 1, "meld")
        assert _run(scene, tracker, 4) == []
    events = []
    for card in parse_cards("AH 9D JC"):
        scene.place(card, None, "kitty")
        events += _run(scene, tracker, 4)
    events += _run(scene, tracker, tracker.settle_frames + 2)
    meld = [e for e in events if isinstance(e, MeldShown)]
    assert [(e.seat, e.cards) for e in meld] == [(1, tuple(parse_cards("10S 9S")))]
    kitty = [e for e in events if isinstance(e, KittyShown)]
    assert len(kitty) == 1 and sorted(kitty[0].cards) == sorted(parse_cards("AH 9D JC"))
    assert _run(scene, tracker, 12) == []   # nothing twice


def test_an_unreadable_card_asks_instead_of_guessing(faces: Faces) -> None:
    blank = dict(faces)
    blank[Card.parse("9H")] = np.dstack([np.full((FACE_HEIGHT, FACE_WIDTH, 3), 240, np.uint8),
                                         np.full((FACE_HEIGHT, FACE_WIDTH), 255, np.uint8)])
    scene = MatScene.create(mat_layout(3), blank, 4)
    tracker = Tracker(calibrate(scene.render(), mat_layout(3)), clock=lambda: 1.0)
    scene.place(Card.parse("9H"), 2, "play")
    events = _run(scene, tracker, 12)
    assert not [e for e in events if isinstance(e, CardPlayed)]
    unsure = [e for e in events if isinstance(e, CardUnsure)]
    assert len(unsure) == 1 and unsure[0].seat == 2 and len(unsure[0].candidates) == 2


def test_face_checks_catch_mis_crops_and_missing_indices(faces: Faces) -> None:
    good = faces[Card.parse("AS")]
    assert face_problem(good, Card.parse("AS")) is None
    assert face_problem(good, Card.parse("AH")) == "corner index is not red"
    hollow = good.copy()
    hollow[:, : FACE_WIDTH // 2, 3] = 0
    assert "mis-cropped" in str(face_problem(hollow, Card.parse("AS")))
    plain = good.copy()
    plain[: FACE_HEIGHT // 3, : FACE_WIDTH // 4, :3] = 250
    assert "no corner index" in str(face_problem(plain, Card.parse("AS")))
    # rsvg's crop with a stray shape beside the card: the card is cut back out
    sheet = np.zeros((400, 700, 4), np.uint8)
    sheet[20:372, 30:282] = good
    sheet[50:60, 600:690, 3] = 255
    assert cut_out_card(sheet).shape == (FACE_HEIGHT, FACE_WIDTH, 4)


@pytest.mark.parametrize("seat", [0, 1])
def test_eight_meld_cards_lie_side_by_side_in_their_area(faces: Faces, seat: int) -> None:
    scene = MatScene.create(mat_layout(3), faces, 15)
    zone = next(z for z in scene.layout.zones_for("meld") if z.seat == seat)
    laid = [scene.place(card, seat, "meld") for card in parse_cards("AS 10S KS QS JS QD JD 9S")]
    short = scene.layout.card[0]
    for item in laid:
        x, y = item.target
        assert zone.x0 < x < zone.x1 and zone.y0 < y < zone.y1, item
    for a, b in itertools.combinations(laid, 2):   # apart by a card's width or length
        dx, dy = abs(a.target[0] - b.target[0]), abs(a.target[1] - b.target[1])
        assert max(dx, dy) > short, (a.card, b.card)
