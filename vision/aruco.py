"""ArUco markers across OpenCV versions: 4.7+ has `cv2.aruco.ArucoDetector`; Debian's 4.6 on
the Pi has the older functional API (`cv2.aruco.detectMarkers`, `Dictionary_get`)."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

_DICT = cv2.aruco.DICT_4X4_50


def _old_api(name: str) -> Any:
    """A function of OpenCV 4.6's aruco module, which newer type stubs do not know."""
    return getattr(cv2.aruco, name)


def _dictionary() -> Any:
    if hasattr(cv2.aruco, "getPredefinedDictionary"):
        return cv2.aruco.getPredefinedDictionary(_DICT)
    return _old_api("Dictionary_get")(_DICT)  # pragma: no cover - OpenCV < 4.7


def _parameters() -> Any:
    if hasattr(cv2.aruco, "DetectorParameters_create"):
        return cv2.aruco.DetectorParameters_create()  # pragma: no cover - OpenCV < 4.7
    return cv2.aruco.DetectorParameters()


_detector: Any = None


def detect_markers(gray: np.ndarray) -> dict[int, np.ndarray]:
    """Marker id -> its 4x2 corner pixels (top-left, top-right, bottom-right, bottom-left)."""
    global _detector
    if hasattr(cv2.aruco, "ArucoDetector"):
        if _detector is None:
            _detector = cv2.aruco.ArucoDetector(_dictionary(), _parameters())
        corners, ids, _ = _detector.detectMarkers(gray)
    else:  # pragma: no cover - OpenCV < 4.7
        corners, ids, _ = _old_api("detectMarkers")(gray, _dictionary(),
                                                     parameters=_parameters())
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2).astype(np.float32) for i, c in zip(ids.ravel(), corners,
                                                                        strict=True)}


def marker_image(marker_id: int, side: int) -> np.ndarray:
    """A marker as a grey image `side` pixels square."""
    if hasattr(cv2.aruco, "generateImageMarker"):
        return cv2.aruco.generateImageMarker(_dictionary(), marker_id, side)
    return _old_api("drawMarker")(_dictionary(), marker_id, side)  # pragma: no cover
