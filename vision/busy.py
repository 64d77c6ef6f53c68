"""Rendered scenes of cards on busy backgrounds: the tuning set of the finder's busy-background
path (vision.edges, vision.looks) and its tests. Nothing here is drawn from the real photos.

`busy_scene(faces, rng) -> (frame, laid)`, each laid card with its corners, front to back. A
scene is a textured ground (wood grain, carpet, fabric weaves, stripes, zig-zags, checks,
flowers, asphalt, blotches, noise; often with a near-white colour in it, the ground that looks
most like a card) with cards at different sizes laid apart, fanned, piled (only a corner of a
card under another showing) or in overlapping pairs, each with its shadow, under uneven light,
then blurred, noisy and JPEG-compressed. The "overlap" layout is two or three cards at 1.5 to 4
px/mm and any angles, each covering a corner of another (as a photo of a few cards dropped on a
table: often only one index of a card shows); bench_busy measures it on its own,
as it does the "hand" layout: three cards fanned tightly about a corner, the two under the top
one showing an index each in a narrow wedge (as the three-card scenes of
geaxgx/playing-card-detection, the method the real photos were made with, are laid out: read
from its public code, not from the photos), and the "dropped" layout: two cards dropped anywhere
about the middle at sizes of their own, with no shadow, the top one hiding each index of the
other wholly or not at all (as its two-card scenes are made). Faces are
those of the corner reader's training designs (`training_decks`), never its calibration or
evaluation ones. `borderless(face)` paints a face's printed border over with its own paper,
as a real cut-out card (white right to its rounded edge) looks: bench_busy `--borders`.
`photographed(face, rng)` lights a face by a lamp of its own, as a photo of a card cut out and
pasted into a scene is lit: bench_busy `--lamps own`; `warm_lamp` the whole frame by a warm
lamp its white balance does not correct: `--lamps warm`.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from table.rules import Card

from .quads import holds
from .white import balanced

TEXTURES = ("noise", "stripes", "wood", "blotches", "carpet", "weave", "zigzag", "checks",
            "floral", "asphalt")
LAYOUTS = ("apart", "fan", "pile", "pair")   # drawn at random when no layout is asked for
LAMPS = ("scene", "own", "warm")   # one lamp over the scene; a lamp of each card's own; a
# warm lamp over the scene, uncorrected
OVERLAP = "overlap"   # asked for by name only (bench_busy --layout overlap)
HAND = "hand"         # ... and so is this one (bench_busy --layout hand)
DROPPED = "dropped"   # ... and this (bench_busy --layout dropped)
PX_PER_MM = (1.5, 4.0)   # the overlap and hand layouts' card sizes in a 720 x 720 frame (the
# photos' size), scaled with the frame's short side
# A hand of three fanned about the bottom-left corner: the middle card turned this far (degrees)
# from the bottom one and the top one this far, after shifting each along its short side by
# these shares of its width (as geaxgx/playing-card-detection makes its three-card scenes)
HAND_TURNS = ((10.0, 15.0), (22.0, 30.0))
HAND_SHIFTS = ((0.0, 0.022), (0.044, 0.088))
CARD_MM = 88.0
# The dropped layout as geaxgx/playing-card-detection makes its two-card scenes: each card's
# length this share of a 720 frame's side (its 348 px card scaled 0.65-1), its middle this share
# of the frame off the frame's middle, and a corner index of the card under it either hidden
# (this share of it covered or more) or shown (its rest or less covered), never half hidden
DROPPED_LENGTH = (0.65 * 348 / 720, 348 / 720)
DROPPED_OFF = 0.25
DROPPED_HIDDEN = 0.9
INDEX_BOX = ((0.05, 0.03), (0.21, 0.29))   # a corner index's box, shares of width and length
# kdegames decks the corner reader trains on (vision/training/designs.py): the busy scenes use
# these only, so that the reader's calibration and evaluation decks stay unseen (and the decks
# gnome-cards-data also ships, kept for an independent check, are not used at all).
TRAINING_DECKS = ("svg-ancient-egyptians", "svg-jolly-royal", "svg-standard")
CARD_RATIO = 63 / 88
BORDER = 0.022  # share of a face's width from its edge within which kdegames print a border


@dataclass(frozen=True)
class Laid:
    """A card in a busy scene: its corners (4x2, clockwise from a short side) in the frame."""

    card: Card
    corners: np.ndarray


def training_decks() -> dict[str, dict[Card, np.ndarray]]:
    """The faces (BGRA) of the kdegames training decks that are installed (vision.faces)."""
    from .faces import DeckUnusable, load_deck

    decks = {}
    for name in TRAINING_DECKS:
        try:
            decks[name] = load_deck(name)
        except DeckUnusable:
            continue
    return decks


def borderless(face: np.ndarray) -> np.ndarray:
    """The face (BGRA) with its printed border painted over by the paper just inside it,
    its rounded outline (alpha) kept: a card with no printed border, such as a Bicycle."""
    if face.ndim != 3 or face.shape[2] != 4:
        return face
    band = max(2, round(BORDER * face.shape[1]))
    inner = cv2.erode((face[:, :, 3] > 128).astype(np.uint8),
                      cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * band + 1, 2 * band + 1)),
                      borderType=cv2.BORDER_CONSTANT, borderValue=0)
    painted = cv2.inpaint(np.ascontiguousarray(face[:, :, :3]), (inner == 0).astype(np.uint8),
                          3, cv2.INPAINT_TELEA)
    return np.dstack([painted, face[:, :, 3]])


def jumbo_index(face: np.ndarray, times: float) -> np.ndarray:
    """The face with both indices printed `times` bigger (as a jumbo-index deck's, such as
    the Bicycle of the real photos), each grown from its card corner with a rim of its paper,
    over the middle's pips or picture where they meet. The index is the ink wholly inside the
    corner's strip (two fifths of the card down, a quarter across: the Egyptian deck's pip
    reaches a third of the way down); ink running out of it, the middle's, is left as
    printed, and nothing is grown past half the card."""
    out = face.copy()
    h, w = face.shape[:2]
    tall, wide = int(0.4 * h), int(0.25 * w)
    for turned in (False, True):
        card = np.ascontiguousarray(out[::-1, ::-1]) if turned else out
        strip = card[:tall, :wide, :3].copy()
        least = strip.min(axis=2)
        dark = (least < 0.7 * float(np.percentile(least, 95))).astype(np.uint8)
        _, labels, stats, _ = cv2.connectedComponentsWithStats(dark, connectivity=8)
        outside = (stats[:, 0] + stats[:, 2] >= wide) | (stats[:, 1] + stats[:, 3] >= tall)
        outside[0] = False
        middle = cv2.dilate(outside.astype(np.uint8)[labels], np.ones((3, 3), np.uint8))
        index = cv2.inpaint(strip, middle, 3, cv2.INPAINT_TELEA)
        grown = cv2.resize(index, None, fx=times, fy=times, interpolation=cv2.INTER_CUBIC)
        ink = cv2.dilate(((dark > 0) & (middle == 0)).astype(np.uint8), np.ones((3, 3), np.uint8))
        card[:tall, :wide, :3] = cv2.inpaint(strip, ink, 3, cv2.INPAINT_TELEA)   # paper
        margin = max(3, round(0.03 * w)) | 1
        ink = cv2.resize(ink, None, fx=times, fy=times, interpolation=cv2.INTER_NEAREST)
        ink = cv2.dilate(ink, np.ones((margin, margin), np.uint8))
        gh, gw = min(grown.shape[0], h // 2), min(grown.shape[1], w // 2)
        where = ink[:gh, :gw] > 0
        card[:gh, :gw, :3][where] = grown[:gh, :gw][where]
        out = np.ascontiguousarray(card[::-1, ::-1]) if turned else card
    return out


def photographed(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The face (BGRA) as a photo of a real card under a lamp of its own, as each card of the
    real photos was cut out of a video of it shot while its lamp's brightness and colour were
    changed (read from geaxgx/playing-card-detection's public notebook, not from the photos):
    dimmer or brighter than the scene, warmer or cooler, lit unevenly across, a glare of the
    lamp on its gloss in one card of four, a little out of focus and grainy."""
    h, w = face.shape[:2]
    per_mm = w / 63
    image = face[:, :, :3].astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32) / max(h, w)
    a = rng.uniform(0, 2 * np.pi)
    across = (xx - 0.5 * w / max(h, w)) * np.cos(a) + (yy - 0.5 * h / max(h, w)) * np.sin(a)
    gain = float(rng.uniform(0.45, 1.05)) * (1 + float(rng.uniform(-0.3, 0.3)) * across)
    warmth = float(rng.uniform(-1, 1))   # > 0 a warm lamp (less blue), < 0 a cool one
    cast = _warm(1 - 0.45 * warmth) if warmth > 0 \
        else np.array([1.0, 1 + 0.1 * warmth, 1 + 0.3 * warmth], np.float32)
    image *= gain[:, :, None] * cast[None, None, :]
    if rng.random() < 0.25:
        centre = rng.uniform(0, 1, 2) * (w, h)
        axes = rng.uniform(0.1, 0.35, 2) * w
        blob = np.zeros((h, w), np.float32)
        cv2.ellipse(blob, (int(centre[0]), int(centre[1])), (int(axes[0]), int(axes[1])),
                    float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        glow = cv2.GaussianBlur(blob, (0, 0), float(axes.mean()) / 2)
        image += (255 - image) * float(rng.uniform(0.3, 0.8)) * glow[:, :, None]
    soft = cv2.GaussianBlur(image, (0, 0), float(rng.uniform(0.05, 0.2)) * per_mm)
    soft += rng.normal(0, float(rng.uniform(1, 6)), image.shape).astype(np.float32)
    out = face.copy()
    out[:, :, :3] = np.clip(soft, 0, 255).astype(np.uint8)
    return out


def _palette(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Two colours of a ground; often one of them near white (cream, light grey)."""
    base = rng.uniform(20, 235, 3)
    other = rng.uniform(20, 235, 3)
    if rng.random() < 0.35:
        other = rng.uniform(185, 245) + rng.uniform(-12, 12, 3)
    return base, other


def _smooth(rng: np.random.Generator, size: tuple[int, int], cells: int) -> np.ndarray:
    """Smooth noise in 0..1 with about `cells` bumps across."""
    w, h = size
    low = rng.uniform(0, 1, (max(2, cells * h // max(w, h)), max(2, cells * w // max(w, h))))
    return cv2.resize(low.astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)


def busy_texture(kind: str, rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A busy background (BGR, `size` = width, height) of one of TEXTURES."""
    w, h = size
    base, other = _palette(rng)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, np.pi)
    u = xx * np.cos(angle) + yy * np.sin(angle)
    v = -xx * np.sin(angle) + yy * np.cos(angle)
    grain = 6.0
    if kind == "noise":
        t = np.clip(_smooth(rng, size, max(2, w // 16))
                    + rng.normal(0, 0.25, (h, w)).astype(np.float32), 0, 1)
    elif kind == "stripes":
        period = rng.uniform(6, 60)
        t = 0.5 + 0.5 * np.sin(u * 2 * np.pi / period)
        t = (t > rng.uniform(0.3, 0.7)).astype(np.float32) if rng.random() < 0.6 else t
    elif kind == "wood":
        warp = _smooth(rng, size, 6) * 2 - 1
        t = 0.5 + 0.5 * np.sin(v / rng.uniform(3, 12) + 3 * warp + 0.02 * u)
        t = t ** rng.uniform(0.5, 2.0) * (0.7 + 0.3 * _smooth(rng, size, 40))
        if rng.random() < 0.5:   # planks
            t *= 1 - 0.7 * (np.mod(v, rng.uniform(60, 200)) < 2)
    elif kind == "carpet":
        t = cv2.GaussianBlur(rng.uniform(0, 1, (h, w)).astype(np.float32), (0, 0), 0.8)
        t = np.clip(0.5 + 1.8 * (t - 0.5) * (0.6 + 0.8 * _smooth(rng, size, 8)), 0, 1)
        grain = 12.0
    elif kind == "weave":
        period = rng.uniform(4, 16)
        warp_, weft = np.sin(u * 2 * np.pi / period), np.sin(v * 2 * np.pi / period)
        t = 0.5 + 0.25 * (warp_ + weft) * np.sign(np.sin(u * np.pi / period)
                                                 * np.sin(v * np.pi / period))
    elif kind == "zigzag":
        period, amp = rng.uniform(15, 70), rng.uniform(8, 40)
        tri = np.abs(np.mod(u / period, 2) - 1) * amp
        t = (np.mod(v + tri, rng.uniform(12, 50)) < rng.uniform(5, 12)).astype(np.float32)
    elif kind == "checks":
        period = rng.uniform(10, 70)
        a = np.mod(u / period, 1) < 0.5
        b = np.mod(v / period, 1) < 0.5
        t = (a ^ b).astype(np.float32) if rng.random() < 0.5 \
            else (a.astype(np.float32) + b) / 2   # gingham
    elif kind == "floral":
        t = _smooth(rng, size, 10) * 0.3
        for _ in range(int(rng.integers(10, 40))):
            cx, cy = float(rng.uniform(0, w)), float(rng.uniform(0, h))
            r = float(rng.uniform(0.02, 0.08) * max(w, h))
            level = float(rng.uniform(0.6, 1.0))
            for k in range(int(rng.integers(4, 8))):
                a = 2 * np.pi * k / 6 + float(rng.uniform(-0.2, 0.2))
                centre = (int(cx + r * np.cos(a)), int(cy + r * np.sin(a)))
                cv2.ellipse(t, centre, (int(r * 0.8), int(r * 0.4)), float(np.degrees(a)),
                            0, 360, level, -1)
            cv2.circle(t, (int(cx), int(cy)), int(r * 0.4), float(rng.uniform(0, 0.3)), -1)
    elif kind == "asphalt":
        t = 0.4 + 0.2 * _smooth(rng, size, 6)
        speck = rng.uniform(0, 1, (h, w))
        t = np.where(speck > 0.93, rng.uniform(0.6, 1.0), t)
        t = np.where(speck < 0.07, 0.1, t).astype(np.float32)
        t = cv2.GaussianBlur(t, (0, 0), 0.7)
        base, other = np.full(3, rng.uniform(20, 70)), np.full(3, rng.uniform(120, 220))
        grain = 10.0
    else:   # blotches
        t = np.zeros((h, w), np.float32)
        for _ in range(int(rng.integers(20, 60))):
            centre = (int(rng.integers(0, w)), int(rng.integers(0, h)))
            axes = (int(rng.integers(5, w // 6)), int(rng.integers(5, h // 6)))
            cv2.ellipse(t, centre, axes, float(rng.uniform(0, 180)), 0, 360,
                        float(rng.uniform(0, 1)), -1)
    t = np.clip(t, 0, 1).astype(np.float32)
    image = base[None, None, :] * (1 - t[:, :, None]) + other[None, None, :] * t[:, :, None]
    image += rng.normal(0, grain, image.shape)
    return np.clip(image, 0, 255).astype(np.uint8)


def _paste(frame: np.ndarray, face: np.ndarray, corners: np.ndarray,
           shadow: np.ndarray | None = None) -> None:
    """The face warped onto `corners` (its transparent corners kept), after darkening the
    frame under it by `shadow` (the shadow's offset in pixels, its softness and strength)."""
    fh, fw = face.shape[:2]
    src = np.array([[0, 0], [fw - 1, 0], [fw - 1, fh - 1], [0, fh - 1]], np.float32)
    m = cv2.getPerspectiveTransform(src, corners.astype(np.float32))
    size = (frame.shape[1], frame.shape[0])
    opaque = face[:, :, 3] if face.ndim == 3 and face.shape[2] == 4 \
        else np.full((fh, fw), 255, np.uint8)
    warped = cv2.warpPerspective(face[:, :, :3], m, size, flags=cv2.INTER_AREA)
    cover = cv2.warpPerspective(opaque, m, size, flags=cv2.INTER_LINEAR)
    alpha = cover.astype(np.float32)[:, :, None] / 255
    if shadow is not None:
        dx, dy, soft, strength = shadow.tolist()
        moved = cv2.warpAffine(cover, np.array([[1, 0, dx], [0, 1, dy]], np.float32), size)
        dark = cv2.GaussianBlur(moved.astype(np.float32) / 255, (0, 0), max(soft, 0.5))
        frame[:] = (frame * (1 - strength * dark[:, :, None])).astype(np.uint8)
    frame[:] = (frame * (1 - alpha) + warped * alpha).astype(np.uint8)


def _card_corners(centre: np.ndarray, length: float, angle: float) -> np.ndarray:
    width = length * CARD_RATIO
    c, s = np.cos(angle), np.sin(angle)
    along, across = np.array([c, s]), np.array([-s, c])
    half = [(-width / 2, -length / 2), (width / 2, -length / 2),
            (width / 2, length / 2), (-width / 2, length / 2)]
    return np.array([centre + x * along + y * across for x, y in half], np.float32)


def _overlaps(quad: np.ndarray, others: list[np.ndarray], margin: float = 0.0) -> bool:
    for other in others:
        area, _ = cv2.intersectConvexConvex(quad, other)
        if area > margin * cv2.contourArea(quad):
            return True
    return False


def _inside(quad: np.ndarray, size: tuple[int, int], slack: float = 0.0) -> bool:
    w, h = size
    return bool((quad[:, 0] > -slack).all() and (quad[:, 0] < w + slack).all()
                and (quad[:, 1] > -slack).all() and (quad[:, 1] < h + slack).all())


def _group(layout: str, rng: np.random.Generator, size: tuple[int, int], length: float,
           fan_spread: tuple[float, float]) -> list[np.ndarray]:
    """The corners of a group of overlapping cards, the top one first."""
    w, h = size
    centre = np.array([w / 2, h / 2]) + rng.uniform(-0.12, 0.12, 2) * min(w, h)
    angle = float(rng.uniform(0, 2 * np.pi))
    quads: list[np.ndarray] = []
    if layout == "fan":
        turn = float(rng.uniform(0.05, 0.3)) * (1 if rng.random() < 0.5 else -1)
        step = float(rng.uniform(*fan_spread)) * length
        for i in range(int(rng.integers(2, 5))):
            a = angle + i * turn
            quads.append(_card_corners(centre + i * step * np.array([np.cos(a), np.sin(a)]),
                                       length, a))
    elif layout == "pair":
        a = angle + float(rng.uniform(-0.2, 0.2))
        shift = float(rng.uniform(0.7, 0.95)) * length * CARD_RATIO
        quads = [_card_corners(centre, length, angle),
                 _card_corners(centre + shift * np.array([np.cos(angle), np.sin(angle)])
                               + rng.uniform(-0.1, 0.1, 2) * length, length, a)]
    elif layout == OVERLAP:
        quads = _overlapping(rng, size, length)
    elif layout == HAND:
        quads = _hand(rng, size, length)
    elif layout == DROPPED:
        quads = _dropped(rng, size)
    else:   # a pile: each card shifted and turned at random off the one over it
        quads = [_card_corners(centre, length, angle)]
        for _ in range(int(rng.integers(1, 4))):
            way = float(rng.uniform(0, 2 * np.pi))
            reach = float(rng.uniform(0.35, 0.7)) * length
            below = quads[-1].mean(axis=0) + reach * np.array([np.cos(way), np.sin(way)])
            quads.append(_card_corners(below, length * float(rng.uniform(0.97, 1.03)),
                                       float(rng.uniform(0, 2 * np.pi))))
    return quads


def _overlapping(rng: np.random.Generator, size: tuple[int, int], length: float
                 ) -> list[np.ndarray]:
    """Two or three cards of `length`, at any angles, each laid over a corner of one laid
    before it (or three spread wide as a hand), so that every card shows at least one of its
    corner indices and a third of its face; the top one first. Fewer cards when no such
    place is found in a few tries."""
    w, h = size
    first = _card_corners(np.array([w / 2, h / 2]) + rng.uniform(-0.15, 0.15, 2) * min(w, h),
                          length, float(rng.uniform(0, 2 * np.pi)))
    under = [first]   # the bottom card first
    count = int(rng.integers(1, 3))
    if count == 2 and rng.random() < 0.5:
        # a hand spread wide: each card turned a quarter-right-angle or so about a point
        # near the bottom of the one under it
        turn = float(rng.uniform(0.35, 0.55)) * (1 if rng.random() < 0.5 else -1)
        pivot = (first[2] + first[3]) / 2 + (first[0] - first[3]) * float(rng.uniform(0.1, 0.3))
        spread = [first]
        for k in (1, 2):
            c, s_ = np.cos(k * turn), np.sin(k * turn)
            spun = (first - pivot) @ np.array([[c, s_], [-s_, c]], np.float32) + pivot
            spread.append((spun + rng.uniform(-0.04, 0.04, 2) * length).astype(np.float32))
        if all(_inside(q, size, -2) for q in spread) and _all_show(spread[::-1]):
            return spread[::-1]
    for _ in range(count):   # else each card over a corner of one under it
        for _ in range(30):
            target = under[int(rng.integers(len(under)))]
            corner = target[int(rng.integers(4))]
            out = corner - target.mean(axis=0)
            out /= max(float(np.linalg.norm(out)), 1e-6)
            turn = float(rng.uniform(-1.2, 1.2))
            way = np.array([out[0] * np.cos(turn) - out[1] * np.sin(turn),
                            out[0] * np.sin(turn) + out[1] * np.cos(turn)])
            centre = corner + way * float(rng.uniform(0.15, 0.5)) * length
            quad = _card_corners(centre, length, float(rng.uniform(0, 2 * np.pi)))
            pile = [quad] + under[::-1]
            if _inside(quad, size, -2) and _all_show(pile):
                under.append(quad)
                break
    return under[::-1]


def _hand(rng: np.random.Generator, size: tuple[int, int], length: float) -> list[np.ndarray]:
    """Three cards of `length` fanned in a hand: each turned clockwise about the bottom-left
    corner of the bottom one (HAND_TURNS, HAND_SHIFTS), so that the two under the top one show
    their top-left index in a narrow wedge and nothing more; the hand at any angle and place
    that keeps it in the frame (or at its middle when none does). The top card first."""
    w, h = size
    bottom = _card_corners(np.zeros(2), length, 0.0)
    pivot = bottom[3]
    width = length * CARD_RATIO
    quads = [bottom]
    for (lo, hi), (near, far) in zip(HAND_TURNS, HAND_SHIFTS, strict=True):
        turn = np.radians(rng.uniform(lo, hi))
        c, s_ = np.cos(turn), np.sin(turn)
        shifted = bottom + np.array([rng.uniform(near, far) * width, 0.0], np.float32)
        quads.append(((shifted - pivot) @ np.array([[c, s_], [-s_, c]]) + pivot).astype(np.float32))
    turn = float(rng.uniform(0, 2 * np.pi))
    c, s_ = np.cos(turn), np.sin(turn)
    quads = [q @ np.array([[c, s_], [-s_, c]], np.float32) for q in quads]
    points = np.concatenate(quads)
    low, high = points.min(axis=0), points.max(axis=0)
    room = np.array([w, h], np.float32) - (high - low) - 4
    at = np.where(room > 0, rng.uniform(0, 1, 2) * np.maximum(room, 0) + 2, room / 2) - low
    return [(q + at).astype(np.float32) for q in quads[::-1]]


def _index_boxes(quad: np.ndarray) -> list[np.ndarray]:
    """The boxes of a card's two corner indices (INDEX_BOX), in the frame."""
    across, down = quad[1] - quad[0], quad[3] - quad[0]
    (x0, y0), (x1, y1) = INDEX_BOX
    top = np.array([quad[0] + x * across + y * down
                    for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))], np.float32)
    bottom = (quad[0] + quad[2] - top).astype(np.float32)
    return [top, bottom]


def _dropped(rng: np.random.Generator, size: tuple[int, int]) -> list[np.ndarray]:
    """Two cards dropped anywhere about the frame's middle, each at a size and angle of its own
    (DROPPED_LENGTH, DROPPED_OFF), the second over the first wherever it falls, as long as it
    hides each corner index of the first wholly or not at all (DROPPED_HIDDEN): the first may
    show one index and little else, or none. A card may reach past the frame's edge, but its
    indices lie inside. The top one first."""
    w, h = size

    def drop() -> np.ndarray:
        for _ in range(100):
            length = float(rng.uniform(*DROPPED_LENGTH)) * min(w, h)
            off = rng.uniform(-DROPPED_OFF, DROPPED_OFF, 2)
            centre = np.array([w, h], np.float64) * (0.5 + off)
            quad = _card_corners(centre, length, float(rng.uniform(0, 2 * np.pi)))
            if all(_inside(box, size, -1) for box in _index_boxes(quad)):
                return quad
        return _card_corners(np.array([w / 2, h / 2]), DROPPED_LENGTH[0] * min(w, h), 0.0)

    first = drop()
    boxes = _index_boxes(first)
    for _ in range(100):
        second = drop()
        hidden = [cv2.intersectConvexConvex(box, second)[0] / cv2.contourArea(box)
                  for box in boxes]
        if all(c <= 1 - DROPPED_HIDDEN or c >= DROPPED_HIDDEN for c in hidden):
            return [second, first]
    return [first]


def _all_show(quads: list[np.ndarray]) -> bool:
    """Every card (the top one first) shows an index and a third of its face."""
    shown = index_centres([Laid(Card.parse("AS"), q) for q in quads])
    if not all(shown):
        return False
    for i, quad in enumerate(quads[1:], 1):
        cover = np.zeros((64, 64), np.uint8)
        box = cv2.boundingRect(quad.astype(np.float32))
        fit = 63 / max(box[2], box[3], 1)
        local = [(q - np.array(box[:2], np.float32)) * fit for q in quads[:i + 1]]
        cv2.fillConvexPoly(cover, np.round(local[i]).astype(np.int32), 255)
        whole = np.count_nonzero(cover)
        for other in local[:i]:
            cv2.fillConvexPoly(cover, np.round(other).astype(np.int32), 0)
        if np.count_nonzero(cover) < whole / 3:
            return False
    return True


def busy_scene(faces: dict[Card, np.ndarray], rng: np.random.Generator,
               size: tuple[int, int] = (720, 720), kind: str | None = None,
               fan: bool | None = None, spread: tuple[float, float] = (0.12, 0.3),
               layout: str | None = None, cards: bool = True, lamps: str = "scene"
               ) -> tuple[np.ndarray, list[Laid]]:
    """Cards on a busy texture under uneven light. `layout` is one of LAYOUTS (random if
    None; `fan=True` is "fan", `fan=False` "apart"): apart (two to five cards, different
    sizes), fanned (each card turned and shifted from the one under it by `spread` of a card's
    length), piled, or a pair overlapping along a long side; groups get a card or two apart
    besides. Or OVERLAP: two or three cards only, each over a corner of another
    (`_overlapping`), as small as 1.5 px/mm, with shadows from none to strong; or HAND: three
    cards of that size fanned tightly in a hand (`_hand`); or DROPPED: two cards dropped about
    the middle (`_dropped`), with no shadow.
    `cards=False` gives the ground alone. `lamps` is one of LAMPS: "own" lights each face
    `photographed` under a lamp of its own, "warm" the whole frame by a warm lamp
    (`warm_lamp`). Returns the frame and the cards, the top one first."""
    if lamps not in LAMPS:
        raise ValueError(f"lamps is one of {', '.join(LAMPS)}, not {lamps!r}")
    w, h = size
    frame = busy_texture(kind or TEXTURES[int(rng.integers(len(TEXTURES)))], rng, size)
    if layout is None:
        layout = ("fan" if fan else "apart") if fan is not None \
            else LAYOUTS[int(rng.integers(len(LAYOUTS)))]
    length = float(rng.uniform(0.22, 0.45) * min(w, h))
    if layout in (OVERLAP, HAND, DROPPED):
        length = float(rng.uniform(*PX_PER_MM)) * CARD_MM * min(w, h) / 720
    quads: list[np.ndarray] = []
    if cards and layout != "apart":
        quads = [q for q in _group(layout, rng, size, length, spread)
                 if layout == DROPPED or _inside(q, size, 0.05 * length)]
    lone = 0 if layout in (OVERLAP, HAND, DROPPED) \
        else int(rng.integers(2, 6)) if layout == "apart" else int(rng.integers(0, 3))
    for _ in range(lone * 30 if cards else 0):
        if lone == 0:
            break
        own = length * float(rng.uniform(0.55, 0.9))
        quad = _card_corners(rng.uniform(0, 1, 2) * (w, h), own, float(rng.uniform(0, 6.3)))
        if _inside(quad, size, -2) and not _overlaps(quad, quads):
            quads.append(quad)
            lone -= 1
    names = list(faces)
    chosen = rng.choice(len(names), min(len(quads), len(names)), replace=False)
    laid = [Laid(names[int(i)], q) for i, q in zip(chosen, quads, strict=False)]
    lift = rng.uniform(0, 0.02 * length, 2) * (1 if rng.random() < 0.5 else -1)
    for item in reversed(laid):   # the bottom card first
        soft = rng.uniform(1, 0.04 * length)
        strength = 0.0 if layout == DROPPED else rng.uniform(0.0, 0.5) \
            if layout in (OVERLAP, HAND) else rng.uniform(0.15, 0.5)
        shadow = np.array([*lift, soft, strength])
        face = photographed(faces[item.card], rng) if lamps == "own" else faces[item.card]
        _paste(frame, face, item.corners, shadow)
    frame = _light(frame, rng)
    if lamps == "warm":
        frame = warm_lamp(frame, rng)
    frame = cv2.GaussianBlur(frame, (0, 0), float(rng.uniform(0.4, 1.2)))
    frame = np.clip(frame + rng.normal(0, rng.uniform(1, 5), frame.shape), 0, 255
                    ).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 95))])
    decoded = cv2.imdecode(jpeg, cv2.IMREAD_COLOR) if ok else None
    return (frame if decoded is None else np.asarray(decoded)), laid


def warm_lamp(frame: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The frame under a warm lamp that no white balance corrects (the camera's was locked
    by `calibrate` under another light): blue down to between 0.55 and 0.85 of red, green a
    third as far (`_warm`)."""
    return balanced(frame, _warm(float(rng.uniform(0.55, 0.85))))


def _warm(blue: float) -> np.ndarray:
    """B, G, R gains of a warm lamp: blue at `blue` of red, green down a third as far."""
    return np.array([blue, 1 - (1 - blue) / 3, 1.0], np.float32)


def _light(frame: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Uneven light: a gradient, slow blotches, a warm or cool cast, sometimes a cast shadow."""
    h, w = frame.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, 2 * np.pi)
    ramp = (xx * np.cos(a) + yy * np.sin(a)) / max(w, h)
    gain = rng.uniform(0.75, 1.1) + rng.uniform(-0.3, 0.3) * ramp \
        + rng.uniform(0, 0.2) * (_smooth(rng, (w, h), 3) - 0.5)
    if rng.random() < 0.4:
        points = (rng.uniform(0, 1, (int(rng.integers(3, 7)), 2)) * (w, h)).astype(np.int32)
        shade = np.zeros((h, w), np.float32)
        cv2.fillConvexPoly(shade, cv2.convexHull(points), 1.0)
        blurred = cv2.GaussianBlur(shade, (0, 0), float(rng.uniform(4, 25)))
        gain = gain * (1 - rng.uniform(0.2, 0.45) * blurred)
    cast = 1 + rng.uniform(-0.08, 0.08, 3)
    out = frame.astype(np.float32) * gain[:, :, None] * cast[None, None, :]
    return np.clip(out, 0, 255).astype(np.uint8)


def index_centres(laid: list[Laid]) -> list[list[tuple[float, float]]]:
    """Per card, the centres of its two corner indices that no card over it hides."""
    out = []
    for i, item in enumerate(laid):
        c = item.corners
        across, down = c[1] - c[0], c[3] - c[0]
        both = [c[0] + 0.09 * across + 0.13 * down, c[2] - 0.09 * across - 0.13 * down]
        shown = [p for p in both if not any(holds(o.corners, p) for o in laid[:i])]
        out.append([(float(p[0]), float(p[1])) for p in shown])
    return out
