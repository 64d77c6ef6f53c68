"""No frame makes the card finder raise: random and degenerate frames (blank, one colour,
noise, tiny, huge, one huge blob, odd shapes, every accepted dtype and channel count)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vision.detect import Detection, card_outlines, find_cards

SIZES = [(1, 1), (1, 7), (2, 3), (9, 5), (40, 30), (120, 90), (480, 640), (720, 720),
         (1080, 1920)]
KINDS = ["blank", "colour", "noise", "blob", "shapes", "cards", "bridges"]


def _frame(kind: str, size: tuple[int, int], seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    h, w = size
    colour = tuple(int(v) for v in rng.integers(0, 256, 3))
    frame = np.zeros((h, w, 3), np.uint8)
    if kind == "colour":
        frame[:] = colour
    elif kind == "noise":
        frame = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    elif kind == "blob":   # one bright shape that fills most of the frame
        frame[:] = colour
        cv2.ellipse(frame, (w // 2, h // 2), (w // 2, h // 2), float(rng.uniform(0, 90)), 0, 360,
                    (250, 250, 250), -1)
    elif kind == "shapes":   # polygons that cross themselves, thin lines, speckle
        frame[:] = colour
        for _ in range(int(rng.integers(1, 12))):
            pts = rng.integers(-w // 4, max(2, w + w // 4), (int(rng.integers(3, 9)), 2))
            pts[:, 1] = rng.integers(-h // 4, max(2, h + h // 4), len(pts))
            cv2.fillPoly(frame, [pts.astype(np.int32)], (245, 245, 245))
        frame[rng.random((h, w)) < 0.01] = 255
    elif kind in ("cards", "bridges"):   # card-sized white quads, touching or overlapping
        frame[:] = colour
        side = max(2.0, min(h, w) / float(rng.uniform(2, 8)))
        for _ in range(int(rng.integers(1, 14))):
            centre = (float(rng.uniform(0, w)), float(rng.uniform(0, h)))
            box = cv2.boxPoints((centre, (side * 0.72, side), float(rng.uniform(0, 180))))
            cv2.fillConvexPoly(frame, box.astype(np.int32), (240, 240, 240))
            cv2.circle(frame, (int(centre[0]), int(centre[1])), max(1, int(side / 8)),
                       (20, 20, 200), -1)
        if kind == "bridges":   # one-pixel bridges and cuts: contours that touch themselves
            for _ in range(int(rng.integers(1, 30))):
                a = tuple(int(v) for v in rng.integers(0, max(1, w), 2) % max(1, w))
                b = (int(rng.integers(0, max(1, w))), int(rng.integers(0, max(1, h))))
                cv2.line(frame, (a[0], a[1] % max(1, h)), b,
                         (240, 240, 240) if rng.random() < 0.5 else colour, 1)
    return frame


def _as_given(frame: np.ndarray, form: str) -> np.ndarray:
    if form == "grey":
        return np.ascontiguousarray(frame[:, :, 1])
    if form == "bgra":
        return np.dstack([frame, np.full(frame.shape[:2], 255, np.uint8)])
    if form == "view":   # a non-contiguous view, as a crop of a bigger frame is
        return frame[::-1, ::-1]
    return frame


def _check(found: list[Detection], frame: np.ndarray) -> None:
    for detection in found:
        assert detection.corners.shape == (4, 2)
        assert np.isfinite(detection.corners).all()
        assert detection.reading.card is None or 0 <= detection.reading.confidence <= 1


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(KINDS), size=st.sampled_from(SIZES),
       seed=st.integers(0, 2**32 - 1), form=st.sampled_from(["bgr", "grey", "bgra", "view"]))
def test_no_frame_makes_find_cards_raise(kind: str, size: tuple[int, int], seed: int,
                                         form: str) -> None:
    frame = _as_given(_frame(kind, size, seed), form)
    _check(find_cards(frame), frame)


@pytest.mark.parametrize("kind", ["blank", "noise", "blob", "cards"])
def test_a_huge_frame_of_each_kind(kind: str) -> None:
    frame = _frame(kind, (3040, 4056), 7)   # a 12-megapixel still
    assert isinstance(card_outlines(frame), list)


@pytest.mark.parametrize("seed", range(24))
def test_blobs_joined_by_thin_bridges(seed: int) -> None:
    """The shapes that made cv2.convexityDefects raise (contours touching themselves)."""
    _check(find_cards(_frame("bridges", (540, 960), seed)), np.empty(0))


def test_empty_and_wrong_input() -> None:
    assert find_cards(np.zeros((0, 0, 3), np.uint8)) == []
    assert find_cards(np.zeros((0, 5), np.uint8)) == []
    with pytest.raises(ValueError, match="uint8"):
        find_cards(np.zeros((10, 10, 3), np.float32))
    with pytest.raises(ValueError, match="shape"):
        find_cards(np.zeros((10, 10, 2), np.uint8))
