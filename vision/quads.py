"""Card-shaped quadrilaterals: the geometry `detect` (cards by their white) and `edges` (cards
by their edges) share, and the guard that keeps one odd blob from costing a frame."""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Sequence
from typing import TypeVar

import cv2
import numpy as np

log = logging.getLogger("vision.detect")
T = TypeVar("T")

CARD_ASPECT = 63.0 / 88.0
ASPECT_RANGE = (0.58, 0.86)
PAIR_AREA = 1.3   # an outline this much bigger than the other cards may be two cards


_NEXT = np.array([1, 2, 3, 0])


def side_lengths(quad: np.ndarray) -> list[float]:
    """The lengths of the four sides, each from a corner to the next. (Plain floats: numpy
    costs more than it saves on four points.)"""
    pts = quad.reshape(4, 2).tolist()
    return [math.dist(pts[i], pts[(i + 1) % 4]) for i in range(4)]


def holds(quad: np.ndarray, point: np.ndarray | Sequence[float]) -> bool:
    """Whether a point (x, y) lies inside a quad or on its edge."""
    return cv2.pointPolygonTest(quad.reshape(-1, 1, 2).astype(np.float32),
                                (float(point[0]), float(point[1])), False) >= 0


def depth_inside(quad: np.ndarray, point: np.ndarray | Sequence[float]) -> float:
    """How far a point (x, y) lies inside a quad, in px (negative outside)."""
    return float(cv2.pointPolygonTest(quad.reshape(-1, 1, 2).astype(np.float32),
                                      (float(point[0]), float(point[1])), True))


def order_corners(quad: np.ndarray) -> np.ndarray:
    """Clockwise (in image coordinates), starting so that the first side is a short one."""
    pts = quad.reshape(4, 2).tolist()
    cx, cy = sum(p[0] for p in pts) / 4, sum(p[1] for p in pts) / 4
    turn = sorted(range(4), key=lambda i: math.atan2(pts[i][1] - cy, pts[i][0] - cx))
    if math.dist(pts[turn[0]], pts[turn[1]]) > math.dist(pts[turn[1]], pts[turn[2]]):
        turn = turn[1:] + turn[:1]
    return np.array([pts[i] for i in turn], np.float32)


def guarded(step: Callable[..., T], *args: object, default: T) -> T:
    """A geometric step on one blob; where OpenCV or the arithmetic fails on an odd shape
    (a contour that crosses itself, a degenerate hull), that blob is skipped and the debug
    log says why: one odd blob must not cost the frame."""
    try:
        return step(*args)
    except (cv2.error, ValueError, ZeroDivisionError, FloatingPointError) as exc:
        log.debug("skipped a blob: %s failed: %s", step.__name__, exc)
        return default


def on_edges(quad: np.ndarray, edges: np.ndarray, ends: float, count: int) -> np.ndarray:
    """Which of `count` points spread along each side of the quad (leaving `ends` of its
    length bare at each end) lie on `edges`: 4 x count booleans, a point outside the picture
    off them."""
    t = np.linspace(ends, 1 - ends, count, dtype=np.float32)[:, None]
    points = np.concatenate([quad[i] + t * (quad[(i + 1) % 4] - quad[i]) for i in range(4)])
    xs, ys = np.round(points[:, 0]).astype(int), np.round(points[:, 1]).astype(int)
    inside = (xs >= 0) & (ys >= 0) & (xs < edges.shape[1]) & (ys < edges.shape[0])
    hit = np.zeros(len(points), bool)
    hit[inside] = edges[ys[inside], xs[inside]] > 0
    return hit.reshape(4, count)
