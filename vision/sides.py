"""Cards found from their straight sides, for photos on busy grounds:
`side_cards(frame, sizes) -> list of 4x2 corners`, and `around(frame, quad)`, the card round a
frame printed inside it.

A card's white may run into a light, colourless patch of the ground (grey rock, concrete,
pale cloth), or touch another card's white along a side: its white is then no card-shaped
region, though its sides still stand out as long straight edges. So the frame's straight
segments are found (Canny edges, cv2.HoughLinesP: in every OpenCV build, the Pi's 4.6 as the
wheel's; the pieces of one edge joined), and wherever two of them meet at a right angle (a
card's corner) cards are laid along them at a card's proportions (63 x 88 mm): each side
taken as a whole short or long side, or the size of a card found elsewhere in the frame. A
card so laid is kept when its sides, each of them, lie on the frame's edges, none runs on
past its corners (a check cloth's cells do), and it passes a stricter test than `looks`
(`is_card`: paper along every side); best supported first, each once, and two cards side by
side taken as one are cut in two (looks.parted). A card with no printed border on a pale
ground shows only its shadowed sides as edges: two sides on edges will do when the others
stand out from what lies beyond (looks.sides_shown) and neither side laid from runs on.
Thresholds tuned on rendered busy scenes (vision.busy, bench/bench_busy.py), never on the real
photos.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from .edges import WORK_SIDE, overlap_share
from .looks import NO_CARD, PAPER_SATURATION, paper_along, parted, scores, sides_shown
from .quads import (
    ASPECT_RANGE,
    CARD_ASPECT,
    PAIR_AREA,
    guarded,
    log,
    on_edges,
    order_corners,
    side_lengths,
)

CANNY = (30, 90)        # edges of the sides (a card's white on a pale ground stands out less)
MIN_SIDE = 0.05         # a segment at least this share of the frame's short side
PIECE = 0.4             # HoughLinesP's pieces at least this share of MIN_SIDE, ...
MAX_GAP = 3             # ... bridging gaps of at most this many px
IN_LINE = 4.0           # px: pieces this near one line are of one straight edge ...
JOIN = 12.0             # ... when at most this many px apart along it
MAX_SEGMENTS = 400      # the longest segments kept (a textured ground gives many short ones)
SQUARE = math.radians(8)    # two sides of a corner are this near a right angle
MEET = 0.08             # ... and their ends meet within this share of the shorter (+ 4 px)
SAME_SIZE = 0.04        # sizes this near are one
LONGER = 1.08           # a card holds a side it was laid from (shown at most this share)
ON_SIDES = 0.7          # share of a card's outline on edges, at least
ON_EACH = 0.5           # ... and of each of its sides (a card on a marker's white square: no)
SIDES_EDGED = 2         # ... or this many sides so, the others standing out (looks.sides_shown)
RUN = (0.1, 0.3)        # the run past a corner looked at, as shares of the side
RUNS_ON = 4             # a quad with this many of its sides' ends running on is a grid's
MAX_CANDIDATES = 300    # cards judged by looks, best supported first
SAME_SPOT = 0.5         # a card sharing this much of its area with one kept is that one
# A card laid from sides is judged more strictly than a region of white (vision.looks): a
# grid of a check cloth, or a printed frame inside a card, has straight sides and corners too.
PAPER = 0.75            # share of the band inside its sides that is paper, at least
EDGED = 0.6             # share of its sides' stretches that stand out from beyond, at least
NOT_PAPER = 0.25        # share of those stretches with no paper inside, at most
UPRIGHT = 60            # px: an outline's short side, straightened to look round it
FRAME_REACH = 0.4       # a card's edge lies at most this share of the frame's short side out
RING_OUT = 0.08         # the ring outside a printed frame that is paper (share of its short
FRAME_PAPER = 0.8       # side), this much of it on every side
FRAME_LIGHT = 0.75      # paper: colourless, and at least this share of the lightest
SIDE_PAPER = 0.5        # share of each side with paper just inside it, at least
MIN_CARD = 0.004        # a card's area as a share of the frame at least (edges.MIN_CARD_SHARE)
MAX_CARD = 0.4          # ... and at most (edges.MAX_CARD_SHARE)


def segments(gray: np.ndarray) -> np.ndarray:
    """The straight segments of a grey picture's edges, N x 4 (x0, y0, x1, y1), longest
    first: HoughLinesP's pieces of one straight edge joined (`joined`)."""
    return _segments(_canny(gray))


def _canny(gray: np.ndarray) -> np.ndarray:
    return cv2.Canny(cv2.GaussianBlur(gray, (5, 5), 1.0), *CANNY)


def _segments(edges: np.ndarray) -> np.ndarray:
    shortest = max(10.0, MIN_SIDE * min(edges.shape[:2]))
    found = cv2.HoughLinesP(edges, 1, math.pi / 180, threshold=int(PIECE * shortest),
                            minLineLength=PIECE * shortest, maxLineGap=MAX_GAP)
    if found is None:
        return np.zeros((0, 4), np.float32)
    lines = joined(found.reshape(-1, 4).astype(np.float32))
    lengths = np.hypot(lines[:, 2] - lines[:, 0], lines[:, 3] - lines[:, 1])
    keep = lengths >= shortest
    return lines[keep][np.argsort(-lengths[keep])][:MAX_SEGMENTS]


def joined(pieces: np.ndarray) -> np.ndarray:
    """Pieces of one straight edge (HoughLinesP breaks a long edge where it wavers by a
    pixel, or runs on along the other side of a card's printed border) joined into one
    segment: pieces along the line of a longer one (within IN_LINE px) with at most JOIN px
    between them; the segment is the line through all their ends."""
    lengths = np.hypot(pieces[:, 2] - pieces[:, 0], pieces[:, 3] - pieces[:, 1])
    order = np.argsort(-lengths)[:4 * MAX_SEGMENTS]
    # per line: its origin and unit direction (of its longest piece), extent along it
    origin = np.zeros((len(order), 2), np.float32)
    unit = np.zeros((len(order), 2), np.float32)
    extent = np.zeros((len(order), 2), np.float32)
    ends: list[list[np.ndarray]] = []
    for k in order.tolist():
        a, b = pieces[k, :2], pieces[k, 2:]
        n = len(ends)
        if n:
            o, u = origin[:n], unit[:n]
            off_a = np.abs((a - o)[:, 0] * u[:, 1] - (a - o)[:, 1] * u[:, 0])
            off_b = np.abs((b - o)[:, 0] * u[:, 1] - (b - o)[:, 1] * u[:, 0])
            ta, tb = ((a - o) * u).sum(axis=1), ((b - o) * u).sum(axis=1)
            lo, hi = np.minimum(ta, tb), np.maximum(ta, tb)
            gap = np.maximum(lo - extent[:n, 1], extent[:n, 0] - hi)
            near = np.flatnonzero((off_a < IN_LINE) & (off_b < IN_LINE) & (gap < JOIN))
            if len(near):
                m = int(near[0])
                extent[m] = (min(extent[m, 0], lo[m]), max(extent[m, 1], hi[m]))
                ends[m] += [a, b]
                continue
        if lengths[k] < 1e-6:
            continue
        origin[n], unit[n], extent[n] = a, (b - a) / lengths[k], (0.0, lengths[k])
        ends.append([a, b])
    out = []
    for m, points in enumerate(ends):
        o, u = origin[m], unit[m]
        if len(points) > 2:   # the line through all the pieces' ends
            pts = np.array(points, np.float32)
            centre = pts.mean(axis=0)
            _, _, vt = np.linalg.svd(pts - centre)
            u = vt[0] if float(vt[0] @ unit[m]) > 0 else -vt[0]
            t = (pts - centre) @ u
            o, extent[m] = centre, (float(t.min()), float(t.max()))
        out.append([*(o + u * extent[m, 0]), *(o + u * extent[m, 1])])
    return np.array(out, np.float32).reshape(-1, 4)


def corners(lines: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, float, float]]:
    """Where two segments end at a right angle to each other (a card's corner): the point
    where their lines cross, the unit directions of the two sides away from it, and how far
    each side reaches from it."""
    if len(lines) < 2:
        return []
    a, b = lines[:, :2], lines[:, 2:]
    length = np.maximum(np.linalg.norm(b - a, axis=1), 1e-6)
    unit = (b - a) / length[:, None]
    cross = unit[:, None, 0] * unit[None, :, 1] - unit[:, None, 1] * unit[None, :, 0]
    i_s, j_s = np.nonzero(np.triu(np.abs(cross) > math.cos(SQUARE), 1))
    out = []
    for i, j in zip(i_s.tolist(), j_s.tolist(), strict=True):
        r, s, den = unit[i], unit[j], float(cross[i, j])
        d = a[j] - a[i]
        t = float(d[0] * s[1] - d[1] * s[0]) / den   # the crossing, along segment i
        u = float(d[0] * r[1] - d[1] * r[0]) / den   # ... and along segment j
        reach = MEET * min(length[i], length[j]) + 4
        ends = []
        for k, along in ((i, t), (j, u)):
            if abs(along) < reach:
                ends.append((unit[k], float(length[k] - along)))
            elif abs(along - length[k]) < reach:
                ends.append((-unit[k], float(along)))
        if len(ends) == 2:
            out.append(((a[i] + t * r).astype(np.float32), ends[0][0].astype(np.float32),
                        ends[1][0].astype(np.float32), ends[0][1], ends[1][1]))
    return out


def _sizes_at(first: float, second: float, sizes: list[tuple[float, float]]
              ) -> list[tuple[float, float]]:
    """(along the first side, along the second) of the cards that may lie on a corner whose
    sides show `first` and `second` long: either side whole as a short or a long side, both
    whole, or a size of `sizes` (short, long)."""
    out = []
    for side in (first, second):
        out += [(side, side / CARD_ASPECT), (side * CARD_ASPECT, side)]
    pairs = []
    for short, long_ in out + list(sizes):
        pairs += [(short, long_), (long_, short)]
    if ASPECT_RANGE[0] <= min(first, second) / max(first, second, 1e-6) <= ASPECT_RANGE[1]:
        pairs.append((first, second))
    kept: list[tuple[float, float]] = []
    for along, across in pairs:
        # the card holds a side shown, the other may run on (into a card beside it)
        if first > LONGER * along and second > LONGER * across:
            continue
        if not any(abs(along / k[0] - 1) < SAME_SIZE and abs(across / k[1] - 1) < SAME_SIZE
                   for k in kept):
            kept.append((along, across))
    return kept


def _runs_on(quad: np.ndarray, edges: np.ndarray) -> int:
    """How many of the eight ends of the quad's sides run on, straight, past its corners
    along `edges` (a card's sides end at its corners; in a row of cards two, or four in its
    middle, run on into the next card's)."""
    t = np.linspace(RUN[0], RUN[1], 8, dtype=np.float32)[:, None]
    count = 0
    for k in range(4):
        a, b = quad[k], quad[(k + 1) % 4]
        for start, way in ((b, b - a), (a, a - b)):
            points = start + t * way
            xs, ys = np.round(points[:, 0]).astype(int), np.round(points[:, 1]).astype(int)
            inside = (xs >= 0) & (ys >= 0) & (xs < edges.shape[1]) & (ys < edges.shape[0])
            count += bool(inside.all()) and float((edges[ys, xs] > 0).mean()) >= ON_SIDES
    return count


def _supported(small: np.ndarray, quad: np.ndarray, edges: np.ndarray, faint: bool
               ) -> tuple[float, bool]:
    """How much of a card's outline shows: the share of it on `edges` when that is ON_SIDES
    and ON_EACH of each side. A white card on a pale ground (no printed border, its shadow
    on the far sides) shows two sides on edges; its other sides may stand out from what lies
    beyond (looks.sides_shown) though too faintly for the edges: each side's share is then
    the larger of the two, and at least SIDES_EDGED of them must be on edges (only when
    `faint`). With it, whether every side is on edges; (0, False) when the outline is no
    card's."""
    per_side = on_edges(quad, edges, 0.06, 16).mean(axis=1)
    support = float(per_side.mean())
    if support >= ON_SIDES and per_side.min() >= ON_EACH:
        return support, True
    if not faint or (per_side >= ON_EACH).sum() < SIDES_EDGED:
        return 0.0, False
    quad = order_corners(quad)   # its sides in the order looks.sides_shown gives them
    both = np.maximum(on_edges(quad, edges, 0.06, 16).mean(axis=1),
                      np.array(sides_shown(small, quad)))
    if both.mean() >= ON_SIDES and both.min() >= ON_EACH:
        return float(both.mean()), False
    return 0.0, False


def _may_be_pair(quad: np.ndarray, sizes: list[tuple[float, float]]) -> bool:
    """Whether an outline may be two cards side by side: no card size is known in the
    frame, or it is PAIR_AREA times bigger than the smallest known."""
    if not sizes:
        return True
    return cv2.contourArea(quad) > PAIR_AREA * min(short * long_ for short, long_ in sizes)


def _small(frame: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """The frame at the size it is searched at, in grey, and that size's scale."""
    h, w = frame.shape[:2]
    scale = min(1.0, WORK_SIDE / max(h, w))
    small = frame if scale == 1.0 else cv2.resize(frame, None, fx=scale, fy=scale,
                                                  interpolation=cv2.INTER_AREA)
    return small, cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), scale


def is_card(frame: np.ndarray, quad: np.ndarray) -> bool:
    """The strict test of a card laid from its sides (PAPER, EDGED, NOT_PAPER, an index),
    with paper along every side (not a card-shaped part of a marker's pattern)."""
    paper, edged, not_paper, index = guarded(scores, frame, quad, default=NO_CARD)
    return paper >= PAPER and edged >= EDGED and not_paper <= NOT_PAPER and index \
        and min(guarded(paper_along, frame, quad, default=[0.0])) >= SIDE_PAPER


def side_cards(frame: np.ndarray, sizes: list[tuple[float, float]] | None = None
               ) -> list[np.ndarray]:
    """Corners (4x2, frame pixels) of the cards laid from the frame's straight sides that
    meet at right angles (see the module's docstring); `sizes` are the (short, long) sides,
    in frame pixels, of cards already found in the frame."""
    h, w = frame.shape[:2]
    if min(h, w) < 32:
        return []
    small, gray, scale = _small(frame)
    raw = _canny(gray)
    lines = _segments(raw)
    edges = cv2.dilate(raw, np.ones((3, 3), np.uint8))
    known = [(s * scale, l_ * scale) for s, l_ in sizes or []]
    area = float(h * w) * scale * scale
    candidates: list[tuple[float, bool, np.ndarray]] = []
    for point, first, second, l1, l2 in corners(lines):
        for along, across in _sizes_at(l1, l2, known):
            quad = np.array([point, point + first * along,
                             point + first * along + second * across,
                             point + second * across], np.float32)
            if not MIN_CARD * area < along * across < MAX_CARD * area:
                continue
            # a side that runs on past the card leaves it no faint sides: a card's half
            # (a short side taken as a long one) would show pips for sides
            faint = l1 <= LONGER * along and l2 <= LONGER * across
            support, edged = guarded(_supported, small, quad, edges, faint,
                                     default=(0.0, False))
            if support:
                candidates.append((support, edged, order_corners(quad)))
    candidates.sort(key=lambda c: (not c[1], -c[0]))   # those on edges all round first
    kept: list[np.ndarray] = []
    for _, edged, quad in candidates[:MAX_CANDIDATES]:
        if any(overlap_share(quad, k) > SAME_SPOT for k in kept):
            continue
        if _runs_on(quad, edges) >= RUNS_ON:
            continue   # a cell of a grid (a check cloth): its sides run on past its corners
        if not is_card(small, quad):
            continue
        # two cards side by side make a card's shape too: keep each (looks.parted), unless
        # the frame's cards are of this one's size (a line printed across a card, a court's
        # frame or a row of pips, would cut it into two half cards)
        halves = guarded(parted, small, quad, default=None) \
            if edged and _may_be_pair(quad, known) else None
        for card in halves or [quad]:
            if not any(overlap_share(card, k) > SAME_SPOT for k in kept):
                kept.append(card)
    log.debug("%d segments, %d cards laid from corners, %d kept", len(lines),
              len(candidates), len(kept))
    return [((q + 0.5) / scale - 0.5).astype(np.float32) for q in kept]


def around(frame: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """The card round an outline that is only the thin frame printed inside a card (round a
    court's picture, or the pips): when the ring just outside the outline is still paper on
    every side, each side is moved out to the strongest step in brightness beyond it
    (the card's edge), within FRAME_REACH of its short side. The card's corners (frame
    pixels), or None when the outline is no such frame or no card is round it."""
    quad = order_corners(quad.astype(np.float32))
    short, long_ = min(side_lengths(quad)), max(side_lengths(quad))
    if short < 8:
        return None
    w, h = UPRIGHT, round(UPRIGHT * long_ / short)
    pad = round(FRAME_REACH * w)
    dst = np.array([[pad, pad], [pad + w, pad], [pad + w, pad + h], [pad, pad + h]], np.float32)
    m = cv2.getPerspectiveTransform(quad, dst)
    big = cv2.warpPerspective(frame, m, (w + 2 * pad, h + 2 * pad), flags=cv2.INTER_AREA,
                              borderMode=cv2.BORDER_REPLICATE)
    hsv = cv2.cvtColor(big, cv2.COLOR_BGR2HSV)
    value = cv2.GaussianBlur(hsv[:, :, 2], (3, 3), 0).astype(np.float32)
    paper = (hsv[:, :, 1] <= PAPER_SATURATION) & (value >= FRAME_LIGHT * np.percentile(value, 95))
    ring = round(RING_OUT * w)
    # each side's profile across it (mean over its middle), from the outline outwards
    rows, cols = slice(pad + h // 10, pad + h - h // 10), slice(pad + w // 10, pad + w - w // 10)
    sides = [(value[:pad, cols].mean(axis=1)[::-1], paper[pad - ring:pad - 1, cols]),
             (value[rows, pad + w + 1:].mean(axis=0), paper[rows, pad + w + 1:pad + w + ring]),
             (value[pad + h + 1:, cols].mean(axis=1), paper[pad + h + 1:pad + h + ring, cols]),
             (value[rows, :pad].mean(axis=0)[::-1], paper[rows, pad - ring:pad - 1])]
    moved = []
    for profile, outside in sides:
        if outside.size == 0 or outside.mean() < FRAME_PAPER:
            return None   # not paper beyond this side: the outline is a card's own edge
        steps = np.abs(np.diff(profile))
        steps[:ring] = 0   # the printed line itself and the paper next to it
        moved.append(int(np.argmax(steps)) + 1)
    top, right, bottom, left = moved
    grown = np.array([[pad - left, pad - top], [pad + w + right, pad - top],
                      [pad + w + right, pad + h + bottom], [pad - left, pad + h + bottom]],
                     np.float32)
    out = cv2.perspectiveTransform(grown.reshape(-1, 1, 2), np.linalg.inv(m)).reshape(4, 2)
    out = order_corners(out)
    sides_out = side_lengths(out)
    if not ASPECT_RANGE[0] <= min(sides_out) / max(sides_out) <= ASPECT_RANGE[1]:
        return None
    return out if is_card(frame, out) else None
