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
FEAT_W, FEAT_H = 20, 38
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
    p: np.ndarray = patches.astype(np.float32)
    flat = p.reshape(n, -1, 3)
    k = int(0.9 * flat.shape[1])
    white = np.partition(flat, k, axis=1)[:, k].reshape(n, 1, 1, 3)
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


def degrade(patch: np.ndarray, rng: np.random.Generator, count: int) -> np.ndarray:
    """`count` copies of a STORE_SIZE patch as a camera might deliver it, cut to PATCH_SIZE:
    the outline found a few pixels off, slightly scaled and turned, blurred, lower resolution,
    tinted and noisy. The first copy is the patch itself."""
    out = [patch[:PATCH_H, :PATCH_W]]
    for _ in range(count - 1):
        dx, dy = rng.uniform(-3.5, 3.5, 2)
        m = cv2.getRotationMatrix2D((0.0, 0.0), float(rng.uniform(-2, 2)),
                                    float(rng.uniform(0.92, 1.08)))
        m[:, 2] += (dx, dy)
        p = cv2.warpAffine(patch, m, (STORE_W, STORE_H), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REPLICATE)[:PATCH_H, :PATCH_W]
        f = float(rng.uniform(0.6, 1.0))
        small = cv2.resize(p, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        p = cv2.resize(small, (PATCH_W, PATCH_H), interpolation=cv2.INTER_LINEAR)
        p = cv2.GaussianBlur(p, (0, 0), float(rng.uniform(0.3, 1.2)))
        tinted = p.astype(np.float32) * rng.uniform(0.8, 1.1, 3).astype(np.float32)
        tinted += rng.normal(0, rng.uniform(0, 6), tinted.shape).astype(np.float32)
        out.append(np.clip(tinted, 0, 255).astype(np.uint8))
    return np.stack(out)
