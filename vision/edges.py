"""Cards found by their edges, for frames with no one cloth (a photo on a road, a carpet, a
grain of wood): `edge_outlines(frame) -> list of 4x2 corners`.

A card's white is a region that no edge crosses, bounded by the card's straight sides. So the
frame's edges (Canny, at two strengths: the fainter parts a card from the card under it) are
drawn, and each region between them that is light, colourless and of a card's shape is a card.
A card partly under another (a fan, a pile) shows only a strip or a corner of it, and a court
card's white may be cut in two by its picture: such a part is completed to a card from one of
its two longest straight sides (its outline runs straight along them: a round light patch
of the ground has none), towards the part, either as long as that side or of the size of a
whole card found in the frame laid from a visible corner, when that card holds the part and
is mostly as light as the part's own white (the ground beyond the card's own edge is not,
even a pale one). Every outline must look
like a card (vision.looks); outlines of one card are kept once (`suppress`). The figures below
were tuned on rendered busy scenes (vision.busy, bench/bench_busy.py), never on photos.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import cv2
import numpy as np

from .looks import looks_like_card
from .quads import ASPECT_RANGE, CARD_ASPECT, guarded, order_corners, side_lengths

log = logging.getLogger(__name__)

WORK_SIDE = 720      # frames are searched with their long side at most this
CANNY = (60, 180)   # hysteresis thresholds of the edges
# ... and a fainter pass: a card lying on another of its own white is parted from it only
# by its thin edge (and its shadow)
CANNY_LEVELS = (CANNY, (20, 60))
MIN_CARD_SHARE = 0.004   # a card's (or a fan strip's) area, as a share of the frame, at least
MAX_CARD_SHARE = 0.4
FILL = 0.9    # a region's hull fills this much of its rectangle (a card's white: nearly all)
STRIP_FILL = 0.7   # ... or a fan strip's, this much
HELD = 0.95   # a card completed from a side holds this share of the part shown
MIN_LIGHT = 0.4   # ... and is at least this light (card white over cards, not ground)
RING = 0.08   # ... and the region itself at least this much (a court card's frame of white)
WHITE_SATURATION = 80    # median HSV saturation of a card's white at most
WHITE_LIGHTER = 1.0      # ... and its median value above the frame's median times this
STRAIGHT = 0.4    # a part's side is straight: the part's outline runs along this share of it
ON_LINE = 2.0     # ... within this many px
PAPER_LIKE = 0.8   # a part is completed over what is this share of its own white's light
SUPPORTED = 0.45  # ... when edges lie under this share of its sides (two of four: a card in a row)
OVER_CARDS = 0.1   # an outline sharing this much with a card found by its white is not kept
SAME = 0.15   # outlines whose corners all lie within this share of a short side are one card


def edge_regions(gray: np.ndarray, canny: tuple[int, int] = CANNY
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Labels of the regions between the frame's edges (0 on the edges), and their stats
    (cv2.connectedComponentsWithStats)."""
    edges = cv2.Canny(cv2.GaussianBlur(gray, (5, 5), 1.0), *canny)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(cv2.bitwise_not(edges),
                                                          connectivity=4)
    return labels, stats


def _region_quad(contour: np.ndarray) -> tuple[np.ndarray, float] | None:
    """The rectangle round a region (ordered corners) and its short/long ratio, when the
    region fills it as a card's white (or a fan strip's, cut aslant by the card over it)
    does."""
    hull = cv2.convexHull(contour)
    rect = cv2.minAreaRect(hull)
    (w, h) = rect[1]
    ratio = min(w, h) / max(w, h, 1e-6)
    # the hull: a court card's white may be only a thin frame round its picture
    fill = FILL if ratio >= ASPECT_RANGE[0] else STRIP_FILL
    if min(w, h) < 4 or cv2.contourArea(hull) < fill * w * h \
            or cv2.contourArea(contour) < RING * w * h:
        return None
    return order_corners(cv2.boxPoints(rect)), ratio


def _is_white(hsv: np.ndarray, mask: np.ndarray, frame_value: float) -> bool:
    sat, val = hsv[:, :, 1][mask > 0], hsv[:, :, 2][mask > 0]
    return bool(sat.size) and float(np.median(sat)) <= WHITE_SATURATION \
        and float(np.median(val)) > max(WHITE_LIGHTER * frame_value, 90)


def overlap_share(a: np.ndarray, b: np.ndarray) -> float:
    """The area two convex outlines share, as a share of the smaller one's."""
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    smaller = min(cv2.contourArea(a), cv2.contourArea(b))
    return float(area) / smaller if smaller > 0 else 0.0


def edge_outlines(frame: np.ndarray) -> list[np.ndarray]:
    """Corners (4x2, frame pixels) of the cards found by their edges in a BGR frame: first
    the regions that are whole cards, then the parts of cards, completed to cards of the
    sizes of those whole ones (or from their own sides)."""
    h, w = frame.shape[:2]
    if min(h, w) < 16:
        return []
    scale = min(1.0, WORK_SIDE / max(h, w))
    small = frame if scale == 1.0 else cv2.resize(frame, None, fx=scale, fy=scale,
                                                  interpolation=cv2.INTER_AREA)
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    frame_value = float(np.median(hsv[:, :, 2]))
    light = cv2.inRange(hsv, (0, 0, max(WHITE_LIGHTER * frame_value, 90)),
                        (180, WHITE_SATURATION, 255))
    regions = [edge_regions(gray, canny) for canny in CANNY_LEVELS]
    wholes: list[np.ndarray] = []
    parts: list[np.ndarray] = []
    passes: tuple[list[tuple[float, float]] | None, ...] = (None, [])
    for sizes in passes:
        if sizes is not None:   # the sizes of the whole cards: the two most unlike
            sizes += _sizes(wholes)
        for labels, stats in regions:
            size = labels.size
            areas = stats[:, cv2.CC_STAT_AREA]
            for label in np.flatnonzero((areas > MIN_CARD_SHARE * size)
                                        & (areas < MAX_CARD_SHARE * size)):
                if label == 0:
                    continue
                quad = guarded(_region, labels, stats[label], int(label), small, hsv,
                               light, frame_value, sizes, default=None)
                # a busy ground gives card-shaped patches too: keep what looks like a card
                if quad is not None and guarded(looks_like_card, small, quad,
                                                default=False):
                    (wholes if sizes is None else parts).append(quad)
    kept = suppress(wholes + parts)
    return [((q + 0.5) / scale - 0.5).astype(np.float32) for q in kept]


def _sizes(quads: list[np.ndarray]) -> list[tuple[float, float]]:
    """Card sizes (short, long side) to complete parts to: the smallest and largest of the
    whole cards found."""
    sizes = sorted(((s[0] + s[2]) / 2, (s[1] + s[3]) / 2) for s in map(side_lengths, quads))
    return sorted(set([sizes[0], sizes[-1]])) if sizes else []


def _region(labels: np.ndarray, stats: np.ndarray, label: int, small: np.ndarray,
            hsv: np.ndarray, light: np.ndarray, frame_value: float,
            sizes: list[tuple[float, float]] | None) -> np.ndarray | None:
    """The card whose white is region `label` (with `stats` its row of the region stats),
    or None when it is not a card's white. With `sizes` None only whole cards are taken,
    else only parts, completed to cards of these sizes or from their own sides."""
    x0, y0 = int(stats[cv2.CC_STAT_LEFT]), int(stats[cv2.CC_STAT_TOP])
    x1, y1 = x0 + int(stats[cv2.CC_STAT_WIDTH]), y0 + int(stats[cv2.CC_STAT_HEIGHT])
    # the part may be completed to a card beyond its box: work in a box a card bigger
    longest = max((s[1] for s in sizes or []), default=0.0)
    reach = int(max(max(x1 - x0, y1 - y0) * 1.5, longest))
    x0, y0 = max(0, x0 - reach), max(0, y0 - reach)
    x1, y1 = min(labels.shape[1], x1 + reach), min(labels.shape[0], y1 + reach)
    mask = (labels[y0:y1, x0:x1] == label).astype(np.uint8) * 255
    if not _is_white(hsv[y0:y1, x0:x1], mask, frame_value):
        return None
    # holes (the print inside) belong to the card: take the outer outline only
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    contour = max(contours, key=cv2.contourArea)
    found = _region_quad(contour)
    whole = found is not None and ASPECT_RANGE[0] <= found[1] <= ASPECT_RANGE[1]
    if found is not None and whole and sizes is None:
        quad: np.ndarray | None = found[0]
    elif not whole and sizes is not None:
        offset = np.array([x0, y0], np.float32)
        # light as this part's own paper (a pale ground is lighter than the frame's middle
        # grey, but not as light as a card's white)
        box = hsv[y0:y1, x0:x1]
        level = PAPER_LIKE * float(np.median(box[:, :, 2][mask > 0]))
        alike = cv2.bitwise_and(light[y0:y1, x0:x1],
                                cv2.inRange(box, (0, 0, level), (180, 255, 255)))
        quad = _from_side(contour, mask, alike, sizes,
                          lambda q: looks_like_card(small, q + offset))
    else:
        return None
    return None if quad is None else quad + np.array([x0, y0], np.float32)


def _from_side(contour: np.ndarray, mask: np.ndarray, light: np.ndarray,
               sizes: list[tuple[float, float]] | None = None,
               check: Callable[[np.ndarray], bool] | None = None) -> np.ndarray | None:
    """A card only part of whose white shows (a strip of a fanned card, the corner of a card
    under others, a court card's white cut in two by its picture), completed from one of the
    two longest straight sides of that part: a card on such a side, towards the part, as
    long (or as wide) as the side, or of one of `sizes` (short, long) laid from either end of
    the side (a corner that shows). Of those that hold the part and are filled enough by it,
    the one most light (`light`: the card's white and the cards over it, not the ground
    beyond a card's edge) that passes `check`."""
    hull = cv2.approxPolyDP(cv2.convexHull(contour), 0.01 * cv2.arcLength(contour, True), True)
    pts = hull.reshape(-1, 2).astype(np.float32)
    if len(pts) < 3:
        return None
    lengths = np.linalg.norm(np.roll(pts, -1, axis=0) - pts, axis=1)
    area = float(np.count_nonzero(mask))
    found: list[tuple[float, np.ndarray]] = []
    for i in np.argsort(-lengths)[:2].tolist():
        a, b, side = pts[i], pts[(i + 1) % len(pts)], float(lengths[i])
        if side < 12 or _straight(contour, a, b) < STRAIGHT:
            continue   # a chord of a round patch of the ground, not a card's side
        along = (b - a) / side
        # the side as long as the part reaches along it (its ends may be hidden or rounded)
        reach = (pts - a) @ along
        a, b = a + along * float(reach.min()), a + along * float(reach.max())
        side = float(reach.max() - reach.min())
        normal = np.array([-along[1], along[0]], np.float32)
        if float(np.dot(pts.mean(axis=0) - a, normal)) < 0:
            normal = -normal
        # (start, length along the side, depth): a long side, or a short one, ...
        cards = [(a, side, side * CARD_ASPECT), (a, side, side / CARD_ASPECT)]
        for short, long_ in sizes or []:   # ... or a card of a size seen, from either end
            for length, depth in ((long_, short), (short, long_)):
                if side < 1.1 * length:
                    cards += [(a, length, depth), (b - along * length, length, depth)]
        for start, length, depth in cards:
            end = start + along * length
            quad = np.array([start, end, end + normal * depth, start + normal * depth],
                            np.float32)
            inside = np.zeros_like(light)
            cv2.fillConvexPoly(inside, np.round(quad).astype(np.int32), 255)
            held = cv2.bitwise_and(cv2.dilate(inside, np.ones((7, 7), np.uint8)), mask)
            if np.count_nonzero(held) < HELD * area or area < RING * length * depth:
                continue
            share = cv2.mean(light, inside)[0] / 255
            if share > MIN_LIGHT:
                found.append((share, order_corners(quad)))
    for _, quad in sorted(found, key=lambda f: -f[0]):
        if check is None or check(quad):
            return quad
    return None


def _straight(contour: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    """The share of the segment a-b along which the outline runs within ON_LINE px of it."""
    length = float(np.linalg.norm(b - a))
    unit = (b - a) / max(length, 1e-6)
    rel = contour.reshape(-1, 2).astype(np.float32) - a
    along = rel @ unit
    off = np.abs(rel[:, 0] * unit[1] - rel[:, 1] * unit[0])
    near = along[(off <= ON_LINE) & (along >= 0) & (along <= length)]
    bins = max(1, int(length // 2))
    return len(np.unique(np.minimum((near / 2).astype(int), bins - 1))) / bins


def same_card(a: np.ndarray, b: np.ndarray) -> bool:
    """Two outlines of one card: every corner of one near a corner of the other (cards
    fanned over each other are shifted and turned further than this)."""
    near = SAME * min(side_lengths(a)[0], side_lengths(b)[0])
    return min(float(np.abs(np.roll(b, k, axis=0) - a).max()) for k in range(4)) < near


def off_cards(quads: list[np.ndarray], cards: list[np.ndarray], frame: np.ndarray
              ) -> list[np.ndarray]:
    """`quads` less those lying over any of `cards` (found by their white) whose sides are
    edges in `frame`: such a card is surely one (on a cloth, where a part completed to a card
    from the wrong side, or a card's place printed on the mat, would overlap it); a white
    outline that edges do not bear out (a blob of a busy ground) does not count."""
    if not quads or not cards:
        return quads
    scale = min(1.0, WORK_SIDE / max(frame.shape[:2]))
    edges = cv2.Canny(cv2.GaussianBlur(cv2.cvtColor(
        cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA),
        cv2.COLOR_BGR2GRAY), (5, 5), 1.0), *CANNY)
    edges = cv2.dilate(edges, np.ones((5, 5), np.uint8))
    sure = [c for c in cards if _on_edges(c * scale, edges) >= SUPPORTED]
    return [q for q in quads
            if all(guarded(overlap_share, q, c, default=1.0) < OVER_CARDS for c in sure)]


def _on_edges(quad: np.ndarray, edges: np.ndarray) -> float:
    """The share of points along a quad's sides that lie on `edges`."""
    t = np.linspace(0.1, 0.9, 24, dtype=np.float32)[:, None]
    points = np.concatenate([quad[i] + t * (quad[(i + 1) % 4] - quad[i]) for i in range(4)])
    xs = np.clip(np.round(points[:, 0]).astype(int), 0, edges.shape[1] - 1)
    ys = np.clip(np.round(points[:, 1]).astype(int), 0, edges.shape[0] - 1)
    return float((edges[ys, xs] > 0).mean())


def suppress(quads: list[np.ndarray], first: list[np.ndarray] | None = None
             ) -> list[np.ndarray]:
    """`quads` less those that outline a card already in `first` or an earlier quad."""
    kept = list(first or [])
    for quad in quads:
        if not any(same_card(quad, k) for k in kept):
            kept.append(quad)
    return kept[len(first or []):]
