"""A face as the table's camera and outline finder deliver it: laid on a cloth, seen at 1.5 to
4.5 px/mm through a slightly soft lens, under a warm, dim or uneven lamp with glare, noisy and
JPEG-compressed, then straightened from an outline found a few pixels off (so the crop is
shifted, turned, scaled and slightly skewed) to the READ_SIZE portrait card vision.index reads.

`shoot` makes the whole straightened card (what `identify` is given); `shoot_corners` makes only
its two index corners the same way, four times cheaper, for training. Training shoots rougher
(`rough`: down to 1.1 px/mm, softer, harsher JPEG, an outline up to ~3 mm off and skewed, as a
card far from the camera or half under another is found); calibration and the bench shoot as
above, so that their figures stay comparable from one model to the next.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.corners import WINDOW_H, WINDOW_W
from vision.faces import FACE_HEIGHT, FACE_WIDTH
from vision.index import READ_H, READ_W

MARGIN = 24          # pixels of cloth round the face (4 px/mm), where an outline may stray
SCENE_W, SCENE_H = FACE_WIDTH + 2 * MARGIN, FACE_HEIGHT + 2 * MARGIN


@dataclass(frozen=True)
class _Shot:
    """One shot's camera, lamp and outline (scene: the face at 4 px/mm with MARGIN round it)."""

    scale: float                 # camera pixels per scene pixel
    blur: float
    tint: np.ndarray             # B, G, R gains of the lamp
    slope: float                 # brightness change across the card
    angle: float                 # direction of that change
    glare: tuple[float, float, float, float] | None   # centre x, y, radius, strength
    noise: float
    quality: int                 # JPEG
    to_card: np.ndarray          # scene pixels -> READ_SIZE card pixels (3 x 3)
    cloth: np.ndarray            # B, G, R
    grain: float


def _sample(rng: np.random.Generator, rough: bool = False) -> _Shot:
    corners = np.array([[0, 0], [FACE_WIDTH, 0], [FACE_WIDTH, FACE_HEIGHT], [0, FACE_HEIGHT]],
                       np.float32) + MARGIN
    # The outline: the card's corners, each found up to ~1.5 mm off (rough: now and then ~3).
    wide = rough and rng.random() < 0.35
    off = corners + rng.uniform(-4, 4, 2) * (2.5 if wide else 1.0) \
        + rng.normal(0, rng.uniform(0.5, 5.0 if wide else 3.0), (4, 2))
    off += (off - off.mean(axis=0)) * float(rng.uniform(-0.02, 0.02) * (2 if wide else 1))
    target = np.array([[0, 0], [READ_W, 0], [READ_W, READ_H], [0, READ_H]], np.float32)
    glare = (float(rng.uniform(0, SCENE_W)), float(rng.uniform(0, SCENE_H)),
             float(rng.uniform(0.1, 0.5) * SCENE_W), float(rng.uniform(40, 200))) \
        if rng.random() < 0.3 else None
    tint = np.array([rng.uniform(0.55, 1.05), rng.uniform(0.8, 1.05), 1.0], np.float32)
    if rough:   # pixels per mm: as many shots below 2 as above
        px_mm = float(np.exp(rng.uniform(np.log(1.1), np.log(4.5))))
        blur = float(rng.uniform(0.3, 1.8))
        quality = int(rng.integers(20, 96))
    else:
        px_mm, blur, quality = float(rng.uniform(1.5, 4.5)), float(rng.uniform(0.3, 1.3)), \
            int(rng.integers(35, 96))
    return _Shot(scale=px_mm / 4.0, blur=blur,
                 tint=tint * np.float32(rng.uniform(0.3, 1.15)),
                 slope=float(rng.uniform(-0.35, 0.35)), angle=float(rng.uniform(0, 2 * np.pi)),
                 glare=glare, noise=float(rng.uniform(0.5, 7)),
                 quality=quality,
                 to_card=cv2.getPerspectiveTransform(off.astype(np.float32), target),
                 cloth=rng.uniform(10, 240, 3).astype(np.float32),
                 grain=float(rng.uniform(0, 18)))


def _scene(face: np.ndarray, shot: _Shot, x0: int, y0: int, x1: int, y1: int,
           rng: np.random.Generator) -> np.ndarray:
    """The part [y0:y1, x0:x1] of the face lying on the cloth, float32."""
    h, w = y1 - y0, x1 - x0
    grain = rng.normal(0, shot.grain, (h // 4 + 1, w // 4 + 1)).astype(np.float32)
    out = shot.cloth + cv2.resize(grain, (w, h))[:, :, None]
    fx0, fy0 = max(x0, MARGIN), max(y0, MARGIN)
    fx1, fy1 = min(x1, MARGIN + FACE_WIDTH), min(y1, MARGIN + FACE_HEIGHT)
    if fx1 > fx0 and fy1 > fy0:
        part = face[fy0 - MARGIN:fy1 - MARGIN, fx0 - MARGIN:fx1 - MARGIN]
        alpha = part[:, :, 3:4].astype(np.float32) / 255.0
        under = out[fy0 - y0:fy1 - y0, fx0 - x0:fx1 - x0]
        out[fy0 - y0:fy1 - y0, fx0 - x0:fx1 - x0] = part[:, :, :3] * alpha + under * (1 - alpha)
    return out


def _develop(scene: np.ndarray, shot: _Shot, x0: int, y0: int,
             rng: np.random.Generator) -> np.ndarray:
    """A part of the scene (at scene pixel x0, y0) as the camera records it: uint8 at
    `shot.scale`."""
    small = cv2.resize(scene, None, fx=shot.scale, fy=shot.scale, interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), shot.blur)
    h, w = small.shape[:2]
    xs = x0 + (np.arange(w, dtype=np.float32) + 0.5) / shot.scale
    ys = y0 + (np.arange(h, dtype=np.float32) + 0.5) / shot.scale
    ramp = (np.cos(shot.angle) * (xs[None, :] / SCENE_W - 0.5)
            + np.sin(shot.angle) * (ys[:, None] / SCENE_H - 0.5))
    light = (1.0 + shot.slope * ramp)[:, :, None] * shot.tint
    small = small * light
    if shot.glare is not None:
        cx, cy, r, strength = shot.glare
        glare = np.exp(-((xs[None, :] - cx) ** 2 + (ys[:, None] - cy) ** 2) / (2 * r * r))
        small += (strength * glare)[:, :, None]
    small += rng.normal(0, shot.noise, small.shape).astype(np.float32)
    small8 = np.clip(small, 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", small8, [cv2.IMWRITE_JPEG_QUALITY, shot.quality])
    decoded = cv2.imdecode(jpeg, cv2.IMREAD_COLOR) if ok else None
    return np.asarray(decoded, np.uint8) if decoded is not None else small8


def _through(shot: _Shot, x0: int, y0: int, dx: float = 0.0, dy: float = 0.0) -> np.ndarray:
    """Camera pixels of a part starting at scene (x0, y0) -> card pixels, moved by (dx, dy)."""
    from_part = np.array([[1 / shot.scale, 0, x0], [0, 1 / shot.scale, y0], [0, 0, 1]])
    move = np.array([[1, 0, dx], [0, 1, dy], [0, 0, 1]])
    return move @ shot.to_card @ from_part


def shoot(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A BGRA face (vision.faces size) -> a damaged READ_SIZE BGR card, either way up."""
    shot = _sample(rng)
    photo = _develop(_scene(face, shot, 0, 0, SCENE_W, SCENE_H, rng), shot, 0, 0, rng)
    card = cv2.warpPerspective(photo, _through(shot, 0, 0), (READ_W, READ_H),
                               flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return card if rng.random() < 0.5 else cv2.rotate(card, cv2.ROTATE_180)


def shoot_corners(face: np.ndarray, rng: np.random.Generator, rough: bool = False
                  ) -> np.ndarray:
    """The two index corner windows (vision.index.corner_windows at the model's size) of a card
    `shoot` could have made: 2 x WINDOW_H x WINDOW_W x 3, only those parts photographed."""
    shot = _sample(rng, rough)
    back = np.linalg.inv(shot.to_card)
    out = []
    for dx, dy in ((0.0, 0.0), (WINDOW_W - READ_W, WINDOW_H - READ_H)):
        # The window's corners (a little more) in the scene, so only that part is developed.
        window = np.array([[-dx - 4, -dy - 4, 1], [-dx + WINDOW_W + 4, -dy - 4, 1],
                           [-dx - 4, -dy + WINDOW_H + 4, 1],
                           [-dx + WINDOW_W + 4, -dy + WINDOW_H + 4, 1]]).T
        seen = back @ window
        xs, ys = seen[0] / seen[2], seen[1] / seen[2]
        x0, y0 = max(0, int(xs.min()) - 4), max(0, int(ys.min()) - 4)
        x1, y1 = min(SCENE_W, int(xs.max()) + 5), min(SCENE_H, int(ys.max()) + 5)
        photo = _develop(_scene(face, shot, x0, y0, x1, y1, rng), shot, x0, y0, rng)
        part = cv2.warpPerspective(photo, _through(shot, x0, y0, dx, dy), (WINDOW_W, WINDOW_H),
                                   flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        out.append(part if dx == 0 else cv2.rotate(part, cv2.ROTATE_180))
    return np.stack(out)


def blank(rng: np.random.Generator) -> np.ndarray:
    """A READ_SIZE crop with no card index: plain paper, cloth, or blotches."""
    shot = _sample(rng)
    kind = rng.integers(3)
    scene: np.ndarray
    if kind == 0:
        scene = np.full((SCENE_H, SCENE_W, 3), rng.uniform(180, 255), np.float32)
    elif kind == 1:
        scene = _scene(np.zeros((FACE_HEIGHT, FACE_WIDTH, 4), np.uint8), shot, 0, 0,
                       SCENE_W, SCENE_H, rng)
    else:
        scene = rng.uniform(0, 255, (SCENE_H // 16, SCENE_W // 16, 3)).astype(np.float32)
        scene = cv2.resize(scene, (SCENE_W, SCENE_H), interpolation=cv2.INTER_CUBIC)
    photo = _develop(scene, shot, 0, 0, rng)
    return cv2.warpPerspective(photo, _through(shot, 0, 0), (READ_W, READ_H),
                               flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def middle_windows(face: np.ndarray, rng: np.random.Generator, count: int) -> np.ndarray:
    """Windows of the middle of a face (a court picture, pips), clear of its index corners
    (those reach 18 mm across), lightly damaged: count x WINDOW_H x WINDOW_W x 3."""
    card = cv2.resize(face[:, :, :3], (READ_W, READ_H), interpolation=cv2.INTER_AREA)
    clear = 36   # READ_SIZE pixels
    out = []
    for _ in range(count):
        x = int(rng.integers(clear, max(clear, READ_W - WINDOW_W - clear) + 1))
        y = int(rng.integers(0, READ_H - WINDOW_H + 1))
        part = card[y:y + WINDOW_H, x:x + WINDOW_W].astype(np.float32)
        part = part * rng.uniform(0.4, 1.1, 3).astype(np.float32) \
            + rng.normal(0, rng.uniform(0.5, 6), part.shape).astype(np.float32)
        out.append(cv2.GaussianBlur(np.clip(part, 0, 255).astype(np.uint8), (0, 0),
                                    float(rng.uniform(0.3, 1.0))))
    return np.stack(out)
