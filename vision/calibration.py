"""Calibration: where the mat is in the camera's view. The mat's ArUco markers give a
homography from camera pixels to mat millimetres; it is saved as JSON, and each later frame can
be checked against it to notice a bumped camera or a shifted mat."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .aruco import detect_markers
from .mat import MatLayout, mat_layout

MIN_MARKERS = 3
SEARCH_MARGIN = 60   # px around a marker's calibrated place where it is looked for again


class CalibrationError(Exception):
    """The markers cannot be seen well enough, or a calibration file is unreadable."""


@dataclass(frozen=True)
class Calibration:
    """Camera pixels <-> mat millimetres for one camera position."""

    seats: int
    frame_size: tuple[int, int]
    to_mat: np.ndarray                 # 3x3 homography, pixels -> mm
    markers: dict[int, np.ndarray]     # marker id -> its 4x2 pixel corners when calibrated

    @property
    def layout(self) -> MatLayout:
        return mat_layout(self.seats)

    def mat_points(self, pixels: np.ndarray) -> np.ndarray:
        """Pixel points (N x 2) to mat millimetres."""
        pts = np.asarray(pixels, np.float32).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.to_mat).reshape(-1, 2)

    def frame_points(self, mm: np.ndarray) -> np.ndarray:
        """Mat millimetres (N x 2) to pixels."""
        pts = np.asarray(mm, np.float32).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, np.linalg.inv(self.to_mat)).reshape(-1, 2)

    @property
    def px_per_mm(self) -> float:
        """Pixels per millimetre at the middle of the mat."""
        lay = self.layout
        c = np.array([[lay.width / 2, lay.height / 2], [lay.width / 2 + 10, lay.height / 2]])
        p = self.frame_points(c)
        return float(np.linalg.norm(p[1] - p[0]) / 10)

    def to_json(self) -> dict[str, object]:
        return {"seats": self.seats, "frame_size": list(self.frame_size),
                "to_mat": self.to_mat.tolist(),
                "markers": {str(k): v.tolist() for k, v in self.markers.items()}}

    def save(self, path: str | Path) -> None:
        """Write as JSON, atomically: a table switched off meanwhile keeps the old file."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(self.to_json(), indent=1))
        tmp.replace(path)

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        try:
            data = json.loads(Path(path).read_text())
            return cls(int(data["seats"]), (int(data["frame_size"][0]), int(data["frame_size"][1])),
                       np.array(data["to_mat"], np.float64),
                       {int(k): np.array(v, np.float32) for k, v in data["markers"].items()})
        except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
            raise CalibrationError(f"cannot read calibration {path}: {exc}; "
                                   "run `pinochle-table calibrate` again") from None


def calibrate(frame: np.ndarray, layout: MatLayout) -> Calibration:
    """Find the mat's markers in a frame and fit pixels -> mm; raises CalibrationError saying
    which markers were not seen."""
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    found = detect_markers(gray)
    expected = {m.id: m for m in layout.markers}
    seen = {i: c for i, c in found.items() if i in expected}
    if len(seen) < MIN_MARKERS:
        missing = sorted(set(expected) - set(seen))
        raise CalibrationError(
            f"saw {len(seen)} of the mat's {len(expected)} markers (missing {missing}); make "
            "sure the whole mat is in view, evenly lit, and nothing covers its corners")
    src = np.concatenate([seen[i] for i in sorted(seen)])
    dst = np.concatenate([expected[i].corners() for i in sorted(seen)])
    homography, _ = cv2.findHomography(src, dst, 0)
    if homography is None:
        raise CalibrationError("the markers do not fit a flat mat; is the mat lying flat?")
    h, w = frame.shape[:2]
    return Calibration(layout.seats, (w, h), homography, seen)


def marker_offset(frame: np.ndarray, calibration: Calibration) -> tuple[float, int] | None:
    """How far (mm, median over markers) the markers now sit from where the calibration
    expects them, and how many were seen; None when no marker can be seen."""
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    h, w = gray.shape[:2]
    expected = {m.id: m.corners() for m in calibration.layout.markers}
    seen: dict[int, np.ndarray] = {}
    for mid, corners in calibration.markers.items():
        x0, y0 = (corners.min(axis=0) - SEARCH_MARGIN).astype(int)
        x1, y1 = (corners.max(axis=0) + SEARCH_MARGIN).astype(int)
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
        if x1 - x0 < 20 or y1 - y0 < 20:
            continue
        for fid, c in detect_markers(gray[y0:y1, x0:x1]).items():
            if fid == mid:
                seen[mid] = c + np.array([x0, y0], np.float32)
    if not seen:  # moved far, or all covered: look everywhere
        seen = {i: c for i, c in detect_markers(gray).items() if i in expected}
    if not seen:
        return None
    offsets = [float(np.linalg.norm(calibration.mat_points(c) - expected[i], axis=1).mean())
               for i, c in seen.items()]
    return float(np.median(offsets)), len(seen)
