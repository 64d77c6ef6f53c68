"""Corner indices as numbers: cutting the index corner out of a straightened card, and turning
it into a feature vector that nearest-neighbour matching can compare.

A straightened card is resized to READ_SIZE (portrait, 2 px per mm). The index sits in its
top-left corner and, rotated by half a turn, in its bottom-right one; so both are read the same
way. Features are lighting-proof: each colour channel is divided by the card's own white, the
grey part is centred, and redness (which tells hearts and diamonds from spades and clubs) is
kept as a second channel.
"""

from __future__ import annotations

import cv2
import numpy as np

READ_W, READ_H = 126, 176   # a straightened card, portrait
PATCH_W, PATCH_H = 32, 62   # the index window in its top-left corner
STORE_W, STORE_H = 40, 72   # a little more, so that stored patches can be shifted
FEAT_W, FEAT_H = 16, 31
RED_WEIGHT = 0.8


def to_portrait(card_image: np.ndarray) -> np.ndarray:
    """The card image turned upright-or-upside-down and resized to READ_SIZE."""
    if card_image.ndim != 3 or card_image.shape[2] != 3:
        raise ValueError("a card image is a BGR array (height x width x 3)")
    h, w = card_image.shape[:2]
    if min(h, w) < 20:
        raise ValueError(f"a card image of {w}x{h} pixels is too small to read")
    if w > h:
        card_image = cv2.rotate(card_image, cv2.ROTATE_90_CLOCKWISE)
    return cv2.resize(card_image, (READ_W, READ_H), interpolation=cv2.INTER_AREA)


def corner_windows(card: np.ndarray, width: int = PATCH_W, height: int = PATCH_H) -> np.ndarray:
    """The top-left and (turned half round) bottom-right corners of a READ_SIZE card: 2xHxWx3."""
    turned = cv2.rotate(card, cv2.ROTATE_180)
    return np.stack([card[:height, :width], turned[:height, :width]])


def features(patches: np.ndarray) -> np.ndarray:
    """N x PATCH_H x PATCH_W x 3 BGR patches -> N x D unit vectors."""
    n = patches.shape[0]
    p = patches.astype(np.float32)
    white = np.percentile(p.reshape(n, -1, 3), 90, axis=1).reshape(n, 1, 1, 3)
    p = p / np.maximum(white, 16.0)
    gray = p.mean(axis=3)
    red = np.clip(p[:, :, :, 2] - np.maximum(p[:, :, :, 0], p[:, :, :, 1]), 0.0, 1.0)
    out = np.empty((n, 2 * FEAT_W * FEAT_H), np.float32)
    for i in range(n):
        g = cv2.resize(cv2.GaussianBlur(gray[i], (0, 0), 1.0), (FEAT_W, FEAT_H),
                       interpolation=cv2.INTER_AREA).ravel()
        r = cv2.resize(cv2.GaussianBlur(red[i], (0, 0), 1.0), (FEAT_W, FEAT_H),
                       interpolation=cv2.INTER_AREA).ravel()
        out[i, :g.size] = g - g.mean()
        out[i, g.size:] = RED_WEIGHT * r
    out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-6)
    return out


def jitter(patch: np.ndarray, shifts: tuple[tuple[float, float, float], ...]) -> np.ndarray:
    """Shifted and scaled copies of a STORE_SIZE patch, cut to PATCH_SIZE: the small errors in
    where a real card's outline is found. Each shift is (dx, dy, scale)."""
    out = []
    for dx, dy, scale in shifts:
        m = np.array([[scale, 0.0, dx], [0.0, scale, dy]], np.float32)
        moved = cv2.warpAffine(patch, m, (STORE_W, STORE_H), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
        out.append(moved[:PATCH_H, :PATCH_W])
    return np.stack(out)


JITTERS: tuple[tuple[float, float, float], ...] = (
    (0, 0, 1.0), (2, 0, 1.0), (-2, 0, 1.0), (0, 2, 1.0), (0, -2, 1.0),
    (0, 0, 0.94), (0, 0, 1.06), (1.5, 1.5, 1.0), (-1.5, -1.5, 1.0),
)
