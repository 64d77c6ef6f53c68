"""Cards on busy backgrounds (rendered: noise, stripes, wood grain, blotches), apart or fanned
over each other, found by find_cards' edge-based second look (vision.edges)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from table.rules import Card
from vision.busy import TEXTURES, busy_scene, index_centres
from vision.detect import card_outlines
from vision.edges import edge_outlines, same_card, suppress

Faces = dict[Card, np.ndarray]


def _found(outlines: list[np.ndarray], centres: list[tuple[float, float]]) -> bool:
    return any(all(cv2.pointPolygonTest(q.reshape(-1, 1, 2), c, False) >= 0 for c in centres)
               for q in outlines)


def _tally(faces: Faces, fan: bool, scenes: int, seed: int) -> tuple[int, int, int]:
    rng = np.random.default_rng(seed)
    shown = found = found_before = 0
    for i in range(scenes):
        frame, laid = busy_scene(faces, rng, kind=TEXTURES[i % len(TEXTURES)], fan=fan)
        with_edges, plain = card_outlines(frame, edges=True), card_outlines(frame)
        for centres in index_centres(laid):
            if centres:
                shown += 1
                found += _found(with_edges, centres)
                found_before += _found(plain, centres)
    return shown, found, found_before


def test_cards_apart_on_busy_textures_are_found(standard_crops: Faces) -> None:
    shown, found, before = _tally(standard_crops, fan=False, scenes=16, seed=3)
    assert found >= 0.8 * shown, (found, shown)
    assert found > before   # the edges find cards the white alone misses


def test_fanned_cards_are_found(standard_crops: Faces) -> None:
    shown, found, before = _tally(standard_crops, fan=True, scenes=16, seed=4)
    assert found >= 0.45 * shown, (found, shown)
    assert found > before


def test_fans_of_three_give_three_outlines(standard_crops: Faces) -> None:
    """Fans of three, each card a third of a card's length from the one over it: most show
    all three cards as outlines, and no fan gives more than one outline too many."""
    rng = np.random.default_rng(11)
    held_per_fan = []
    for _ in range(30):
        frame, laid = busy_scene(standard_crops, rng, fan=True, spread=(0.25, 0.35))
        if len(laid) != 3:
            continue
        outlines = card_outlines(frame, edges=True)
        assert len(outlines) <= 4
        held_per_fan.append(sum(_found(outlines, c) for c in index_centres(laid) if c))
    assert len(held_per_fan) >= 10
    assert held_per_fan.count(3) >= 0.35 * len(held_per_fan), held_per_fan
    assert np.mean(held_per_fan) >= 2.0, held_per_fan


def test_suppress_keeps_one_outline_per_card() -> None:
    card = np.array([[0, 0], [63, 0], [63, 88], [0, 88]], np.float32)
    nudged = card + np.float32(2)
    fanned = card + np.array([20, 0], np.float32)
    assert same_card(card, nudged) and not same_card(card, fanned)
    assert len(suppress([nudged, fanned], [card])) == 1


@pytest.mark.parametrize("seed", range(4))
def test_edges_never_raise_on_noise(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for shape in ((720, 720, 3), (17, 900, 3), (300, 20, 3)):
        frame = rng.integers(0, 256, shape, dtype=np.uint8)
        assert isinstance(edge_outlines(frame), list)
