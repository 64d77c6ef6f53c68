"""Cards lying over each other, found from the corners that show:
`corner_cards(light, edges) -> [(corners seen, 4x2 corners)]`.

Two or three cards dropped over each other make one light blob, and the outline of that blob
is made of straight stretches of their sides. Where two stretches meet at a right angle,
bulging outwards, a card's corner shows (an "L"). From every L a card is laid along its two
sides, at a card's size: a side that runs from one L to the next is a whole side, so it gives
the card's size (63 x 88 mm, that side the short or the long one). Where a card laid so could
be of either size, the size of the cards surest of (three or four corners seen) wins. A card
so laid is kept when nearly all of it lies in the blob (the cards over it are light too) and
it holds the stretches it came from; the cards are taken best supported first (most of their
corners seen as Ls, most of their sides on the frame's edges), each once. So an outline that
took two or three cards as one can be cut into its cards, and a card whose corner is covered
is completed from the corners and sides that show. Thresholds tuned on rendered scenes
(vision.busy, layout "overlap", bench_busy's default seed), never on the real photos.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .quads import CARD_ASPECT, guarded, log, on_edges, order_corners, side_lengths

MIN_BLOB = 0.004    # a blob's area, as a share of the frame, at least (as edges.MIN_CARD_SHARE)
MAX_BLOB = 0.6      # ... and at most
STRETCH = 0.1       # a straight stretch is at least this share of the blob's size (root area)
MIN_STRETCH = 10.0  # ... and this many pixels
SIMPLIFY = 0.006    # approxPolyDP's tolerance, as a share of the outline's length
ON_LINE = 2.0       # px: outline points this near a stretch are fitted to its line
SQUARE = math.radians(12)   # an L's sides are this near a right angle
ROUNDING = 0.3      # the bend between an L's stretches, at most this share of the shorter
INSIDE = 0.9        # share of a card laid from an L that lies in the blob, at least
HOLDS = 0.92        # a card holds its L's stretches: they are at most 1/HOLDS of its sides
SAME_SIZE = 0.06    # sizes this near are one
NEAR_CORNER = 0.12  # an L this near a corner of a card (share of its short side) is that corner
SUPPORT = 0.5       # share of a card's sides on the frame's edges, when only one L holds it
SURE = 3            # a card with this many corners seen as Ls is surely a card (and its size)
SIZE_AGREES = 0.1   # a card's long side this near a sure card's is of its size
KEEP = 0.75         # a card sharing this much of its area with one taken is not another card
MAX_CARDS = 12      # cards laid from one blob, at most


@dataclass(frozen=True)
class Ell:
    """A corner that shows: its point and the unit directions of its two sides, with the
    lengths of those sides that show."""

    point: np.ndarray
    first: np.ndarray
    second: np.ndarray
    lengths: tuple[float, float]


def _stretches(contour: np.ndarray, reach: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """The outline's straight stretches at least `reach` long, in its order, each as its two
    ends on a line fitted to the outline points along it."""
    pts = contour.reshape(-1, 2).astype(np.float32)
    poly = cv2.approxPolyDP(contour, max(1.5, SIMPLIFY * cv2.arcLength(contour, True)), True)
    corners = poly.reshape(-1, 2).astype(np.float32)
    out = []
    for a, b in zip(corners, np.roll(corners, -1, axis=0), strict=True):
        length = float(np.linalg.norm(b - a))
        if length < reach:
            continue
        unit = (b - a) / length
        rel = pts - a
        along = rel @ unit
        off = np.abs(rel[:, 0] * unit[1] - rel[:, 1] * unit[0])
        near = pts[(off < ON_LINE) & (along > 0.1 * length) & (along < 0.9 * length)]
        if len(near) < 5:
            continue
        vx, vy, x0, y0 = cv2.fitLine(near, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel().tolist()
        d = np.array([vx, vy], np.float32)
        if float(d @ unit) < 0:
            d = -d
        o = np.array([x0, y0], np.float32)
        out.append((o + d * float((a - o) @ d), o + d * float((b - o) @ d)))
    return out


def _crossing(a0: np.ndarray, a1: np.ndarray, b0: np.ndarray, b1: np.ndarray
              ) -> np.ndarray | None:
    r, s = a1 - a0, b1 - b0
    den = float(r[0] * s[1] - r[1] * s[0])
    if abs(den) < 1e-6:
        return None
    t = float((b0 - a0)[0] * s[1] - (b0 - a0)[1] * s[0]) / den
    return a0 + t * r


def ells(contour: np.ndarray, reach: float) -> tuple[list[Ell], list[float]]:
    """The Ls of an outline, and the whole sides it shows (from one L to the next)."""
    stretches = _stretches(contour, reach)
    turn = 1.0 if cv2.contourArea(contour, oriented=True) > 0 else -1.0
    found: list[tuple[int, Ell]] = []
    n = len(stretches)
    for i in range(n if n > 1 else 0):
        (a0, a1), (b0, b1) = stretches[i], stretches[(i + 1) % n]
        la, lb = float(np.linalg.norm(a1 - a0)), float(np.linalg.norm(b1 - b0))
        da, db = (a1 - a0) / la, (b1 - b0) / lb
        cross = float(da[0] * db[1] - da[1] * db[0])
        # a right angle bulging outwards: the outline turns the way it runs round
        if abs(math.asin(max(-1.0, min(1.0, abs(cross)))) - math.pi / 2) > SQUARE \
                or cross * turn < 0 or float(np.linalg.norm(b0 - a1)) > ROUNDING * min(la, lb):
            continue
        point = _crossing(a0, a1, b0, b1)
        if point is None or float(np.linalg.norm(point - a1)) > ROUNDING * min(la, lb) + 3:
            continue
        found.append((i, Ell(point, -da, db, (float(np.linalg.norm(a0 - point)),
                                             float(np.linalg.norm(b1 - point))))))
    whole = []
    at = {i: e for i, e in found}
    for i, e in found:   # stretch i+1 runs from this L to the next one's
        nxt = at.get((i + 1) % n)
        if nxt is not None and n > 1:
            whole.append(float(np.linalg.norm(nxt.point - e.point)))
    return [e for _, e in found], whole


def _sizes(whole: list[float]) -> list[tuple[float, float]]:
    """Card sizes (short, long side) to lay from an L: each whole side taken as a short and
    as a long one; one of sizes alike."""
    sizes: list[tuple[float, float]] = []
    for side in whole:
        sizes += [(side, side / CARD_ASPECT), (side * CARD_ASPECT, side)]
    out: list[tuple[float, float]] = []
    for size in sorted(sizes):
        if not any(abs(size[1] / o[1] - 1) < SAME_SIZE for o in out):
            out.append(size)
    return out


def _laid(ell: Ell, size: tuple[float, float]) -> list[np.ndarray]:
    """The cards of `size` on an L (each of its sides the short one in turn) that hold the
    stretches that show."""
    out = []
    for along, across in (size, size[::-1]):
        if ell.lengths[0] > along / HOLDS or ell.lengths[1] > across / HOLDS:
            continue
        p, a, b = ell.point, ell.first * along, ell.second * across
        out.append(np.array([p, p + a, p + a + b, p + b], np.float32))
    return out


def _share_in(quad: np.ndarray, filled: np.ndarray) -> float:
    """The share of the quad's area inside the filled blob (255)."""
    x, y, w, h = cv2.boundingRect(np.round(quad).astype(np.int32))
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + w, filled.shape[1]), min(y + h, filled.shape[0])
    if x1 <= x0 or y1 <= y0:
        return 0.0
    shape = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(shape, np.round(quad - np.array([x, y], np.float32)).astype(np.int32),
                       255)
    total = cv2.countNonZero(shape)
    inside = cv2.countNonZero(cv2.bitwise_and(
        shape[y0 - y:y1 - y, x0 - x:x1 - x], filled[y0:y1, x0:x1]))
    return inside / total if total else 0.0


def _corners_seen(quad: np.ndarray, points: np.ndarray) -> int:
    near = NEAR_CORNER * min(side_lengths(quad))
    d = np.linalg.norm(quad[:, None, :] - points[None, :, :], axis=2)
    return int((d.min(axis=1) < near).sum())


@dataclass(frozen=True)
class Candidate:
    """A card laid from an L: its corners, the number of them seen as Ls, its score (that
    number and the share of its sides on the frame's edges) and the L it was laid from."""

    quad: np.ndarray
    seen: int
    score: float
    ell: Ell


def blob_cards(contour: np.ndarray, filled: np.ndarray, edges: np.ndarray
               ) -> list[Candidate]:
    """The cards that can be laid from the Ls of one blob (its outline, the blob filled,
    the frame's edges)."""
    reach = max(MIN_STRETCH, STRETCH * math.sqrt(cv2.contourArea(contour)))
    found, whole = ells(contour, reach)
    if not found:
        return []
    points = np.array([e.point for e in found], np.float32)
    out = []
    for ell in found:
        for size in _sizes(whole):
            for quad in _laid(ell, size):
                if _share_in(quad, filled) < INSIDE:
                    continue
                seen = _corners_seen(quad, points)
                support = float(on_edges(quad, edges, 0.05, 20).mean())
                if seen < 2 and support < SUPPORT:
                    continue
                out.append(Candidate(order_corners(quad), seen, seen + support, ell))
    return out


def _agreed(cards: list[Candidate]) -> list[float]:
    """The long side that the most (by score) of these cards have, give or take SIZE_AGREES;
    [] with no card."""
    longs = [max(side_lengths(c.quad)) for c in cards]
    votes = [sum(c.score for c, other in zip(cards, longs, strict=True)
                 if abs(other / long_ - 1) < SIZE_AGREES) for long_ in longs]
    return [longs[int(np.argmax(votes))]] if longs else []


def _choose(cards: list[Candidate], sure: list[float]) -> list[tuple[int, np.ndarray]]:
    """The cards, best first, each once. A card with fewer than SURE corners seen gives way
    to one laid from the same L with the size of a card with that many in the frame (`sure`,
    their long sides; a card laid with the size of its short side taken for its long one
    fits in the blob too), when there is such a one."""
    def agrees(card: Candidate) -> bool:
        return any(abs(max(side_lengths(card.quad)) / long_ - 1) < SIZE_AGREES for long_ in sure)

    sized = {id(c.ell) for c in cards if agrees(c)}
    taken: list[tuple[int, np.ndarray]] = []
    for card in sorted(cards, key=lambda c: -c.score):
        if card.seen < SURE and id(card.ell) in sized and not agrees(card):
            continue
        area = cv2.contourArea(card.quad)
        if any(shared_area(card.quad, t) > KEEP * min(area, cv2.contourArea(t)) for _, t in taken):
            continue
        taken.append((card.seen, card.quad))
        if len(taken) >= MAX_CARDS:
            break
    return taken


def shared_area(a: np.ndarray, b: np.ndarray) -> float:
    """The area two convex quads share (pixels squared)."""
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return float(area)


def corner_cards(light: np.ndarray, edges: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """Cards found from the corners that show (see the module's docstring) in a mask of the
    frame's light colourless pixels (`light`, 255) and its edges (Canny, the same size), each
    with the number of its corners seen, best supported first. A blob whose geometry fails
    is skipped (debug log)."""
    scored: list[Candidate] = []
    contours, _ = cv2.findContours(light, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    size = light.shape[0] * light.shape[1]
    for contour in contours:
        if not MIN_BLOB * size < cv2.contourArea(contour) < MAX_BLOB * size:
            continue
        filled = np.zeros(light.shape, np.uint8)
        cv2.drawContours(filled, [contour], -1, 255, -1)
        cards: list[Candidate] = guarded(blob_cards, contour, filled, edges, default=[])
        if not cards:
            x, y, w, h = cv2.boundingRect(contour)
            log.debug("no card laid from the corners of a blob at %d,%d (%dx%d)", x, y, w, h)
        scored += cards
    # the frame's sure cards size the others; with none, the size most cards laid from the
    # frame's Ls agree on
    sure = [max(side_lengths(c.quad)) for c in scored if c.seen >= SURE] or _agreed(scored)
    chosen: list[tuple[int, np.ndarray]] = guarded(_choose, scored, sure, default=[])
    return chosen
