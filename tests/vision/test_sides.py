"""Cards found from their straight sides (vision.sides) through find_cards' busy-background
path, on rendered scenes (faces of kdegames' standard deck, a training design of the corner
reader, on vision.busy's textures): a card on a pale, colourless ground, two cards touching
along a long side, a thin frame printed inside a card, and the cells of a check cloth."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from table.rules import Card
from vision.busy import CARD_RATIO, _card_corners, _paste, busy_texture
from vision.detect import card_outlines
from vision.edges import same_card
from vision.faces import load_deck
from vision.sides import around, joined, segments, side_cards

Faces = dict[Card, np.ndarray]
GROUNDS = ("blotches", "asphalt", "noise", "carpet", "wood", "stripes")


@pytest.fixture(scope="module")
def faces() -> Faces:
    return load_deck("svg-standard")


def _pale(kind: str, rng: np.random.Generator) -> np.ndarray:
    """A textured ground made colourless and light (grey rock, concrete, pale cloth): its
    lightest parts nearly a card's white."""
    grey = cv2.cvtColor(busy_texture(kind, rng, (720, 720)), cv2.COLOR_BGR2GRAY)
    grey = grey.astype(np.float32)
    low, high = rng.uniform(90, 170), rng.uniform(215, 245)
    grey = low + (high - low) * (grey - grey.min()) / max(float(grey.max() - grey.min()), 1.0)
    ground = np.dstack([grey] * 3) + rng.normal(0, 5, (720, 720, 3)) + rng.uniform(-8, 8, 3)
    return np.clip(ground, 0, 255).astype(np.uint8)


def _finish(frame: np.ndarray) -> np.ndarray:
    return cv2.GaussianBlur(frame, (0, 0), 0.8)


def test_a_card_on_a_pale_colourless_ground_is_found(faces: Faces) -> None:
    """A lone card whose white runs into light grey patches of the ground: its white is no
    card-shaped blob, but its sides stand out; most such cards get their own outline."""
    rng = np.random.default_rng(5)
    names = list(faces)
    found = stray = 0
    for k in range(16):
        frame = _pale(GROUNDS[k % 4], rng)
        card = _card_corners(np.array([360.0, 360.0]) + rng.uniform(-150, 150, 2),
                             float(rng.uniform(160, 260)), float(rng.uniform(0, 6.3)))
        _paste(frame, faces[names[k]], card, np.array([3.0, 3.0, 3.0, 0.3]))
        outlines = card_outlines(_finish(frame), edges=True)
        found += any(same_card(q, card) for q in outlines)
        stray += sum(not same_card(q, card) for q in outlines)
    assert found >= 11, found
    # parts of a court's white completed out over the ground still pass for cards at times
    assert stray <= 8, stray


def test_two_cards_touching_along_a_long_side_are_parted(faces: Faces) -> None:
    """Two cards side by side, touching or a hair apart, on a textured ground: about half
    the pairs give each card an outline of its own (without the sides, a pair in four)."""
    rng = np.random.default_rng(4)
    names = list(faces)
    both = 0
    for k in range(16):
        frame = busy_texture(GROUNDS[k % 6], rng, (720, 720))
        length, angle = float(rng.uniform(170, 260)), float(rng.uniform(0, 6.3))
        centre = np.array([360.0, 360.0]) + rng.uniform(-80, 80, 2)
        step = float(rng.uniform(0.97, 1.02)) * length * CARD_RATIO
        left = _card_corners(centre, length, angle)
        right = _card_corners(centre + step * np.array([np.cos(angle), np.sin(angle)]),
                              length, angle + float(rng.uniform(-0.05, 0.05)))
        for quad, name in ((right, names[2 * k % 24]), (left, names[(2 * k + 1) % 24])):
            _paste(frame, faces[name], quad, np.array([2.0, 2.0, 2.0, 0.3]))
        outlines = card_outlines(_finish(frame), edges=True)
        both += all(any(same_card(q, c) for q in outlines) for c in (left, right))
    assert both >= 7, both


def _framed_card(rng: np.random.Generator, pale: bool) -> tuple[np.ndarray, np.ndarray,
                                                                  np.ndarray]:
    """A card with a thin frame printed round its pips (on paper), on a textured ground or a
    pale one: the frame, the card's corners, the frame's corners."""
    frame = _pale("asphalt", rng) if pale else busy_texture("wood", rng, (720, 720))
    face = np.full((352, 252, 4), 255, np.uint8)
    face[:, :, :3] = (238, 240, 242)
    cv2.rectangle(face, (30, 38), (221, 313), (40, 40, 40, 255), 2)
    colour = (*(int(v) for v in rng.integers(0, 200, 3)), 255)
    for x, y in ((90, 100), (160, 100), (125, 175), (90, 250), (160, 250)):
        cv2.circle(face, (x, y), 18, colour, -1)
    for x, y in ((4, 30), (222, 340)):
        cv2.putText(face, "K", (x, y), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (0, 0, 0, 255), 3)
    card = _card_corners(np.array([360.0, 360.0]) + rng.uniform(-100, 100, 2),
                         float(rng.uniform(180, 300)), float(rng.uniform(0, 6.3)))
    _paste(frame, face, card)
    m = cv2.getPerspectiveTransform(
        np.array([[0, 0], [251, 0], [251, 351], [0, 351]], np.float32), card)
    inner = np.array([[[30, 38]], [[221, 38]], [[221, 313]], [[30, 313]]], np.float32)
    return _finish(frame), card, cv2.perspectiveTransform(inner, m).reshape(4, 2)


def test_a_printed_frame_gives_way_to_the_card_round_it() -> None:
    """The thin frame round a card's pips is a card-shaped rectangle of paper too: the
    outline found is the card's own, never the frame's, and from the frame's outline the
    card round it is found (each side moved out to the card's edge)."""
    rng = np.random.default_rng(3)
    for k in range(8):
        frame, card, inner = _framed_card(rng, pale=k % 2 == 1)
        outlines = card_outlines(frame, edges=True)
        assert any(same_card(q, card) for q in outlines), k
        assert not any(same_card(q, inner) for q in outlines), k
        grown = around(frame, inner)
        assert grown is not None and same_card(grown, card), k
        assert around(frame, card) is None, k   # a card's own edge: nothing round it


def test_the_cells_of_a_check_cloth_are_no_cards(faces: Faces) -> None:
    """A check cloth's cells have straight sides meeting at right angles, and light ones
    are paper-coloured, but their sides run on past their corners: none is laid as a card."""
    rng = np.random.default_rng(57)
    laid = 0
    for _ in range(6):
        frame = _finish(busy_texture("checks", rng, (720, 720)))
        laid += len(side_cards(frame))
    assert laid <= 1, laid


def test_pieces_of_one_straight_edge_are_joined() -> None:
    """HoughLinesP's pieces of one edge (broken where it wavers, or running on along the
    other side of a printed border) make one segment; a parallel edge further off stays."""
    pieces = np.array([[100, 100, 160, 103], [170, 104, 250, 108], [255, 110, 300, 111],
                       [100, 140, 300, 150]], np.float32)
    lines = joined(pieces)
    assert len(lines) == 2
    longest = max(lines, key=lambda s: float(np.hypot(s[2] - s[0], s[3] - s[1])))
    assert min(longest[0], longest[2]) < 102 and max(longest[0], longest[2]) > 298


def test_the_sides_of_a_card_are_straight_segments() -> None:
    frame = np.full((400, 400, 3), 60, np.uint8)
    cv2.rectangle(frame, (100, 80), (226, 256), (235, 235, 235), -1)
    found = segments(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    lengths = np.hypot(found[:, 2] - found[:, 0], found[:, 3] - found[:, 1])
    assert (lengths > 150).sum() >= 2 and (lengths > 110).sum() >= 4


@pytest.mark.parametrize("seed", range(3))
def test_sides_never_raise_on_odd_frames(seed: int) -> None:
    rng = np.random.default_rng(seed)
    quad = np.array([[10, 10], [60, 10], [60, 80], [10, 80]], np.float32)
    for shape in ((720, 720, 3), (40, 900, 3), (300, 33, 3), (33, 33, 3)):
        frame = rng.integers(0, 256, shape, dtype=np.uint8)
        assert isinstance(side_cards(frame), list)
        assert around(frame, quad) is None or around(frame, quad).shape == (4, 2)
    flat = np.zeros((200, 200, 3), np.uint8)
    assert side_cards(flat) == [] and around(flat, quad) is None
    assert around(flat, np.zeros((4, 2), np.float32)) is None
