"""Finding cards in a frame: `find_cards(frame, deck=None) -> list[Detection]`.

Cards are the colourless shapes clearly lighter than the cloth round them, whatever its colour
(`cloth_colour`, `card_mask`); find_cards also takes the frame's own split of light from dark,
for frames with no one cloth. A large frame is searched at half size; each outline is checked
for a card's shape, its sides are fitted as straight lines (so rounded corners do not pull the
corners in). Cards that touch or overlap a little are pulled apart: a row of them is cut into
cards of the cards' size, other clumps by eroding the shape until it falls into card-sized
pieces, or, where their edges touch along a stretch, by cutting it at its deepest notch; a card
whose white fell apart into pieces (a court picture reaching its edge) is put back together.
On a busy ground, cards dropped over each other are also laid from the corners that show
(vision.overlapping): an outline taking two of them as one, or far bigger, gives way to them;
on a fine-grained ground a card is also its smooth paper (vision.smooth). A card that shows
only an index (under others in a fan, a pile or a meld row) is found by it (vision.by_index).
No frame makes it raise: a geometric step that fails skips its blob (debug log).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .aruco import detect_markers
from .by_index import IndexCard, as_reading, card_size, far_sides, own_area, read_indices
from .edges import (
    CANNY_LEVELS,
    OVER_CARDS,
    edge_outlines,
    off_cards,
    overlap_share,
    same_card,
    suppress,
)
from .index import READ_H, READ_W
from .looks import (
    NO_CARD,
    NOT_PAPER,
    SIDES_SHOWN,
    line_across,
    looks_like_card,
    parted,
    scores,
)
from .middle import middle_check
from .overlapping import SIZE_AGREES, SURE, corner_cards, shared_area
from .profile import DeckProfile
from .quads import (
    _NEXT,
    ASPECT_RANGE,
    CARD_ASPECT,
    PAIR_AREA,
    depth_inside,
    guarded,
    holds,
    log,
    order_corners,
    side_lengths,
)
from .reading import Reading, identify, named_at_both_corners
from .sides import around, side_cards
from .smooth import smooth_paper

# Frames wider than this are searched at half size. Not 720p: halved, its meld cards lie so
# close that the gaps between them close.
WORK_WIDTH = 1280
# A card's white, against the cloth round it (cloth_colour): its darkest colour channel above
# LIGHTER times the cloth's plus LIGHTER_BY, saturation at most CARD_SATURATION (HSV), value
# at least MIN_WHITE. Tuned on rendered scenes of seven cloths (bench_vision --scenes).
LIGHTER, LIGHTER_BY = 1.15, 14.0
CARD_SATURATION = 90
MIN_WHITE = 100
WHITEST_PART, WHITEST_SHARE = 0.005, 0.55   # at least this share of the whitest 0.5 %'s level
CLOTH_CELLS = 21   # the cloth's colour is averaged over this many cells across its window
CLOTH_RATIO = (0.6, 1.3)  # like the cloth: darkest channel this many times the commonest's
CLOTH_SHADE = 0.1         # ... and its share of each channel this close
COLOURFUL = 120   # a cloth this saturated (HSV) is told by its hue: within CLOTH_HUE of it,
CLOTH_HUE = 12    # and more saturated than a card's white
ROW_FILL = 0.8      # share of each card's place in a row that the blob's hull there covers
MAX_ROW = 12         # cards side by side that a row of touching cards is cut into
MAX_CARD_SHARE = 0.4  # no one card covers more of the frame than this
MAX_BLOB_CARDS = 14  # a blob bigger than this many cards is not cards (a light table edge)
SIZE_TOLERANCE = 0.2  # when the card size is known, a quad this far off it is not one card
OUT_OF_FRAME = 0.1  # see _in_frame
GROUND_PAPER = 0.3  # an outline by the white with less paper in its band (looks) is ground
EDGE_GROW = 1.5    # px: a card's edge pixels blend with the table, so the white outline is small
HELD_CARD = 0.8   # an outline holds a card laid from its corners when it covers this much of it
TOO_BIG = 1.25    # ... and is far bigger than such cards when its long side is this many times
RIVALS = 0.5      # an outline sharing this much with a card laid from two or more of its corners
MORE_PAPER = 0.1  # ... gives way to it when that card's band is this much more paper (looks)
PART_OF = 1.6     # an outline within a card this much bigger is part of it (see _part_of)
FRAMED = 0.85     # an outline this much smaller than one round it, ...
MIDDLE = 0.12     # ... with its middle this near (share of its short side), is a printed frame
SAME_PLACE = 0.3  # a card found by its index sharing this much with a card read as it is that one
AGREES = 0.2      # an unread outline with a corner this near (share of the short side) to ...
INDEX_SIZE = 1.3  # ... and this near the size of a card laid from an index it holds is that card
INDEX_INSIDE = 0.04  # ... if the index's middle lies this far inside it (share of the short side)
# ... unless that card is the truer (see _as_sure): sides_shown judges a side in 6 stretches,
# so two sides' mean moves in twelfths, and the card's must stand out by more than two more
TRUER = 0.2


@dataclass(frozen=True)
class Detection:
    """A card found in a frame: `corners` are 4x2 pixel coordinates (clockwise, starting at a
    corner of a short side) and `reading` says which card it is."""

    corners: np.ndarray
    reading: Reading

    @property
    def centre(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])


def work_scale(frame: np.ndarray) -> float:
    return 0.5 if frame.shape[1] > WORK_WIDTH else 1.0


def shrink(frame: np.ndarray) -> np.ndarray:
    """The frame at the size outlines are searched at."""
    s = work_scale(frame)
    if s == 1.0:
        return frame
    return cv2.resize(frame, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)


def cloth_colour(small: np.ndarray, window: float | None = None) -> np.ndarray:
    """The colour of the cloth under the cards, pixel by pixel (BGR, the size of `small`).
    The cloth is the frame's commonest colour, give or take the lamp's light: the mean of the
    pixels like it within a `window`-pixel square round each pixel (default: 0.4 of the
    frame's short side), taken at a low resolution. Cards, hands and whatever lies beyond the
    cloth are unlike it, so they drop out; the lamp's slow gradient stays in."""
    h, w = small.shape[:2]
    window = window or 0.4 * min(h, w)
    step = max(1.0, window / CLOTH_CELLS)
    low8 = cv2.resize(small, (max(1, round(w / step)), max(1, round(h / step))),
                      interpolation=cv2.INTER_AREA)
    low = low8.astype(np.float32)
    common = np.median(low.reshape(-1, 3), axis=0)
    hsv = cv2.cvtColor(low8, cv2.COLOR_BGR2HSV).astype(np.float32)
    hue, saturation = float(np.median(hsv[:, :, 0])), float(np.median(hsv[:, :, 1]))
    if saturation >= COLOURFUL:
        # A coloured cloth is its hue, whatever the light: the lamp's glare on it (lighter,
        # paler) is still cloth, and a card's white is not.
        turn = np.abs(hsv[:, :, 0] - hue)
        like = ((np.minimum(turn, 180 - turn) <= CLOTH_HUE)
                & (hsv[:, :, 1] > CARD_SATURATION)).astype(np.float32)
    else:
        least = low.min(axis=2)
        ratio = (least + 16) / (float(common.min()) + 16)
        shade = low / (low.sum(axis=2, keepdims=True) + 30)
        apart = np.abs(shade - common / (common.sum() + 30)).sum(axis=2)
        like = ((ratio > CLOTH_RATIO[0]) & (ratio < CLOTH_RATIO[1])
                & (apart < CLOTH_SHADE)).astype(np.float32)
    k = (CLOTH_CELLS, CLOTH_CELLS)
    total = cv2.blur(low * like[:, :, None], k, borderType=cv2.BORDER_REFLECT)
    weight = cv2.blur(like, k, borderType=cv2.BORDER_REFLECT)[:, :, None]
    field = np.where(weight > 0.05, total / np.maximum(weight, 1e-3), common)
    return cv2.resize(field.astype(np.uint8), (w, h), interpolation=cv2.INTER_LINEAR)


def card_mask(small: np.ndarray, hsv: np.ndarray | None = None,
              cloth: np.ndarray | None = None) -> np.ndarray:
    """Pixels of a card's white: colourless (cream faces under a warm lamp included; most skin
    not) and clearly lighter than the cloth round them (`cloth_colour`), whatever that
    cloth's colour, light or dark: 255, else 0. Pass `hsv` and `cloth` if already at hand."""
    if hsv is None:
        hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    if cloth is None:
        cloth = cloth_colour(small)
    white = _least_channel(small)
    floor = cv2.convertScaleAbs(_least_channel(cloth), alpha=LIGHTER, beta=LIGHTER_BY)
    # ... and not far below the frame's whitest white: the lamp's glare on a cloth lifts it
    # well above the cloth round it, but not to a card's white.
    whitest = WHITEST_SHARE * _whitest(white)
    floor[floor < whitest] = round(whitest)
    mask = cv2.bitwise_and(cv2.compare(white, floor, cv2.CMP_GT),
                           cv2.inRange(hsv, (0, 0, MIN_WHITE), (180, CARD_SATURATION, 255)))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _KERNEL5)
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, _KERNEL3)


def _whitest(white: np.ndarray) -> float:
    """The level that the whitest WHITEST_PART of the pixels reach."""
    counts = cv2.calcHist([white], [0], None, [256], [0, 256]).ravel()
    above = np.cumsum(counts[::-1])
    return float(255 - int(np.searchsorted(above, WHITEST_PART * white.size)))


def _least_channel(image: np.ndarray) -> np.ndarray:
    """Each pixel's darkest colour channel: high only where it is both light and colourless."""
    b, g, r = cv2.split(image)
    return cv2.min(cv2.min(b, g), r)


_KERNEL3 = np.ones((3, 3), np.uint8)
_KERNEL5 = np.ones((5, 5), np.uint8)


def _fit_sides(contour: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """Corners as the crossings of straight lines fitted to the middle of each side."""
    pts = contour.reshape(-1, 2)[::2].astype(np.float32)
    sides = np.array(side_lengths(quad), np.float32)
    if sides.min() < 8:
        return None
    units = (quad[_NEXT] - quad) / sides[:, None]
    # Every side at once: each point's distance along the side and off its line.
    rel = pts[None, :, :] - quad[:, None, :]                                # 4 x N x 2
    along = rel[:, :, 0] * units[:, 0, None] + rel[:, :, 1] * units[:, 1, None]
    off = np.abs(rel[:, :, 1] * units[:, 0, None] - rel[:, :, 0] * units[:, 1, None])
    near = (along > 0.15 * sides[:, None]) & (along < 0.85 * sides[:, None]) & (off < 3.0)
    if near.sum(axis=1).min() < 4:
        return None
    lines = [cv2.fitLine(pts[near[i]], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel().tolist()
             for i in range(4)]
    out = []
    for i in range(4):
        r0, r1, p0, p1 = lines[i - 1]
        s0, s1, q0, q1 = lines[i]
        den = r0 * s1 - r1 * s0
        if abs(den) < 1e-3:
            return None
        t = ((q0 - p0) * s1 - (q1 - p1) * s0) / den
        out.append((p0 + t * r0, p1 + t * r1))
    return np.array(out, np.float32)


def _card_shaped(quad: np.ndarray, card_px: tuple[float, float] | None = None) -> bool:
    """A card's proportions, and its size (short, long side in pixels) when that is known."""
    sides = side_lengths(quad)
    short, long_ = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    if long_ <= 0 or not ASPECT_RANGE[0] <= short / long_ <= ASPECT_RANGE[1]:
        return False
    return card_px is None or (abs(short / card_px[0] - 1) < SIZE_TOLERANCE
                               and abs(long_ / card_px[1] - 1) < SIZE_TOLERANCE)


def _quad_of(contour: np.ndarray, card_px: tuple[float, float] | None) -> np.ndarray | None:
    """A card's four corners from its outline, or None when the outline is not one card.
    The rough corners come from the smallest rectangle around the convex hull (ink touching
    a card's edge bites into its outline, but not into its hull); the sides are then fitted."""
    hull = cv2.convexHull(contour)
    area = cv2.contourArea(hull)
    quad = order_corners(cv2.boxPoints(cv2.minAreaRect(hull)))
    if area < 0.9 * cv2.contourArea(quad) or not _card_shaped(quad, card_px):
        return None
    fitted = _fit_sides(contour, quad)
    if fitted is not None:
        fitted = order_corners(fitted)
        if _card_shaped(fitted, card_px) \
                and np.abs(fitted - quad).max() < 0.08 * side_lengths(quad)[0]:
            return fitted
    return quad


def _peel(blob: np.ndarray, card_area: float | None,
          card_px: tuple[float, float] | None) -> list[np.ndarray] | None:
    """Cards side by side in a row (a meld, the kitty), touching or overlapping a little:
    the blob is a card long across and a few cards wide along. The cards at its two ends are
    cut off it a card's width from each end, those between spaced evenly; each cut is then
    fitted to the blob. The card's size is `card_px`, else that of `card_area`, else the
    row's own (a card long). None when the blob is not such a row."""
    contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    contour = max(contours, key=cv2.contourArea)
    box = order_corners(cv2.boxPoints(cv2.minAreaRect(cv2.convexHull(contour))))
    across, along = side_lengths(box)[:2]
    if card_px is None and card_area is None:
        card_px = (across * CARD_ASPECT, across)
    elif card_px is None and card_area is not None:
        card_px = (math.sqrt(card_area * CARD_ASPECT), math.sqrt(card_area / CARD_ASPECT))
    assert card_px is not None
    width, length = card_px
    count = round(along / width + 0.2)
    if abs(across / length - 1) > SIZE_TOLERANCE or not 2 <= count <= MAX_ROW:
        return None
    pitch = (along - width) / (count - 1)
    if not 0.7 * width <= pitch <= 1.2 * width:
        return None
    step = (box[2] - box[1]) / along
    quads = []
    for i in range(count):
        rough = np.array([box[0] + step * i * pitch, box[1] + step * i * pitch,
                          box[1] + step * (i * pitch + width),
                          box[0] + step * (i * pitch + width)], np.float32)
        share = np.zeros_like(blob)
        cv2.fillConvexPoly(share, np.round(rough).astype(np.int32), 255)
        share = cv2.bitwise_and(share, blob)
        found, _ = cv2.findContours(share, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        biggest = max(found, key=cv2.contourArea) if found else None
        if biggest is None \
                or cv2.contourArea(cv2.convexHull(biggest)) < ROW_FILL * width * length:
            return None   # not a card there: a card beside something else (glare, a hand)
        fitted = _quad_of(biggest, card_px)
        quad = fitted if fitted is not None \
            and np.abs(fitted - order_corners(rough)).max() < 0.15 * width \
            else order_corners(rough)
        if i in (0, count - 1):
            quad = _from_outer_side(quad, box.mean(axis=0), width)
        quads.append(quad)
    return quads


def _from_outer_side(quad: np.ndarray, middle: np.ndarray, width: float) -> np.ndarray:
    """A card at the end of a row, rebuilt from its outer long side (a true edge, where the
    inner one is only a cut): the inner side is a card's width in from it."""
    long_sides = [(1, 2), (3, 0)]   # order_corners puts a short side first
    outer = max(long_sides, key=lambda s: float(np.linalg.norm(quad[list(s)].mean(axis=0)
                                                                 - middle)))
    inner = long_sides[1 - long_sides.index(outer)]
    a, b = quad[outer[0]], quad[outer[1]]
    edge = (b - a) / max(float(np.linalg.norm(b - a)), 1e-6)
    normal = np.array([-edge[1], edge[0]], np.float32)
    if float(np.dot(middle - a, normal)) < 0:
        normal = -normal
    out = quad.copy()
    # the inner side's corners sit opposite the outer side's: 1-2 faces 0-3 (reversed)
    out[inner[1]] = a + normal * width
    out[inner[0]] = b + normal * width
    return order_corners(out)


def _split(blob: np.ndarray, card_area: float,
           card_px: tuple[float, float] | None) -> list[np.ndarray]:
    """Cards touching or overlapping a little: erode the blob until it comes apart into
    card-sized cores, give every pixel of the blob to the nearest core, and fit each share
    as one card (so a corner where two cards touch goes to both halves fairly)."""
    for k in (5, 9, 13, 19, 25):
        eroded = cv2.erode(blob, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
        count, labels, stats, _ = cv2.connectedComponentsWithStats(eroded)
        pieces = [i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] > 0.3 * card_area]
        if len(pieces) < 2:
            continue
        cores = np.isin(labels, pieces)
        _, nearest = cv2.distanceTransformWithLabels(
            np.where(cores, 0, 255).astype(np.uint8), cv2.DIST_L2, 5,
            labelType=cv2.DIST_LABEL_CCOMP)
        quads = []
        for i in pieces:
            own = nearest[labels == i][0]
            share = ((nearest == own) & (blob > 0)).astype(np.uint8) * 255
            share = cv2.morphologyEx(share, cv2.MORPH_OPEN, _KERNEL3)
            contours, _ = cv2.findContours(share, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
            if not contours:
                continue
            quad = _quad_of(max(contours, key=cv2.contourArea), card_px)
            if quad is not None and cv2.contourArea(quad) < 1.4 * card_area:
                quads.append(quad)
        return quads
    return _cut(blob, card_area, card_px)


def _cut(blob: np.ndarray, card_area: float,
         card_px: tuple[float, float] | None) -> list[np.ndarray]:
    """Cards side by side whose edges touch along a stretch, so that eroding never parts
    them: cut the blob across its length at its deepest notch, and again in each part."""
    contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return []
    contour = max(contours, key=cv2.contourArea)
    area = cv2.contourArea(contour)
    if area < 1.5 * card_area:
        quad = _quad_of(contour, card_px)
        return [] if quad is None else [quad]
    # Hull indices sorted: OpenCV wants them monotonous, which a contour that touches itself
    # (a one-pixel bridge between two cards) does not always give.
    hull = np.sort(cv2.convexHull(contour, returnPoints=False), axis=0)
    defects = cv2.convexityDefects(contour, hull)
    if defects is None:
        return []
    box = order_corners(cv2.boxPoints(cv2.minAreaRect(contour)))
    across = (box[1] - box[0]) / max(float(np.linalg.norm(box[1] - box[0])), 1e-3)
    reach = float(np.linalg.norm(box[1] - box[0])) + 4
    for _, _, far, depth in sorted(defects.reshape(-1, 4).tolist(), key=lambda d: -d[3])[:3]:
        if depth < 2.5 * 256:
            break
        point = contour[int(far), 0].astype(np.float32)
        cut = blob.copy()
        ends = [tuple(int(v) for v in np.round(point + t * reach * across)) for t in (-1, 1)]
        cv2.line(cut, ends[0], ends[1], 0, 2)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(cut)
        parts = [i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] > 0.5 * card_area]
        if len(parts) < 2:
            continue
        quads: list[np.ndarray] = []
        for i in parts:
            quads += _cut(np.where(labels == i, 255, 0).astype(np.uint8), card_area, card_px)
        if len(quads) >= len(parts):
            return quads
    return []


def _joined(pieces: list[tuple[float, np.ndarray]], card_area: float,
            card_px: tuple[float, float] | None) -> list[np.ndarray]:
    """Cards whose white came apart into pieces (a court card's picture reaching its edges,
    a dim corner of the lamp): pieces that lie close and together make one card's shape."""
    quads: list[np.ndarray] = []
    pieces = sorted(pieces, key=lambda p: -p[0])
    used = [False] * len(pieces)
    centres = [c.reshape(-1, 2).mean(axis=0) for _, c in pieces]
    reach = 1.3 * float(np.sqrt(card_area))
    for i, (area, contour) in enumerate(pieces):
        if used[i] or area > 1.1 * card_area:
            continue
        group = [contour]
        for j in range(i + 1, len(pieces)):
            if not used[j] and np.linalg.norm(centres[j] - centres[i]) < reach:
                group.append(pieces[j][1])
                points = np.concatenate(group)
                if cv2.contourArea(cv2.convexHull(points)) > 1.25 * card_area:
                    group.pop()
                    continue
                used[j] = True
        if len(group) < 2:
            continue
        points = np.concatenate(group)
        quad = _quad_of(cv2.convexHull(points), card_px)
        if quad is not None and 0.75 * card_area < cv2.contourArea(quad) < 1.25 * card_area:
            quads.append(quad)
            used[i] = True
    return quads


def as_bgr(frame: np.ndarray) -> np.ndarray:
    """A frame as 8-bit BGR: a BGR, BGRA or grey uint8 image is taken as it comes; anything
    else is a ValueError that says what was given."""
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8:
        kind = getattr(frame, "dtype", type(frame).__name__)
        raise ValueError(f"a frame is a uint8 image (BGR, BGRA or grey), not {kind}")
    if frame.ndim == 2:
        if not frame.size:
            return np.zeros((*frame.shape, 3), np.uint8)
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.ndim == 3 and frame.shape[2] == 4:
        return np.ascontiguousarray(frame[:, :, :3])
    if frame.ndim == 3 and frame.shape[2] == 3:
        return frame
    raise ValueError(f"a frame is a height x width (x 3 or 4) image, not shape {frame.shape}")


def card_outlines(frame: np.ndarray, min_area_share: float = 0.002,
                  edges: bool = False) -> list[np.ndarray]:
    """The corners (4x2, frame pixels) of every whole card in a frame (see `as_bgr`); with
    `edges`, also the cards found by their edges on a busy background (vision.edges: a photo,
    not the table, whose tracker keeps to its own faster path)."""
    frame = as_bgr(frame)
    if min(frame.shape[:2]) < 2:
        return []
    small, scale = shrink(frame), work_scale(frame)
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    by_cloth, plain = card_mask(small, hsv), plain_card_mask(hsv)
    found = outlines_in_mask(by_cloth, scale, min_area_share)
    # With no cloth to go by (a photo on a busy background), a card is also whatever is light
    # and colourless by the frame's own split of dark from light.
    for quad in outlines_in_mask(plain, scale, min_area_share):
        if not any(holds(q, quad.mean(axis=0)) for q in found):
            found.append(quad)
    if edges:
        # On a busy ground an outline by the white may be a patch of the ground or two cards
        # taken as one: one that does not look like a card gives way to the cards found by
        # their edges over it, and never hides them.
        sure: list[np.ndarray] = []
        doubtful: list[np.ndarray] = []
        for quad in found:
            paper, edged, not_paper, index = guarded(scores, frame, quad, default=NO_CARD)
            if paper < GROUND_PAPER:
                continue   # hardly a card's paper: a patch of the ground
            looks = edged >= SIDES_SHOWN and not_paper <= NOT_PAPER and index
            (sure if looks else doubtful).append(quad)
        mine: list[np.ndarray] = guarded(edge_outlines, frame, default=[])
        # Cards as smooth paper on a textured ground (vision.smooth): a card with no printed
        # border whose white runs into a pale part of the ground is no region of its own.
        smooth: list[np.ndarray] = guarded(_smooth_cards, small, hsv, scale, min_area_share,
                                           default=[])
        regions = mine
        mine = mine + suppress(smooth, sure + mine)
        # Cards laid from their straight sides (vision.sides): a card whose white runs into
        # a pale ground, or into another card's, is no card-shaped region, but its sides show.
        sided: list[np.ndarray] = guarded(side_cards, frame, _sizes(sure + mine), default=[])
        sided = guarded(_off_markers, frame, sided, default=[])
        # ... and an outline by the white that is only part of a card found so by two of
        # these ways (a card's white taken as a row of two half cards) gives way to it
        agreed = _agreed([regions, smooth, sided])
        sure, doubtful = ([q for q in group if not guarded(_part_of, q, agreed, frame,
                                                            default=False)]
                          for group in (sure, doubtful))
        # ... and an outline holding two of them is two cards taken as one
        # (unless the corner reader names it and none of them another card: they are parts
        # of it, its white or its sides split at a row of pips or a line in its picture)
        sure, mine, doubtful = ([q for q in group if len(held := _held(q, sided)) < 2
                                 or guarded(_one_card, frame, q, held, default=False)]
                                for group in (sure, mine, doubtful))
        mine += suppress(sided, sure + mine)
        mine = guarded(off_cards, mine, sure, frame, default=[])
        sure, mine = _pairs_parted(frame, sure, mine)
        found = sure + mine + [q for q in doubtful if all(
            guarded(overlap_share, q, m, default=1.0) < OVER_CARDS for m in mine)]
        # Cards dropped over each other: cut merged outlines into the cards laid from the
        # corners that show, and complete covered cards from them (vision.overlapping).
        corner: list[tuple[int, np.ndarray]] = guarded(
            _corner_cards, small, cv2.bitwise_or(by_cloth, plain), scale, default=[])
        found = guarded(_with_corner_cards, found, corner, frame, default=found)
        found = [q for q in found if _in_frame(q, frame.shape)]
        found = guarded(_unframed, frame, found, default=found)
    return found


def _smooth_cards(small: np.ndarray, hsv: np.ndarray, scale: float, min_area_share: float
                  ) -> list[np.ndarray]:
    """The outlines of smooth paper on a textured ground (vision.smooth) that look like cards,
    in frame pixels (`small` is the frame shrunk by `scale`)."""
    paper = smooth_paper(small, hsv)
    if not cv2.countNonZero(paper):
        return []
    return [q for q in outlines_in_mask(paper, scale, min_area_share)
            if guarded(looks_like_card, small, (q + 0.5) * scale - 0.5, default=False)]


def _off_markers(frame: np.ndarray, quads: list[np.ndarray]) -> list[np.ndarray]:
    """`quads` less those over the mat's ArUco markers (a marker's white border and black
    squares give straight sides and corners too)."""
    if not quads:
        return quads
    markers = detect_markers(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)).values()
    return [q for q in quads if all(overlap_share(q, m) < OVER_CARDS for m in markers)]


def _agreed(ways: list[list[np.ndarray]]) -> list[np.ndarray]:
    """The outlines that at least two of these ways of finding cards found (same_card)."""
    out: list[np.ndarray] = []
    for i, way in enumerate(ways):
        for quad in way:
            if any(any(same_card(quad, o) for o in other)
                   for j, other in enumerate(ways) if j != i) \
                    and not any(same_card(quad, o) for o in out):
                out.append(quad)
    return out


def _part_of(quad: np.ndarray, cards: list[np.ndarray], frame: np.ndarray) -> bool:
    """Whether the outline lies within one of `cards`, PART_OF times bigger than it, that is
    one card: no straight edge across its middle where two cards would meet (looks),
    and not PAIR_AREA times bigger than most of `cards` (two cards side by side); or, whatever
    its size and lines, one the corner reader names and the outline names no other card
    (`_one_card`: a card nearer the camera than the others, or a row of pips across it)."""
    if not cards:
        return False
    area = cv2.contourArea(quad)
    most = PAIR_AREA * float(np.median([cv2.contourArea(c) for c in cards]))
    within = [c for c in cards if cv2.contourArea(c) > PART_OF * area
              and shared_area(quad, c) > HELD_CARD * area]
    return any(most > cv2.contourArea(c) and not guarded(line_across, frame, c, default=True)
               for c in within) \
        or any(guarded(_one_card, frame, c, [quad], default=False) for c in within)


def _held(quad: np.ndarray, cards: list[np.ndarray]) -> list[np.ndarray]:
    """Those of `cards` (other than `quad` itself) that the outline holds nearly whole."""
    return [c for c in cards if not same_card(c, quad)
            and shared_area(c, quad) > HELD_CARD * cv2.contourArea(c)]


def _one_card(frame: np.ndarray, quad: np.ndarray, parts: list[np.ndarray]) -> bool:
    """Whether an outline holding `parts` is one card, they parts of it: the corner reader
    names it, each index corner alone too, and none of them another card. Two cards side
    by side taken as one show one card's index at a corner and the other's, or none, at the
    other; a card nearer the camera than the others is as big as such a pair, and a row of
    its pips or a line in its picture, straight across it, is as a pair's meeting edge."""
    card = named_at_both_corners(straighten(frame, quad))
    return card is not None and all(
        identify(straighten(frame, part)).card in (None, card) for part in parts)


def _unframed(frame: np.ndarray, found: list[np.ndarray]) -> list[np.ndarray]:
    """The outlines `found`, each that is only the thin frame printed inside a card (round a
    court's picture or the pips) given up for that card: dropped when another outline is
    round it, about the same middle (a card is never inside another card) or one card (no
    line across it where two cards side by side would meet: then it is a part of that card,
    such as half its white), else grown to the card round it (vision.sides.around)."""
    out: list[np.ndarray] = []
    for i, quad in enumerate(found):
        area = cv2.contourArea(quad)
        short = min(side_lengths(quad))
        if any(cv2.contourArea(o) * FRAMED > area
               and shared_area(o, quad) > HELD_CARD * area
               and (float(np.linalg.norm(o.mean(axis=0) - quad.mean(axis=0))) < MIDDLE * short
                    or not guarded(line_across, frame, o, default=True))
               for j, o in enumerate(found) if j != i):
            log.debug("dropped an outline inside another: a frame printed on a card, or a "
                      "part of it")
            continue
        card = guarded(around, frame, quad, default=None)
        if card is not None:
            log.debug("grew an outline inside a card to the card's edges")
            quad = card
        if not any(same_card(quad, o) for o in out):
            out.append(quad)
    return out


def _sizes(quads: list[np.ndarray]) -> list[tuple[float, float]]:
    """The (short, long) sides of these outlines."""
    return [(min(s), max(s)) for s in map(side_lengths, quads)]


def _corner_cards(small: np.ndarray, light: np.ndarray, scale: float
                  ) -> list[tuple[int, np.ndarray]]:
    """vision.overlapping's cards in the frame shrunk by `scale` (`small`, and its `light`
    mask), in frame pixels grown by EDGE_GROW as the outlines by the white are; its edges
    are the faint ones too (a card over another of its own white)."""
    gray = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (5, 5), 1.0)
    edges = cv2.dilate(cv2.Canny(gray, *CANNY_LEVELS[1]), _KERNEL3)
    return [(n, grow(((q + 0.5) / scale - 0.5).astype(np.float32), EDGE_GROW))
            for n, q in corner_cards(light, edges)]


def _with_corner_cards(found: list[np.ndarray], corner: list[tuple[int, np.ndarray]],
                       frame: np.ndarray) -> list[np.ndarray]:
    """The outlines `found`, less those that take two or more of the cards laid from their
    corners (vision.overlapping) as one, are far bigger than any of those cards over them,
    or lie across such a card that is clearly more paper than they are (a covered card
    completed the wrong way); with those cards that look like cards and that no outline
    kept gives already, that hold no two outlines kept (two cards side by side make a
    card's shape too), are of the size of a card found (unless surely cards themselves)
    and, when only one of their corners was seen, overlap none."""
    if not corner:
        return found
    longest = max(max(side_lengths(q)) for _, q in corner)
    kept = []
    for quad in found:
        area = cv2.contourArea(quad)
        held = [q for _, q in corner if not same_card(q, quad)
                and shared_area(q, quad) > HELD_CARD * cv2.contourArea(q)]
        over = [q for _, q in corner
                if shared_area(q, quad) > HELD_CARD * min(area, cv2.contourArea(q))]
        if len(held) >= 2 or (over and max(side_lengths(quad)) > TOO_BIG * longest):
            log.debug("dropped an outline of %d cards laid from their corners", len(held))
            continue
        rival = [q for n, q in corner
                 if n >= 2 and not same_card(q, quad) and overlap_share(q, quad) > RIVALS]
        if rival and _paper(frame, rival[0]) >= _paper(frame, quad) + MORE_PAPER:
            log.debug("dropped an outline across a card laid from its corners")
            continue
        kept.append(quad)
    # the frame's card sizes: a card laid from fewer corners than SURE is of one of them (not
    # a card laid inside a square light patch, such as a marker's white border)
    longs = [max(side_lengths(q)) for q in kept]
    longs += [max(side_lengths(q)) for n, q in corner if n >= SURE]
    for seen, quad in corner:
        if any(same_card(quad, k) for k in kept):
            continue
        if seen < SURE and longs and not any(
                abs(max(side_lengths(quad)) / long_ - 1) < SIZE_AGREES for long_ in longs):
            continue
        shares = [overlap_share(quad, k) for k in kept]
        holds = sum(shared_area(quad, k) > HELD_CARD * cv2.contourArea(k) for k in kept)
        if holds >= 2 or (seen < 2 and any(share > RIVALS for share in shares)):
            continue
        if guarded(looks_like_card, frame, quad, default=False):
            kept.append(quad)
    return kept


def _paper(frame: np.ndarray, quad: np.ndarray) -> float:
    return guarded(scores, frame, quad, default=NO_CARD)[0]


def _in_frame(quad: np.ndarray, shape: tuple[int, ...]) -> bool:
    """No corner further out of the frame than OUT_OF_FRAME of the card's short side (a
    part of a card completed the wrong way), and no side along the frame's edge (a patch
    of the ground that the frame cut straight)."""
    slack = OUT_OF_FRAME * min(side_lengths(quad))
    if not ((quad >= -slack).all() and (quad[:, 0] < shape[1] + slack).all()
            and (quad[:, 1] < shape[0] + slack).all()):
        return False
    ends = np.stack([quad, np.roll(quad, -1, axis=0)], axis=1)   # 4 sides x 2 ends x (x, y)
    for axis, far in ((0, shape[1] - 1), (1, shape[0] - 1)):
        for edge in (0, far):
            if (np.abs(ends[:, :, axis] - edge) < 2).all(axis=1).any():
                return False
    return True


def _pairs_parted(frame: np.ndarray, sure: list[np.ndarray], mine: list[np.ndarray]
                  ) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Both lists with every outline that is two cards side by side (their two widths make
    a card's shape too) cut in two: one bigger than PAIR_AREA times the other cards found
    (the median), with a straight edge across it where they meet (looks.parted)."""
    both = sure + mine
    areas = [cv2.contourArea(q) for q in both]
    out: tuple[list[np.ndarray], list[np.ndarray]] = ([], [])
    for i, quad in enumerate(both):
        others = areas[:i] + areas[i + 1:]
        halves = guarded(parted, frame, quad, default=None) \
            if others and areas[i] > PAIR_AREA * float(np.median(others)) else None
        out[i >= len(sure)].extend(halves or [quad])
    return out


def plain_card_mask(hsv: np.ndarray) -> np.ndarray:
    """Pixels lighter than the frame's Otsu split of brightness and colourless enough to be a
    card's white: 255, else 0 (the whole frame taken as one; see card_mask for a cloth)."""
    level, _ = cv2.threshold(hsv[:, :, 2], 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    mask = cv2.inRange(hsv, (0, 0, max(level, float(MIN_WHITE))), (180, 105, 255))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _KERNEL5)
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, _KERNEL3)


def outlines_in_mask(mask: np.ndarray, scale: float, min_area_share: float = 0.002,
                     card_px: tuple[float, float] | None = None) -> list[np.ndarray]:
    """Card corners (frame pixels) from a `card_mask` of the frame shrunk by `scale`;
    `card_px` is a card's size in frame pixels (short, long side) when it is known."""
    known = (card_px[0] * scale, card_px[1] * scale) if card_px else None
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    min_area = min_area_share * mask.shape[0] * mask.shape[1]
    quads: list[np.ndarray] = []
    left_over = []
    found = []
    pieces = []
    for contour in contours:
        # The hull's area: a court card's white may be only a thin frame round its picture,
        # and where a dim corner of the lamp breaks that frame, the outline is a "C".
        area = cv2.contourArea(cv2.convexHull(contour))
        if area > MAX_CARD_SHARE * mask.size:   # not one card: cards on a white ground?
            left_over.append((area, contour))
            continue
        if area < min_area:
            if area > min_area / 4:
                pieces.append((area, contour))
            continue
        quad = guarded(_quad_of, contour, known, default=None)
        if quad is not None:
            quads.append(quad)
            found.append(contour)
        else:
            left_over.append((area, contour))
    # A blob bigger than a card may be cards that touch (two side by side even look like one
    # big card): judge "bigger" by the size of most cards found.
    areas = [cv2.contourArea(q) for q in quads]
    card_area = _card_area(areas) if quads else 4 * min_area
    sized = bool(quads) or known is not None   # else a row's cards are sized by the row
    if known is not None:
        card_area = known[0] * known[1]
    if known is None and len(quads) >= 3:
        left_over += [(a, c) for a, q, c in zip(areas, quads, found, strict=True)
                      if a > 1.6 * card_area]
        quads = [q for a, q in zip(areas, quads, strict=True) if a <= 1.6 * card_area]
    for area, contour in left_over:
        if area < 1.5 * card_area:
            pieces.append((area, contour))
            continue
        if area > MAX_BLOB_CARDS * card_area:
            log.debug("skipped a blob of %.0f cards' area: not cards", area / card_area)
            continue
        x, y, w, h = cv2.boundingRect(contour)
        blob = np.zeros((h + 2, w + 2), np.uint8)
        cv2.drawContours(blob, [contour], -1, 255, -1, offset=(1 - x, 1 - y))
        parts: list[np.ndarray] | None = guarded(_peel, blob, card_area if sized else None,
                                                 known, default=None)
        if parts is None:
            none: list[np.ndarray] = []
            parts = guarded(_split, blob, card_area, known, default=none)
        quads += [q + np.array([x - 1, y - 1], np.float32) for q in parts]
    joined: list[np.ndarray] = guarded(_joined, pieces, card_area, known, default=[])
    quads += joined
    out = [guarded(grow, ((q + 0.5) / scale - 0.5).astype(np.float32), EDGE_GROW, default=None)
           for q in quads]
    return [q for q in out if q is not None and np.isfinite(q).all()]


def _card_area(areas: list[float]) -> float:
    """A card's area from those of the card-shaped outlines: the smaller ones (two cards side
    by side also look like a card, a bigger one, and a meld may hold more pairs than the
    table holds single cards)."""
    small = float(np.percentile(areas, 25))
    return float(np.median([a for a in areas if a <= 1.3 * small]))


def grow(quad: np.ndarray, pixels: float) -> np.ndarray:
    """The quadrilateral with every side moved `pixels` outwards."""
    pts = quad.reshape(4, 2).tolist()
    out = []
    for i, (x, y) in enumerate(pts):
        (bx, by), (ax, ay) = pts[i - 1], pts[(i + 1) % 4]
        back, ahead = math.hypot(x - bx, y - by), math.hypot(x - ax, y - ay)
        out.append((x + pixels * ((x - bx) / back + (x - ax) / ahead),
                    y + pixels * ((y - by) / back + (y - ay) / ahead)))
    return np.array(out, np.float32)


def straighten(frame: np.ndarray, corners: np.ndarray,
               size: tuple[int, int] = (READ_W, READ_H)) -> np.ndarray:
    """The card inside `corners` (ordered as `order_corners` does) as an upright rectangle."""
    w, h = size
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    m = cv2.getPerspectiveTransform(corners.astype(np.float32), dst)
    return cv2.warpPerspective(frame, m, (w, h), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def find_cards(frame: np.ndarray, deck: DeckProfile | None = None) -> list[Detection]:
    """Every whole card in a frame of a table (a uint8 BGR, BGRA or grey image), each with its
    corners and reading. Never raises on such a frame; other input is a ValueError."""
    frame = as_bgr(frame)
    return read_outlines(frame, card_outlines(frame, edges=True), deck)


def read_outlines(frame: np.ndarray, outlines: list[np.ndarray],
                  deck: DeckProfile | None = None) -> list[Detection]:
    """Each outline in a BGR frame straightened and read, with the cards found by an index
    that shows where no outline read gives them (`_with_index_cards`)."""
    return with_index_cards(frame, [Detection(q, identify(straighten(frame, q), deck))
                                    for q in outlines])


def with_index_cards(frame: np.ndarray, found: list[Detection]) -> list[Detection]:
    """The cards `found` in a BGR frame (outlines read) with those found by an index that
    shows (`_with_index_cards`); never raises: a failing step leaves `found` as it is."""
    return guarded(_with_index_cards, frame, found, default=found)


def _with_index_cards(frame: np.ndarray, found: list[Detection]) -> list[Detection]:
    """The cards `found` with those found by an index that shows (vision.by_index) on paper
    no card read explains: an unread outline holding such an index takes its reading when
    its corner and size agree with the index's card, one lying inside that card (the
    printed frame round the pips, a part of its white) gives way to it, and a card read
    already is never found twice."""
    if min(frame.shape[:2]) < 32:
        return found
    read = [d for d in found if d.reading.card is not None]
    by_index = read_indices(frame, [d.corners for d in read],
                            card_size([d.corners for d in read]))
    out = list(found)
    for card in by_index:
        # the middle of the face must not rule the rank out, as for a card read by its
        # outline; one under a card read already shows that card's face, and rules nothing
        # out (vision.middle: a real deck's ace over a ten's middle was taken for the ten's
        # picture, and a hand's top card's pips for those of the cards under it).
        covered = any(holds(d.corners, card.corners.mean(axis=0)) for d in read)
        if not middle_check().allows(straighten(frame, card.corners), int(card.card.rank),
                                     covered=covered):
            continue
        laid = order_corners(card.corners)
        area = cv2.contourArea(laid)
        if any(d.reading.card == card.card and shared_area(d.corners, laid) > SAME_PLACE * area
               for d in out):
            continue   # read already, by its outline or by another index of it (the surer)
        holder = next((i for i, d in enumerate(out) if d.reading.card is None
                       and holds(d.corners, card.index)
                       and _agrees(d.corners, card) and _as_sure(frame, d.corners, card)),
                      None)
        if holder is not None:
            log.debug("an unread outline took the reading of the index it holds")
            out[holder] = Detection(out[holder].corners, as_reading(card))
            continue
        out = [d for d in out if d.reading.card is not None
               or shared_area(d.corners, laid) < HELD_CARD * cv2.contourArea(d.corners)]
        out.append(Detection(laid, as_reading(card)))
    return out


def _as_sure(frame: np.ndarray, outline: np.ndarray, card: IndexCard) -> bool:
    """Whether an outline agreeing with a card laid from an index is as true to the card:
    its two sides not meeting at the index's corner stand out as a card's edges nearly as far
    as the laid card's do (within TRUER). Else the card laid is the truer (on the tuning
    seed's rendered busy scenes, a card nearer the camera than the others laid by its corners
    at their size, or another card's unread outline holding the index, took its reading)."""
    k = int(np.argmin(np.linalg.norm(outline - card.corners[0], axis=1)))
    mine = np.roll(outline, -k, axis=0)
    if _turning(mine) * _turning(card.corners) < 0:
        mine = mine[[0, 3, 2, 1]]
    return far_sides(frame, mine) + TRUER > far_sides(frame, card.corners)


def _turning(corners: np.ndarray) -> float:
    """The sense corners run in: the sign of the cross product of the sides from the first."""
    a, b = corners[1] - corners[0], corners[3] - corners[0]
    return float(np.sign(a[0] * b[1] - a[1] * b[0]))


def _agrees(outline: np.ndarray, card: IndexCard) -> bool:
    """Whether an outline is the card laid from an index: a corner of the outline at the
    index's corner, the index well inside it (a card's index lies a few mm in from its
    edges; an outline running through the index is some other edge's, and took a rightly
    read card off its index on the tuning seeds' photographed deck), and about the size of
    the card laid, of the size its index says, or between the two (a card nearer the camera
    than the others; a jumbo index)."""
    short = min(side_lengths(card.corners))
    near = min(float(np.linalg.norm(c - card.corners[0])) for c in outline)
    area = cv2.contourArea(outline)
    sizes = (cv2.contourArea(order_corners(card.corners)), own_area(card))
    return (near < AGREES * short and depth_inside(outline, card.index) >= INDEX_INSIDE * short
            and min(sizes) / INDEX_SIZE < area < max(sizes) * INDEX_SIZE)
