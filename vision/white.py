"""White balance and brightness on the mat's own white: the margins printed round its markers
are plain paper, so their colour in a frame is the lamp's. `calibrate` locks the camera's
exposure and white balance for the lamp it is calibrated under; under a warmer lamp switched on
later every card is tinted, and under a much dimmer one every card is grey, and the card finder,
which knows a card's white by its lack of colour and its lightness, loses them all (on the
rendered mat: a lamp whose blue is down to 0.7, or all its light to 0.35, left the tracker no
card at all).

    zones = quiet_zones(calibration, scale)        # once per calibration
    white = margin_white(small, zones)             # each frame
    gains = white_gains(white)                     # None when nothing to correct
    small = balanced(small, gains) if gains is not None else small
    light_fault(white)                             # "dark", "tinted": past correcting
"""

from __future__ import annotations

from typing import Literal

import cv2
import numpy as np

from .calibration import Calibration
from .mat import QUIET_MM

RING_MM = (2.5, QUIET_MM - 2.0)   # the band of each white margin sampled, in mm out from the
#                                   marker's black square: clear of the blur of both its edges
MIN_WHITE = 40        # margins whose darkest channel is below this tell no lamp's colour
#                       (the lamp off)
AGREE = 0.8           # margins darker than this share of the brightest one are covered
MIN_PIXELS = 40       # pixels of margin, at least, to judge one by
MAX_TINT = 2.5        # a colour correction stronger than this is no lamp's: left uncorrected
BRIGHT = 160          # margins less bright than this are brightened to it (a card's white
#                       then stays above the finder's floor, detect.MIN_WHITE) ...
MAX_BRIGHTEN = 3.0    # ... by this many times, at most
STILL = 1.03          # a correction this near none changes nothing

LightFault = Literal["dark", "tinted"]


def quiet_zones(calibration: Calibration, scale: float = 1.0) -> tuple[np.ndarray, ...]:
    """Where each marker's white margin lies in a frame scaled by `scale`, as one index per
    marker (rows, columns), for `margin_white` to read each margin by itself."""
    w, h = (round(v * scale) for v in calibration.frame_size)
    rings = []
    for marker in calibration.layout.markers:
        mask = np.zeros((h, w), np.uint8)
        for reach, fill in ((RING_MM[1], 255), (RING_MM[0], 0)):
            mm = np.array([[marker.x - reach, marker.y - reach],
                           [marker.x + marker.size + reach, marker.y - reach],
                           [marker.x + marker.size + reach, marker.y + marker.size + reach],
                           [marker.x - reach, marker.y + marker.size + reach]], np.float32)
            px = (calibration.frame_points(mm) + 0.5) * scale - 0.5
            cv2.fillConvexPoly(mask, np.round(px).astype(np.int32), fill)
        rows, cols = np.nonzero(mask)
        rings.append(np.stack([rows, cols]))
    return tuple(rings)


def margin_white(image: np.ndarray, zones: tuple[np.ndarray, ...]) -> np.ndarray | None:
    """The colour (B, G, R) of the mat's white margins in a BGR `image` (from `quiet_zones`):
    the median of those showing paper, a margin much darker than the brightest being covered;
    None when no margin is in the frame."""
    h, w = image.shape[:2]
    whites = []
    for rows, cols in zones:
        inside = (rows < h) & (cols < w)    # (a frame smaller than the calibration's)
        pixels = image[rows[inside], cols[inside]]
        if len(pixels) >= MIN_PIXELS:
            whites.append(np.median(pixels, axis=0).astype(np.float32))
    if not whites:
        return None
    least = np.array([float(w.min()) for w in whites])
    kept = [w for w, m in zip(whites, least, strict=True) if m >= AGREE * least.max()]
    return np.median(np.stack(kept), axis=0).astype(np.float32)


def light_fault(white: np.ndarray) -> LightFault | None:
    """What is wrong with a lamp that gives the margins this colour, past correcting: "dark"
    (too dim to brighten enough) or "tinted" (a colour no white balance takes out); None when
    `white_gains` puts it right."""
    if float(white.max()) * MAX_BRIGHTEN < BRIGHT or float(white.min()) < MIN_WHITE:
        return "dark"
    if float(white.max()) > MAX_TINT * float(white.min()):
        return "tinted"
    return None


def white_gains(white: np.ndarray) -> np.ndarray | None:
    """Per-channel gains (B, G, R) that make margins of this colour as colourless as paper,
    and at least BRIGHT; None when they need no correcting, or when the lamp is past it
    (`light_fault`)."""
    if light_fault(white) == "tinted" or float(white.min()) < MIN_WHITE:
        return None
    brighter = min(MAX_BRIGHTEN, max(1.0, BRIGHT / float(white.max())))
    gains = float(white.max()) / white * brighter
    return gains if float(gains.max()) >= STILL else None


def balanced(image: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """A BGR image with each channel scaled by its gain (clipped at white)."""
    levels = np.arange(256, dtype=np.float32)
    table = np.stack([np.clip(levels * g, 0, 255) for g in gains], axis=1)
    return cv2.LUT(image, table.astype(np.uint8).reshape(1, 256, 3))
