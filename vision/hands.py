"""Hands (and sleeves, cups, anything else) over the mat: whatever is neither the cloth's
colour (give or take a shadow), a zone line, nor a card's white, in pieces too big to be a
marker."""

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


def hand_mask(small: np.ndarray, hsv: np.ndarray, cloth: np.ndarray, cards: np.ndarray,
              region: np.ndarray, min_area_px: float) -> np.ndarray:
    """255 where a hand or other object lies over the mat. `small` is the frame at work scale,
    `hsv` the same in HSV, `cloth` its `detect.cloth_colour`, `cards` its `card_mask`, `region`
    its `mat_region`. Unlike the cloth: a colour channel further from the cloth's than a
    shadow takes it (UNLIKE_SHARE of its brightest channel, plus UNLIKE_BY), or a saturation
    that differs by more than UNLIKE_SATURATION (a dark hand on a grey cloth)."""
    apart = cv2.absdiff(small, cloth)
    b, g, r = cv2.split(apart)
    furthest = cv2.max(cv2.max(b, g), r)
    cb, cg, cr = cv2.split(cloth)
    allowed = cv2.convertScaleAbs(cv2.max(cv2.max(cb, cg), cr), alpha=UNLIKE_SHARE,
                                  beta=UNLIKE_BY)
    cloth_hsv = cv2.cvtColor(cloth, cv2.COLOR_BGR2HSV)
    other = cv2.bitwise_or(cv2.compare(furthest, allowed, cv2.CMP_GT),
                           cv2.threshold(cv2.absdiff(hsv[:, :, 1], cloth_hsv[:, :, 1]),
                                         UNLIKE_SATURATION, 255, cv2.THRESH_BINARY)[1])
    other = cv2.bitwise_and(cv2.bitwise_and(other, cv2.bitwise_not(cards)), region)
    other = cv2.morphologyEx(other, cv2.MORPH_OPEN, _KERNEL5)
    contours, _ = cv2.findContours(other, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(other)
    big = [c for c in contours if cv2.contourArea(c) >= min_area_px]
    if big:
        cv2.drawContours(out, big, -1, 255, -1)
    return out


# Tuned on rendered scenes of seven cloths with hands (vision/simulator.py), as detect.py's.
UNLIKE_SHARE, UNLIKE_BY = 0.4, 25.0
UNLIKE_SATURATION = 70
_KERNEL5 = np.ones((5, 5), np.uint8)
