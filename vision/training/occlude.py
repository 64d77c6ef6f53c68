"""Something laid over a face's index corner, as at a real table: a thumb, a blot, another card
lying across it (a printed face of a training deck, with its own pips, index or picture, and a
shadow along its edge; plain paper when no faces are given). Whatever it hides of an index must
not be guessed: a corner whose rank (or pip) is mostly hidden is taught as "cannot tell" for it
(UNKNOWN: every rank, or every suit, equally likely), so that the other corner decides, and a
card with both pips smudged is abstained on rather than read as the likelier suit.

Where the rank and the pip are is known only for drawn faces (Face.index_ink); over a printed
deck's face only what hides (almost) none of the ink near its corners is laid. `cover_corner`
hides one corner of any face outright, for calibration and the bench (their truth is the card);
`index_over_corner` lays another card's index corner over it.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.faces import FACE_HEIGHT, FACE_WIDTH

from .face import PIP_INK, RANK_INK, Face

UNKNOWN = -1             # a label: this corner cannot tell (a uniform target)
HIDDEN = 0.2             # hiding this share of a rank's or pip's ink makes it unknown
KEEP_CLEAR = 0.02        # over a printed face, at most this share of the corner's ink hidden
CORNER_W, CORNER_H = 22 * 4, 46 * 4   # a corner at the face's 4 px/mm, a little over the window
INDEX_W, INDEX_H = 12 * 4, 30 * 4     # where any deck's index lies (jumbo ones too), 4 px/mm
OTHER_INDEX = np.array([7 * 4, 14 * 4])   # about the middle of a face's top-left index, 4 px/mm

Cover = tuple[np.ndarray, np.ndarray, np.ndarray]   # opacity, colours (BGR), what it hides


def _cover(rng: np.random.Generator, faces: Sequence[np.ndarray] = (),
           kinds: Sequence[int] = (0, 1, 2, 2)) -> Cover:
    """An occluder at face size over the top-left corner mostly (the caller turns it for the
    other): its opacity (0-1, a shadow included), its colours (BGR) and where it hides what
    lies under it (a boolean mask). Kinds: 0 a blot, 1 a thumb, 2 another card lying across
    (one of `faces`, BGRA at face size, or plain paper when there are none)."""
    alpha = np.zeros((FACE_HEIGHT, FACE_WIDTH), np.float32)
    colour = np.zeros((FACE_HEIGHT, FACE_WIDTH, 3), np.float32)
    kind = kinds[int(rng.integers(len(kinds)))]
    cx, cy = float(rng.uniform(0, CORNER_W)), float(rng.uniform(0, CORNER_H))
    if kind == 0:      # a blot: ink, coffee, dirt, a sticker
        axes = (int(rng.uniform(8, 40)), int(rng.uniform(8, 40)))
        cv2.ellipse(alpha, (int(cx), int(cy)), axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        colour[:] = rng.uniform(20, 200, 3)
        strength = float(rng.uniform(0.7, 1.0))
    elif kind == 1:    # a thumb or finger coming in over the edge
        side = rng.integers(2)
        centre = (int(rng.uniform(-30, 10)), int(cy)) if side == 0 else (int(cx),
                                                                          int(rng.uniform(-30, 10)))
        axes = (int(rng.uniform(35, 60)), int(rng.uniform(45, 80)))
        cv2.ellipse(alpha, centre, axes, float(rng.uniform(-40, 40)), 0, 360, 1.0, -1)
        skin = np.array([rng.uniform(60, 170), rng.uniform(90, 190), rng.uniform(140, 240)])
        shade = np.linspace(0.75, 1.1, FACE_WIDTH, dtype=np.float32)[None, :, None]
        colour[:] = skin * shade
        strength = 1.0
    elif faces:        # another card lying across, its printed face up
        return _card_across(faces[int(rng.integers(len(faces)))], cx, cy, rng)
    else:              # another card lying across: paper with a shadow along its edge
        angle = float(rng.uniform(0, 2 * np.pi))
        nx, ny = np.cos(angle), np.sin(angle)
        ys, xs = np.mgrid[0:FACE_HEIGHT, 0:FACE_WIDTH].astype(np.float32)
        side = (xs - cx) * nx + (ys - cy) * ny
        alpha[side > 0] = 1.0
        colour[:] = rng.uniform(200, 250)
        edge = np.abs(side) < float(rng.uniform(1, 4))
        colour[edge] = rng.uniform(40, 120)
        strength = 1.0
    alpha = cv2.GaussianBlur(alpha, (0, 0), float(rng.uniform(0.5, 2.5))) * strength
    return alpha, colour, alpha > 0.5


def _card_across(other: np.ndarray, cx: float, cy: float, rng: np.random.Generator) -> Cover:
    """A printed face (BGRA, face size) lying across the face at a random angle, one of its
    edges through (cx, cy), casting a soft shadow beyond that edge."""
    h, w = other.shape[:2]
    angle = float(rng.uniform(0, 2 * np.pi))
    normal = np.array([np.cos(angle), np.sin(angle)])          # into the covering card
    # A point on one of its edges and that edge's inward normal, in the covering card's pixels.
    t = float(rng.uniform(0.05, 0.95))
    point, inward = [((t * w, 0.0), (0.0, 1.0)), ((t * w, h), (0.0, -1.0)),
                     ((0.0, t * h), (1.0, 0.0)), ((w, t * h), (-1.0, 0.0))][int(rng.integers(4))]
    turn = np.arctan2(normal[1], normal[0]) - np.arctan2(inward[1], inward[0])
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    m = np.hstack([rot, (np.array([cx, cy]) - rot @ np.array(point))[:, None]])
    return _laid_card(other, m, rng)


def _laid_card(other: np.ndarray, m: np.ndarray, rng: np.random.Generator) -> Cover:
    """A printed face (BGRA, face size) laid over the face by the affine `m` (its pixels to
    the face's), with a darker rim and a soft shadow beyond its edges."""
    laid = cv2.warpAffine(other, m, (FACE_WIDTH, FACE_HEIGHT), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    card = laid[:, :, 3].astype(np.float32) / 255.0
    colour = laid[:, :, :3].astype(np.float32) * np.float32(rng.uniform(0.8, 1.1))
    # Its edge, a little darker (the card's thickness, a worn rim).
    solid = (card > 0.5).astype(np.uint8)
    rim = cv2.dilate(solid, np.ones((3, 3), np.uint8)) \
        - cv2.erode(solid, np.ones((3, 3), np.uint8), iterations=int(rng.integers(1, 3)))
    colour[rim > 0] *= np.float32(rng.uniform(0.5, 0.9))
    # Its shadow on the face under it: the card's shape moved away from the lamp, blurred.
    away = rng.uniform(1, 6, 2) * rng.choice([-1, 1], 2)
    shadow = cv2.warpAffine(card, np.array([[1, 0, away[0]], [0, 1, away[1]]], np.float32),
                            (FACE_WIDTH, FACE_HEIGHT))
    shadow = cv2.GaussianBlur(shadow, (0, 0), float(rng.uniform(1, 4))) \
        * float(rng.uniform(0.15, 0.45)) * (1 - card)
    alpha = card + shadow
    colour *= (card / np.maximum(alpha, 1e-6))[:, :, None]   # a shadow is black, weighted in
    return alpha, colour, card > 0.5


def occlude(face: Face, rng: np.random.Generator, tries: int = 6,
            faces: Sequence[np.ndarray] = ()) -> tuple[np.ndarray, list[tuple[int, int]]] | None:
    """The face with something over one or both index corners (another card lying across is
    one of `faces` when given), and (rank, suit) labels for the top-left and bottom-right
    corners (UNKNOWN where hidden); None when nothing fitting was found (a printed face whose
    corner ink every try would hide)."""
    covers = []
    corners = [0, 1, (0, 1)][int(rng.integers(3))]
    for turn in (corners if isinstance(corners, tuple) else (corners,)):
        for _ in range(tries):
            cover = _turned(_cover(rng, faces), turn)
            if face.index_ink is not None or _hidden_share(face, cover[2]) <= KEEP_CLEAR:
                break
        else:
            return None
        covers.append(cover)
    image, hidden = _lay(face.image, covers)
    labels = []
    for turn in (0, 1):
        rank, suit = face.rank, face.suit
        if face.index_ink is not None:
            half = slice(0, FACE_HEIGHT // 2) if turn == 0 else slice(FACE_HEIGHT // 2, None)
            ink, over = face.index_ink[half], hidden[half]
            for kind in (RANK_INK, PIP_INK):
                mine = ink == kind
                if mine.any() and over[mine].mean() >= HIDDEN:
                    rank, suit = (UNKNOWN, suit) if kind == RANK_INK else (rank, UNKNOWN)
        labels.append((rank, suit))
    return image, labels


def cover_corner(image: np.ndarray, rng: np.random.Generator, faces: Sequence[np.ndarray] = (),
                 least: float = 0.75, tries: int = 50) -> np.ndarray:
    """A face (BGRA, face size) with one index corner covered by a thumb or another card (one
    of `faces`), as in a trick or a meld row: at least `least` of that corner's index area
    hidden, none of the other's. The face unchanged if no try fits."""
    turn = int(rng.integers(2))
    for _ in range(tries):
        cover = _cover(rng, faces, kinds=(1, 2, 2))   # over the top-left corner
        if _hides_one_corner(cover, least):
            return _lay(image, [_turned(cover, turn)])[0]
    return image


def index_over_corner(image: np.ndarray, rng: np.random.Generator, faces: Sequence[np.ndarray],
                      least: float = 0.3, tries: int = 50) -> np.ndarray:
    """A face (BGRA, face size) with another card (one of `faces`) lying over one index corner
    at any turn, its own index corner in that corner's window (a card on a trick pile, the
    corner of a card under another in a meld row or a fan): at least `least` of the face's
    index area hidden, none of the other corner's. The face unchanged if no try fits."""
    turn = int(rng.integers(2))
    for _ in range(tries):
        other = faces[int(rng.integers(len(faces)))]
        angle = float(rng.uniform(0, 2 * np.pi))
        rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        corner = rng.uniform(0, 1, 2) * (CORNER_W, CORNER_H)
        index = rot @ OTHER_INDEX + corner
        if not (0 <= index[0] < CORNER_W and 0 <= index[1] < CORNER_H):
            continue   # its index would lie outside the covered corner's window
        cover = _laid_card(other, np.hstack([rot, corner[:, None]]), rng)
        if _hides_one_corner(cover, least):
            return _lay(image, [_turned(cover, turn)])[0]
    return image


def _hides_one_corner(cover: Cover, least: float) -> bool:
    """Whether a cover of the top-left corner hides at least `least` of its index area and
    nothing of the bottom-right corner."""
    hides = cover[2]
    return bool(hides[:INDEX_H, :INDEX_W].mean() >= least
                and not hides[::-1, ::-1][:CORNER_H, :CORNER_W].any())


def _turned(cover: Cover, turn: int) -> Cover:
    """A cover of the top-left corner, or (turn 1) of the bottom-right one."""
    if not turn:
        return cover
    alpha, colour, hides = cover
    return alpha[::-1, ::-1], colour[::-1, ::-1], hides[::-1, ::-1]


def _lay(image: np.ndarray, covers: list[Cover]) -> tuple[np.ndarray, np.ndarray]:
    """A BGRA face with the covers laid over it, in turn, and where they hide it (a cover
    hides the cloth showing past the face's rounded corners too)."""
    out = image.copy()
    under = out[:, :, :3].astype(np.float32)
    hidden = np.zeros(image.shape[:2], bool)
    for alpha, colour, hides in covers:
        a3 = alpha[:, :, None]
        under = under * (1 - a3) + colour * a3
        hidden |= hides
    out[:, :, :3] = np.clip(under, 0, 255).astype(np.uint8)
    out[:, :, 3] = np.maximum(out[:, :, 3], hidden.astype(np.uint8) * 255)
    return out, hidden


def _hidden_share(face: Face, hides: np.ndarray) -> float:
    """How much of the dark or coloured ink near both corners of a printed face `hides` hides."""
    share = 0.0
    for turn in (0, 1):
        img = face.image[:CORNER_H, :CORNER_W, :3] if turn == 0 else \
            face.image[::-1, ::-1][:CORNER_H, :CORNER_W, :3]
        over = hides[:CORNER_H, :CORNER_W] if turn == 0 else \
            hides[::-1, ::-1][:CORNER_H, :CORNER_W]
        grey = img.mean(axis=2)
        ink = (grey < np.percentile(grey, 90) - 60) | (np.ptp(img.astype(np.int16), axis=2) > 80)
        if ink.any():
            share = max(share, float(over[ink].mean()))
    return share
