"""Hands (and sleeves, cups, anything else) over the mat: whatever is neither the mat's green,
a zone line, nor a card's white, in pieces too big to be a marker."""

from __future__ import annotations

import cv2
import numpy as np

from .calibration import Calibration

MIN_HAND_MM2 = 3500.0   # a palm is about 100 x 110 mm; a marker's black square is 48 x 48


def mat_region(calibration: Calibration, scale: float, inset_mm: float = 4.0) -> np.ndarray:
    """A mask of the mat (at the work scale), shrunk a little so its edge is never a hand."""
    lay = calibration.layout
    mm = np.array([[inset_mm, inset_mm], [lay.width - inset_mm, inset_mm],
                   [lay.width - inset_mm, lay.height - inset_mm],
                   [inset_mm, lay.height - inset_mm]], np.float32)
    pts = (calibration.frame_points(mm) + 0.5) * scale - 0.5
    w, h = calibration.frame_size
    mask = np.zeros((round(h * scale), round(w * scale)), np.uint8)
    cv2.fillConvexPoly(mask, pts.astype(np.int32), 255)
    return mask


def hand_mask(hsv: np.ndarray, cards: np.ndarray, region: np.ndarray,
              min_area_px: float) -> np.ndarray:
    """255 where a hand or other object lies over the mat. `hsv` is the frame at work scale,
    `cards` its `card_mask`, `region` its `mat_region`."""
    green = cv2.inRange(hsv, (35, 50, 25), (95, 255, 255))
    other = cv2.bitwise_not(cv2.bitwise_or(green, cards))
    other = cv2.bitwise_and(other, region)
    other = cv2.morphologyEx(other, cv2.MORPH_OPEN, _KERNEL5)
    contours, _ = cv2.findContours(other, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(other)
    big = [c for c in contours if cv2.contourArea(c) >= min_area_px]
    if big:
        cv2.drawContours(out, big, -1, 255, -1)
    return out


_KERNEL5 = np.ones((5, 5), np.uint8)
