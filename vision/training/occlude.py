"""Something laid over a face's index corner, as at a real table: a thumb, a blot, another card
lying across it. Whatever it hides of an index must not be guessed: a corner whose rank (or
pip) is mostly hidden is taught as "cannot tell" for it (UNKNOWN: every rank, or every suit,
equally likely), so that the other corner decides, and a card with both pips smudged is
abstained on rather than read as the likelier suit.

Where the rank and the pip are is known only for drawn faces (Face.index_ink); over a printed
deck's face only what hides (almost) none of the ink near its corners is laid.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.faces import FACE_HEIGHT, FACE_WIDTH

from .face import PIP_INK, RANK_INK, Face

UNKNOWN = -1             # a label: this corner cannot tell (a uniform target)
HIDDEN = 0.2             # hiding this share of a rank's or pip's ink makes it unknown
KEEP_CLEAR = 0.02        # over a printed face, at most this share of the corner's ink hidden
CORNER_W, CORNER_H = 22 * 4, 46 * 4   # a corner at the face's 4 px/mm, a little over the window


def _cover(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """An occluder at face size: its opacity (0-1) and its colours (BGR), over the top-left
    corner mostly (the caller turns it for the other)."""
    alpha = np.zeros((FACE_HEIGHT, FACE_WIDTH), np.float32)
    colour = np.zeros((FACE_HEIGHT, FACE_WIDTH, 3), np.float32)
    kind = rng.integers(3)
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
    return alpha, colour


def occlude(face: Face, rng: np.random.Generator, tries: int = 6
            ) -> tuple[np.ndarray, list[tuple[int, int]]] | None:
    """The face with something over one or both index corners, and (rank, suit) labels for
    the top-left and bottom-right corners (UNKNOWN where hidden); None when nothing fitting
    was found (a printed face whose corner ink every try would hide)."""
    alpha = np.zeros((FACE_HEIGHT, FACE_WIDTH), np.float32)
    colour = np.zeros((FACE_HEIGHT, FACE_WIDTH, 3), np.float32)
    corners = [0, 1, (0, 1)][int(rng.integers(3))]
    for turn in (corners if isinstance(corners, tuple) else (corners,)):
        for _ in range(tries):
            a, c = _cover(rng)
            if turn:
                a, c = a[::-1, ::-1], c[::-1, ::-1]
            if face.index_ink is not None or _hidden_share(face, a) <= KEEP_CLEAR:
                break
        else:
            return None
        colour = colour * (1 - a[:, :, None]) + c * a[:, :, None]
        alpha = np.maximum(alpha, a)
    image = face.image.copy()
    a3 = alpha[:, :, None]
    image[:, :, :3] = np.clip(image[:, :, :3] * (1 - a3) + colour * a3, 0, 255).astype(np.uint8)
    labels = []
    for turn in (0, 1):
        rank, suit = face.rank, face.suit
        if face.index_ink is not None:
            half = slice(0, FACE_HEIGHT // 2) if turn == 0 else slice(FACE_HEIGHT // 2, None)
            ink, over = face.index_ink[half], alpha[half] > 0.5
            for kind in (RANK_INK, PIP_INK):
                mine = ink == kind
                if mine.any() and over[mine].mean() >= HIDDEN:
                    rank, suit = (UNKNOWN, suit) if kind == RANK_INK else (rank, UNKNOWN)
        labels.append((rank, suit))
    return image, labels


def _hidden_share(face: Face, alpha: np.ndarray) -> float:
    """How much of the dark or coloured ink near both corners of a printed face `alpha` hides."""
    share = 0.0
    for turn in (0, 1):
        img = face.image[:CORNER_H, :CORNER_W, :3] if turn == 0 else \
            face.image[::-1, ::-1][:CORNER_H, :CORNER_W, :3]
        over = alpha[:CORNER_H, :CORNER_W] if turn == 0 else \
            alpha[::-1, ::-1][:CORNER_H, :CORNER_W]
        grey = img.mean(axis=2)
        ink = (grey < np.percentile(grey, 90) - 60) | (np.ptp(img.astype(np.int16), axis=2) > 80)
        if ink.any():
            share = max(share, float((over[ink] > 0.3).mean()))
    return share
