"""Cards with no printed border (white to their rounded edge, as a cut-out Bicycle card),
rendered by vision.busy from kdegames' standard deck (a training design of the corner reader)
with its border painted over (`borderless`), on pale and textured grounds: found by
find_cards' busy-background path as the cards they are, not as halves of them."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from table.rules import Card
from vision.busy import _card_corners, _paste, borderless, busy_scene, busy_texture
from vision.detect import card_outlines
from vision.edges import same_card
from vision.faces import load_deck
from vision.smooth import smooth_paper

Faces = dict[Card, np.ndarray]
FINE = ("carpet", "asphalt", "weave", "noise")   # of vision.busy's textures


@pytest.fixture(scope="module")
def plain() -> Faces:
    return {card: borderless(face) for card, face in load_deck("svg-standard").items()}


def _pale(rng: np.random.Generator, kind: str) -> np.ndarray:
    """A textured ground made colourless and light, its lightest parts a card's white."""
    grey = cv2.cvtColor(busy_texture(kind, rng, (720, 720)), cv2.COLOR_BGR2GRAY)
    grey = grey.astype(np.float32)
    low, high = rng.uniform(120, 170), rng.uniform(225, 250)
    grey = low + (high - low) * (grey - grey.min()) / max(float(grey.max() - grey.min()), 1.0)
    ground = np.dstack([grey] * 3) + rng.normal(0, 4, (720, 720, 3))
    return np.clip(ground, 0, 255).astype(np.uint8)


def _lone(plain: Faces, rng: np.random.Generator, ground: np.ndarray, k: int
          ) -> tuple[np.ndarray, np.ndarray]:
    """One borderless card on the ground, its shadow to one side: the frame, its corners."""
    card = _card_corners(np.array([360.0, 360.0]) + rng.uniform(-150, 150, 2),
                         float(rng.uniform(170, 260)), float(rng.uniform(0, 6.3)))
    shadow = np.array([*rng.uniform(1, 4, 2), 3.0, float(rng.uniform(0.15, 0.35))])
    _paste(ground, plain[list(plain)[k % len(plain)]], card, shadow)
    return cv2.GaussianBlur(ground, (0, 0), 0.8), card


def test_borderless_paints_the_printed_border_over() -> None:
    """The standard deck's black border is gone: the rim inside the card's rounded outline
    is paper, the print well inside it and the outline (alpha) are as they were."""
    face = load_deck("svg-standard")[Card.parse("KH")]
    bare = borderless(face)
    assert np.array_equal(bare[:, :, 3], face[:, :, 3])
    rim = (face[:, :, 3] == 255) & ~cv2.erode(
        (face[:, :, 3] == 255).astype(np.uint8), np.ones((9, 9), np.uint8),
        borderType=cv2.BORDER_CONSTANT, borderValue=0).astype(bool)
    assert face[:, :, :3][rim].min(axis=1).mean() < 200   # the border is dark ...
    assert np.percentile(bare[:, :, :3][rim].min(axis=1), 5) > 200   # ... and now paper
    assert np.array_equal(bare[40:-40, 40:-40], face[40:-40, 40:-40])


def test_a_borderless_card_on_a_pale_ground_is_found(plain: Faces) -> None:
    """A lone borderless card on a light, colourless, textured ground (its white runs into
    the ground's lightest parts; only its shadowed sides show as edges): most get an
    outline of their own, few outlines are not the card (11 of 12 here, 3 others; 6 of 12
    before a card could be laid from two sides on edges and two standing out faintly)."""
    rng = np.random.default_rng(61)
    found = stray = 0
    for k in range(12):
        frame, card = _lone(plain, rng, _pale(rng, FINE[k % 4]), k)
        outlines = card_outlines(frame, edges=True)
        found += any(same_card(q, card) for q in outlines)
        stray += sum(not same_card(q, card) for q in outlines)
    assert found >= 9, found
    assert stray <= 4, stray


def _grainy(rng: np.random.Generator, pale: bool) -> np.ndarray:
    """A fine-grained ground (a carpet, a road): strong grain at every pixel, of a colour
    or light and colourless."""
    base = rng.uniform(170, 215, 1).repeat(3) if pale else rng.uniform(40, 200, 3)
    grain = cv2.resize(rng.normal(0, 45, (240, 240, 1 if pale else 3)).astype(np.float32),
                       (720, 720), interpolation=cv2.INTER_LINEAR).reshape(720, 720, -1)
    ground = np.clip(base + grain + rng.normal(0, 4, (720, 720, 3)), 0, 255)
    return cv2.GaussianBlur(ground.astype(np.uint8), (0, 0), 0.7)


def test_smooth_paper_is_the_card_on_a_fine_grained_ground(plain: Faces) -> None:
    """On a fine-grained ground the smooth paper mask holds most of the card's paper and
    hardly any ground; on a plain cloth (nothing busy to tell paper by) it is empty."""
    rng = np.random.default_rng(62)
    pips = {card: face for card, face in plain.items() if str(card)[0] in "91A"}
    for k in range(6):   # cards of pips: a court's picture is no paper
        frame, card = _lone(pips, rng, _grainy(rng, pale=k % 2 == 1), k)
        inside = np.zeros(frame.shape[:2], np.uint8)
        cv2.fillConvexPoly(inside, np.round(card).astype(np.int32), 255)
        paper = smooth_paper(frame)
        held = cv2.countNonZero(cv2.bitwise_and(paper, inside)) / cv2.countNonZero(inside)
        outside = cv2.countNonZero(cv2.bitwise_and(paper, cv2.bitwise_not(inside)))
        assert held > 0.5, (k, held)
        assert outside < 0.1 * cv2.countNonZero(inside), (k, outside)
    cloth = np.full((480, 640, 3), (40, 110, 40), np.uint8)
    cv2.rectangle(cloth, (200, 100), (326, 276), (240, 240, 240), -1)
    assert not smooth_paper(cloth).any()


def test_borderless_scenes_never_raise(plain: Faces) -> None:
    """Busy scenes of borderless cards of every layout run through without raising."""
    rng = np.random.default_rng(64)
    for layout in ("apart", "fan", "pile", "pair", "overlap"):
        frame, _ = busy_scene(plain, rng, layout=layout)
        assert isinstance(card_outlines(frame, edges=True), list)
