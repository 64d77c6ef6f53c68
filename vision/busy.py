"""Rendered scenes of cards on busy backgrounds (noise, stripes, wood grain, blotches), some
fanned over each other: the tuning set of the edge-based finder (vision.edges) and its tests.
`busy_scene(faces, rng) -> (frame, laid)`, each laid card with its corners, front to back."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from table.rules import Card

TEXTURES = ("noise", "stripes", "wood", "blotches")


@dataclass(frozen=True)
class Laid:
    """A card in a busy scene: its corners (4x2, clockwise from a short side) in the frame."""

    card: Card
    corners: np.ndarray


def busy_texture(kind: str, rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A busy background (BGR, `size` = width, height) of one of TEXTURES."""
    w, h = size
    base = rng.uniform(20, 235, 3)
    other = rng.uniform(20, 235, 3)
    if kind == "noise":
        low = rng.uniform(0, 1, (max(2, h // 16), max(2, w // 16))).astype(np.float32)
        t = cv2.resize(low, (w, h), interpolation=cv2.INTER_CUBIC)
        t = np.clip(t + rng.normal(0, 0.25, (h, w)).astype(np.float32), 0, 1)
    elif kind == "stripes":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        angle, period = rng.uniform(0, np.pi), rng.uniform(6, 40)
        t = 0.5 + 0.5 * np.sin((xx * np.cos(angle) + yy * np.sin(angle)) * 2 * np.pi / period)
        t = (t > 0.5).astype(np.float32) if rng.random() < 0.5 else t
    elif kind == "wood":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        warp = cv2.resize(rng.normal(0, 1, (6, 6)).astype(np.float32), (w, h),
                          interpolation=cv2.INTER_CUBIC)
        t = 0.5 + 0.5 * np.sin(yy / rng.uniform(4, 12) + 3 * warp + 0.02 * xx)
    else:
        t = np.zeros((h, w), np.float32)
        for _ in range(int(rng.integers(20, 60))):
            centre = (int(rng.integers(0, w)), int(rng.integers(0, h)))
            axes = (int(rng.integers(5, w // 6)), int(rng.integers(5, h // 6)))
            cv2.ellipse(t, centre, axes, float(rng.uniform(0, 180)), 0, 360,
                        float(rng.uniform(0, 1)), -1)
    image = base[None, None, :] * (1 - t[:, :, None]) + other[None, None, :] * t[:, :, None]
    image += rng.normal(0, 6, image.shape)
    return np.clip(image, 0, 255).astype(np.uint8)


def _paste(frame: np.ndarray, face: np.ndarray, corners: np.ndarray) -> None:
    fh, fw = face.shape[:2]
    src = np.array([[0, 0], [fw - 1, 0], [fw - 1, fh - 1], [0, fh - 1]], np.float32)
    m = cv2.getPerspectiveTransform(src, corners.astype(np.float32))
    size = (frame.shape[1], frame.shape[0])
    warped = cv2.warpPerspective(face[:, :, :3], m, size, flags=cv2.INTER_AREA)
    cover = cv2.warpPerspective(np.full((fh, fw), 255, np.uint8), m, size)
    alpha = cover.astype(np.float32)[:, :, None] / 255
    frame[:] = (frame * (1 - alpha) + warped * alpha).astype(np.uint8)


def _card_corners(centre: np.ndarray, length: float, angle: float) -> np.ndarray:
    width = length * 63 / 88
    c, s = np.cos(angle), np.sin(angle)
    along, across = np.array([c, s]), np.array([-s, c])
    half = [(-width / 2, -length / 2), (width / 2, -length / 2),
            (width / 2, length / 2), (-width / 2, length / 2)]
    return np.array([centre + x * along + y * across for x, y in half], np.float32)


def busy_scene(faces: dict[Card, np.ndarray], rng: np.random.Generator,
               size: tuple[int, int] = (720, 720), kind: str | None = None,
               fan: bool | None = None, spread: tuple[float, float] = (0.12, 0.25)
               ) -> tuple[np.ndarray, list[Laid]]:
    """Two or three cards on a busy texture at a random size and angle, either apart or fanned
    over each other (each turned and shifted from the one under it by `spread` of a card's
    length, so that only a strip of it and its corners show). Returns the frame and the cards,
    the top one first."""
    w, h = size
    frame = busy_texture(kind or TEXTURES[int(rng.integers(len(TEXTURES)))], rng, size)
    cards = [list(faces)[int(i)] for i in rng.choice(len(faces), 3, replace=False)]
    count = int(rng.integers(2, 4))
    length = float(rng.uniform(0.25, 0.42) * min(w, h))
    fan = bool(rng.random() < 0.5) if fan is None else fan
    laid: list[Laid] = []
    if fan:
        centre = np.array([w / 2, h / 2]) + rng.uniform(-0.1, 0.1, 2) * min(w, h)
        angle = float(rng.uniform(0, 2 * np.pi))
        turn = float(rng.uniform(0.08, 0.25)) * (1 if rng.random() < 0.5 else -1)
        step = float(rng.uniform(*spread)) * length
        for i in range(count):
            a = angle + i * turn
            shift = i * step * np.array([np.cos(a), np.sin(a)])
            laid.append(Laid(cards[i], _card_corners(centre + shift, length, a)))
    else:
        spots = [np.array([w * x, h * y]) for x, y in ((0.27, 0.3), (0.73, 0.35), (0.5, 0.75))]
        for i in range(count):
            centre = spots[i] + rng.uniform(-0.04, 0.04, 2) * min(w, h)
            laid.append(Laid(cards[i], _card_corners(centre, 0.75 * length,
                                                     float(rng.uniform(0, 2 * np.pi)))))
    for item in reversed(laid):   # the bottom card first
        _paste(frame, faces[item.card], item.corners)
    frame = cv2.GaussianBlur(frame, (3, 3), 0.7)
    return frame, laid


def index_centres(laid: list[Laid]) -> list[list[tuple[float, float]]]:
    """Per card, the centres of its two corner indices that no card over it hides."""
    out = []
    for i, item in enumerate(laid):
        c = item.corners
        across, down = c[1] - c[0], c[3] - c[0]
        both = [c[0] + 0.09 * across + 0.13 * down, c[2] - 0.09 * across - 0.13 * down]
        shown = [p for p in both if not any(
            cv2.pointPolygonTest(o.corners.reshape(-1, 1, 2), (float(p[0]), float(p[1])),
                                 False) >= 0 for o in laid[:i])]
        out.append([(float(p[0]), float(p[1])) for p in shown])
    return out
