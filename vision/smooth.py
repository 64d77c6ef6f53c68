"""A card's paper on a textured ground: `smooth_paper(frame) -> mask`.

On a fine-grained ground (a carpet, a weave, fine stripes, asphalt, a road) the frame's edges
run everywhere, so the regions between them (vision.edges) and its straight segments
(vision.sides) lose a card among them, and a card with no printed border, its white running
into a pale part of the ground, is no region of white of its own either. But paper is smooth:
where the ground is busy at every point, the card is the light, colourless patch where it is
not. The mask is of those pixels (255), the card's print left as holes (its outline's hull is
the card); detect takes outlines from it as from its masks of white, and keeps only those
that look like cards (vision.looks). Figures tuned on rendered busy scenes (vision.busy,
bench/bench_busy.py), never on the real photos.
"""

from __future__ import annotations

import cv2
import numpy as np

SMOOTH = 25.0     # mean gradient (Sobel, grey levels) round a pixel of paper, at most
WINDOW = 7        # px: the square that mean is taken over
BUSY_GROUND = 0.5  # the frame is a textured ground when at least this share of it is not smooth
SATURATION = 90   # paper's HSV saturation at most (as looks.PAPER_SATURATION)
LIGHT = 100       # ... and its HSV value at least
SPECK = 0.0005    # a piece of smooth paper smaller than this share of the frame is ground
JOIN = 0.025      # pieces of paper this share of the frame's short side apart are one card's


def smooth_paper(frame: np.ndarray, hsv: np.ndarray | None = None) -> np.ndarray:
    """Pixels of smooth, light, colourless paper in a BGR frame (255, else 0); all 0 when the
    frame is mostly smooth (a plain cloth or a smooth ground: nothing to tell paper by)."""
    gray = cv2.GaussianBlur(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), (5, 5), 1.0)
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    busy = cv2.blur(cv2.magnitude(gx, gy), (WINDOW, WINDOW))
    smooth = (busy < SMOOTH).astype(np.uint8) * 255
    if cv2.countNonZero(smooth) > (1 - BUSY_GROUND) * smooth.size:
        return np.zeros_like(smooth)
    if hsv is None:
        hsv = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)
    paper = cv2.bitwise_and(smooth, cv2.inRange(hsv, (0, 0, LIGHT), (180, SATURATION, 255)))
    paper = cv2.morphologyEx(paper, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    # specks of smooth ground are no card's paper
    _, labels, stats, _ = cv2.connectedComponentsWithStats(paper, connectivity=8)
    small = np.flatnonzero(stats[:, cv2.CC_STAT_AREA] < SPECK * paper.size)
    paper[np.isin(labels, small[small > 0])] = 0
    # the print breaks the paper into pieces: join them (the busy ground stays out)
    k = max(3, round(JOIN * min(frame.shape[:2])) | 1)
    paper = cv2.morphologyEx(paper, cv2.MORPH_CLOSE,
                             cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    # the window straddling the card's edge left a rim of it busy: give that back
    return cv2.dilate(paper, np.ones((WINDOW // 2 * 2 + 1,) * 2, np.uint8))
