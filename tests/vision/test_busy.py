"""Cards on busy backgrounds (rendered by vision.busy: textured grounds, shadows, uneven
light; faces of kdegames' standard deck, a training design of the corner reader), apart,
fanned, piled and in overlapping pairs, found by find_cards' busy-background path."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from table.rules import Card
from vision.busy import (
    CARD_RATIO,
    DROPPED,
    DROPPED_HIDDEN,
    DROPPED_LENGTH,
    HAND,
    HAND_TURNS,
    TEXTURES,
    Laid,
    _card_corners,
    _index_boxes,
    _paste,
    busy_scene,
    busy_texture,
    index_centres,
    jumbo_index,
    photographed,
    warm_lamp,
)
from vision.detect import _one_card, _part_of, card_outlines, straighten
from vision.edges import edge_outlines, same_card, suppress
from vision.faces import load_deck
from vision.looks import line_across, looks_like_card
from vision.quads import order_corners
from vision.reading import named_at_both_corners

Faces = dict[Card, np.ndarray]


@pytest.fixture(scope="module")
def faces() -> Faces:
    """kdegames' standard deck (a training design of the corner reader), as the simulator
    lays it (tests/live/test_simulator.py does the same)."""
    return load_deck("svg-standard")


def _found(outlines: list[np.ndarray], centres: list[tuple[float, float]]) -> bool:
    return any(all(cv2.pointPolygonTest(q.reshape(-1, 1, 2), c, False) >= 0 for c in centres)
               for q in outlines)


def _tally(faces: Faces, layout: str, scenes: int, seed: int) -> tuple[int, int, int]:
    """Cards showing an index, those found, and those found by the white alone."""
    rng = np.random.default_rng(seed)
    shown = found = found_before = 0
    for i in range(scenes):
        frame, laid = busy_scene(faces, rng, kind=TEXTURES[i % len(TEXTURES)], layout=layout)
        with_edges, plain = card_outlines(frame, edges=True), card_outlines(frame)
        for centres in index_centres(laid):
            if centres:
                shown += 1
                found += _found(with_edges, centres)
                found_before += _found(plain, centres)
    return shown, found, found_before


def test_cards_apart_on_textures_match_the_laid_cards(faces: Faces) -> None:
    """Cards apart on every texture: most get an outline whose corners all lie within a
    sixth of a card's width of the laid card's (same_card), and hardly any outline is off
    every card."""
    rng = np.random.default_rng(21)
    laid_count = matched = stray = 0
    for i in range(20):
        frame, laid = busy_scene(faces, rng, kind=TEXTURES[i % len(TEXTURES)],
                                 layout="apart")
        outlines = card_outlines(frame, edges=True)
        laid_count += len(laid)
        matched += sum(any(same_card(q, item.corners) for q in outlines) for item in laid)
        stray += sum(not any(_on(q, item) for item in laid) for q in outlines)
    assert matched >= 0.65 * laid_count, (matched, laid_count)
    assert stray <= 0.05 * laid_count, (stray, laid_count)


def _on(quad: np.ndarray, item: Laid) -> bool:
    middle = quad.mean(axis=0)
    return cv2.pointPolygonTest(item.corners.reshape(-1, 1, 2),
                                (float(middle[0]), float(middle[1])), False) >= 0


def test_the_edges_find_more_than_the_white(faces: Faces) -> None:
    shown, found, before = _tally(faces, "apart", scenes=12, seed=3)
    assert found >= 0.8 * shown, (found, shown)
    assert found > before


def test_fanned_cards_are_found(faces: Faces) -> None:
    shown, found, before = _tally(faces, "fan", scenes=16, seed=4)
    assert found >= 0.6 * shown, (found, shown)
    assert found > before


def test_partly_covered_cards_are_found(faces: Faces) -> None:
    """Piles: a card under others shows a corner with its index, and is found as a card."""
    rng = np.random.default_rng(5)
    under = found = 0
    for i in range(16):
        frame, laid = busy_scene(faces, rng, kind=TEXTURES[i % len(TEXTURES)],
                                 layout="pile")
        outlines = card_outlines(frame, edges=True)
        for k, centres in enumerate(index_centres(laid)):
            covered = any(cv2.intersectConvexConvex(laid[k].corners, o.corners)[0] > 1
                          for o in laid[:k])
            if centres and covered:
                under += 1
                found += _found(outlines, centres)
    assert under >= 10
    assert found >= 0.5 * under, (found, under)


def test_an_overlapping_pair_is_split_in_two(faces: Faces) -> None:
    """Two cards overlapping along a long side, a third apart: at least two pairs in five give
    each card an outline of its own, not one outline holding both (about half do, with
    OpenCV 4.6 as with 5.0)."""
    rng = np.random.default_rng(8)
    pairs = split = 0
    for i in range(30):
        frame, laid = busy_scene(faces, rng, kind=TEXTURES[i % len(TEXTURES)],
                                 layout="pair")
        shown = index_centres(laid)
        if len(laid) < 3 or not shown[0] or not shown[1]:
            continue
        pairs += 1
        outlines = card_outlines(frame, edges=True)
        apart = [[q for q in outlines if _found([q], shown[k])] for k in (0, 1)]
        split += all(apart) and not any(_found([q], shown[0] + shown[1]) for q in outlines)
    assert pairs >= 12
    assert split >= 0.4 * pairs, (split, pairs)


def _turn(a: np.ndarray, b: np.ndarray) -> float:
    """Degrees b's long side is turned from a's (clockwise on the frame, y down)."""
    u, v = a[0] - a[3], b[0] - b[3]
    return float(np.degrees(np.arctan2(u[0] * v[1] - u[1] * v[0], float(u @ v))))


def test_a_hand_is_three_cards_fanned_about_a_corner_each_showing_an_index(
        faces: Faces) -> None:
    """The "hand" layout (the three-card scenes the real photos were made by): three cards
    of one size in the frame, turned clockwise about the bottom card's bottom-left corner by
    HAND_TURNS; the top card shows both indices, each card under it its top-left one only."""
    rng = np.random.default_rng(12)
    for i in range(12):
        frame, laid = busy_scene(faces, rng, kind=TEXTURES[i % len(TEXTURES)], layout=HAND)
        assert len(laid) == 3
        top, middle, bottom = (item.corners for item in laid)
        assert all((q >= -2).all() and (q[:, 0] <= frame.shape[1] + 2).all()
                   and (q[:, 1] <= frame.shape[0] + 2).all() for q in (top, middle, bottom))
        lengths = [float(np.linalg.norm(q[0] - q[3])) for q in (top, middle, bottom)]
        assert max(lengths) - min(lengths) < 0.5
        for q, (lo, hi) in zip((middle, top), HAND_TURNS, strict=True):
            assert lo - 0.1 <= _turn(bottom, q) <= hi + 0.1
            assert float(np.linalg.norm(q[3] - bottom[3])) < 0.1 * lengths[0]
        shown = index_centres(laid)
        assert len(shown[0]) == 2
        for item, centres in zip(laid[1:], shown[1:], strict=True):
            c = item.corners
            assert len(centres) == 1
            assert np.linalg.norm(np.array(centres[0]) - c[0]) < np.linalg.norm(
                np.array(centres[0]) - c[2])


def test_dropped_cards_hide_an_index_of_the_card_under_wholly_or_not_at_all(
        faces: Faces) -> None:
    """The "dropped" layout (the two-card scenes the real photos were made by): two cards of
    sizes of their own, their indices in the frame; each index of the card under the top one
    is covered by it wholly or hardly, and some scenes show only one of its indices."""
    rng = np.random.default_rng(3)
    one_shown = 0
    for i in range(30):
        _, laid = busy_scene(faces, rng, kind=TEXTURES[i % len(TEXTURES)], layout=DROPPED)
        assert 1 <= len(laid) <= 2
        for item in laid:
            length = float(np.linalg.norm(item.corners[0] - item.corners[3]))
            assert DROPPED_LENGTH[0] * 720 - 0.5 <= length <= DROPPED_LENGTH[1] * 720 + 0.5
            for box in _index_boxes(item.corners):
                assert (box >= -1).all() and (box <= 721).all()
        shown = index_centres(laid)
        assert len(shown[0]) == 2
        if len(laid) == 2:
            top, under = laid[0].corners, laid[1].corners
            for box in _index_boxes(under):
                hidden = cv2.intersectConvexConvex(box, top)[0] / cv2.contourArea(box)
                assert hidden <= 1 - DROPPED_HIDDEN + 1e-6 or hidden >= DROPPED_HIDDEN - 1e-6
            one_shown += len(shown[1]) == 1
    assert one_shown >= 3


def test_grounds_with_no_card_give_next_to_no_outline(faces: Faces) -> None:
    """Thirty grounds, three of each texture, no card: at most two outlines in all (a
    light blotch ringed by dark ones can still pass for a card's corner; bench_busy counts
    them), and none on most textures."""
    outlines = {}
    for kind in TEXTURES:
        rng = np.random.default_rng(TEXTURES.index(kind) + 100)
        outlines[kind] = 0
        for _ in range(3):
            frame, laid = busy_scene(faces, rng, kind=kind, cards=False)
            assert not laid
            outlines[kind] += len(card_outlines(frame, edges=True))
    assert sum(outlines.values()) <= 2, outlines
    assert sum(n == 0 for n in outlines.values()) >= len(TEXTURES) - 1, outlines


def test_a_plain_white_patch_does_not_look_like_a_card() -> None:
    """A light, colourless, card-shaped patch with no index in any corner is no card."""
    frame = np.full((400, 400, 3), (40, 90, 160), np.uint8)
    quad = np.array([[100, 80], [226, 80], [226, 256], [100, 256]], np.float32)
    cv2.fillConvexPoly(frame, quad.astype(np.int32), (235, 235, 235))
    assert not looks_like_card(frame, quad)
    cv2.putText(frame, "A", (106, 112), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (0, 0, 0), 3)
    assert looks_like_card(frame, quad)


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


def test_a_jumbo_index_is_the_index_grown_from_its_corner_and_the_middle_is_kept(
        faces: Faces) -> None:
    """vision.busy.jumbo_index: the rank of each index (the topmost ink from its corner)
    reaches `times` as far from the card corner, across and down (within a few px), and the
    middle of the face is as printed."""
    face = faces[Card.parse("9C")]
    h, w = face.shape[:2]
    grown = jumbo_index(face, 1.3)

    def rank_reach(image: np.ndarray) -> np.ndarray:
        """How far from the top-left corner the rank's ink reaches (px, across and down)."""
        strip = np.ascontiguousarray(image[:h // 2, :w // 2, :3]).min(axis=2)
        dark = (strip < 0.7 * float(np.percentile(strip, 95))).astype(np.uint8)
        _, _, stats, _ = cv2.connectedComponentsWithStats(dark, connectivity=8)
        inner = [s for s in stats[1:] if s[4] > 20 and s[0] > 0 and s[1] > 0
                 and s[0] + s[2] < dark.shape[1] and s[1] + s[3] < dark.shape[0]]
        x, y, bw, bh, _ = min(inner, key=lambda s: s[1])   # not the printed border
        return np.array([x + bw, y + bh])

    for turned in (False, True):
        before = rank_reach(face[::-1, ::-1] if turned else face)
        after = rank_reach(grown[::-1, ::-1] if turned else grown)
        assert np.all(np.abs(after - 1.3 * before) < 4), (before, after)
    middle = (slice(int(0.45 * h), int(0.55 * h)), slice(int(0.3 * w), int(0.7 * w)))
    assert np.array_equal(grown[middle], face[middle])


def test_a_photographed_face_keeps_its_outline_and_ink_under_a_lamp_of_its_own(
        faces: Faces) -> None:
    """vision.busy.photographed: the same face photographed twenty times is lit differently
    each time (its paper's brightness and colour vary), its outline (alpha) is the same, and
    its index is still darker than its paper."""
    face = faces[Card.parse("KH")]
    h, w = face.shape[:2]
    rng = np.random.default_rng(1)
    papers, contrasts = [], []
    for _ in range(20):
        shot = photographed(face, rng)
        assert shot.shape == face.shape
        assert np.array_equal(shot[:, :, 3], face[:, :, 3])
        middle = shot[int(0.45 * h):int(0.55 * h), int(0.05 * w):int(0.15 * w), :3]
        paper = np.median(middle.reshape(-1, 3), axis=0)
        papers.append(paper)
        corner = shot[:int(0.2 * h), :int(0.15 * w), :3].min(axis=2)
        contrasts.append(float(np.percentile(corner, 90) - np.percentile(corner, 2)))
    papers_ = np.array(papers)
    assert np.ptp(papers_.mean(axis=1)) > 60          # dim and bright lamps
    assert np.ptp(papers_[:, 0] - papers_[:, 2]) > 40  # warm and cool ones (blue less red)
    assert min(contrasts) > 40


def test_a_warm_lamp_takes_blue_down_most_and_green_a_third_as_far() -> None:
    """vision.busy.warm_lamp: a grey frame under it is warmer, the same warmth all over."""
    rng = np.random.default_rng(2)
    for _ in range(10):
        warm = warm_lamp(np.full((40, 60, 3), 200, np.uint8), rng).astype(np.float32)
        b, g, r = (warm[:, :, k] for k in range(3))
        assert np.all(r == 200)
        assert np.all((b >= 0.55 * 200 - 1) & (b <= 0.85 * 200 + 1))
        assert np.allclose(200 - g, (200 - b) / 3, atol=1.0)


def test_a_lamp_of_no_known_kind_is_refused(faces: Faces) -> None:
    with pytest.raises(ValueError, match="lamps is one of scene, own, warm, not 'candle'"):
        busy_scene(faces, np.random.default_rng(0), lamps="candle")


def _one_big_card(faces: Faces, card: Card) -> tuple[np.ndarray, np.ndarray]:
    """A card 400 px long on a woven ground (nearer the camera than a table's cards), and
    its corners."""
    frame = busy_texture("weave", np.random.default_rng(0), (720, 720))
    whole = _card_corners(np.array([360.0, 360.0]), 400.0, 0.0)
    _paste(frame, faces[card], whole)
    return frame, whole


@pytest.mark.parametrize("name", ["9S", "10H", "KS", "QH"])
def test_half_a_card_with_a_line_across_it_is_a_part_of_it(faces: Faces, name: str) -> None:
    """A card's white split in two at a row of pips or a line in its picture: each half is
    card-shaped, and the line across the whole is where two cards side by side would meet,
    but the corner reader names the whole at both its corners and neither half another
    card, so the halves are parts of it (on letele's busy scenes, the tuning seed, such
    halves hid 7 of 594 cards)."""
    frame, whole = _one_big_card(faces, Card.parse(name))
    middle = [(whole[1] + whole[2]) / 2, (whole[0] + whole[3]) / 2]
    halves = [order_corners(np.array(half, np.float32))
              for half in ([whole[0], whole[1], *middle], [*middle, whole[3], whole[2]])]
    assert line_across(frame, whole)   # what alone would take it for two cards
    assert _one_card(frame, whole, halves)
    assert all(_part_of(half, [whole], frame) for half in halves)


def test_two_cards_side_by_side_are_not_one_card(faces: Faces) -> None:
    """Two cards touching along a long side make a card's shape: the corner reader never
    names them as one card, so neither is taken for a part of the pair's outline."""
    names = sorted(faces, key=str)
    for k in range(len(names)):
        first, second = names[k], names[(7 * k + 5) % len(names)]
        frame = busy_texture("weave", np.random.default_rng(k), (720, 720))
        left = _card_corners(np.array([250.0, 360.0]), 300.0, 0.0)
        right = left + np.array([300.0 * CARD_RATIO, 0.0], np.float32)
        _paste(frame, faces[first], left)
        _paste(frame, faces[second] if k % 2 else cv2.rotate(faces[second], cv2.ROTATE_180),
               right)
        whole = order_corners(np.array([left[0], right[1], right[2], left[3]], np.float32))
        assert not _one_card(frame, whole, [left]), (first, second)
        assert not _one_card(frame, whole, [right]), (first, second)
        assert not named_at_both_corners(straighten(frame, whole)), (first, second)
