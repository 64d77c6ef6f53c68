"""Where frames come from, behind one small interface: the Pi camera (picamera2), any OpenCV
VideoCapture (a USB webcam or a video file), a folder of images, or the simulator.

`open_source("pi" | "usb:0" | "file:game.mp4" | "folder:shots/" | "sim")`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp")


class SourceError(Exception):
    """A camera or file that cannot be opened or read."""


@dataclass(frozen=True)
class Frame:
    """One picture: `image` (BGR, full size, for reading cards), `lores` (small grey, for
    noticing motion; None when the source has no second stream), when it was taken."""

    image: np.ndarray
    at: float
    number: int
    lores: np.ndarray | None = None


class FrameSource(Protocol):
    def read(self) -> Frame | None:
        """The next frame, or None when the source has run out."""

    def close(self) -> None: ...


class PiCameraSource:
    """The Raspberry Pi camera through picamera2: a main stream for reading cards and a small
    lores stream for motion. `fix_exposure()` locks exposure and white balance (after
    calibration) so the lamp, not the camera, decides how cards look."""

    def __init__(self, size: tuple[int, int] = (1920, 1080),
                 clock: Callable[[], float] = time.time) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise SourceError("picamera2 is not installed (apt install python3-picamera2)") \
                from exc
        self._clock = clock
        self._count = 0
        try:
            self._cam: Any = Picamera2()
        except (RuntimeError, IndexError) as exc:
            raise SourceError(f"no Pi camera found: {exc}") from exc
        config = self._cam.create_video_configuration(
            main={"size": size, "format": "RGB888"},   # RGB888 is B, G, R in memory: OpenCV's
            lores={"size": (320, 180), "format": "YUV420"})
        self._cam.configure(config)
        self._cam.start()

    def read(self) -> Frame | None:
        request = self._cam.capture_request()
        try:
            main = request.make_array("main")
            lores = request.make_array("lores")
        finally:
            request.release()
        self._count += 1
        return Frame(main, self._clock(), self._count, lores[:180, :320])

    def fix_exposure(self) -> dict[str, Any]:
        """Lock the current automatic exposure and white balance; returns what was locked."""
        meta = self._cam.capture_metadata()
        controls = {"AeEnable": False, "AwbEnable": False,
                    "ExposureTime": int(meta["ExposureTime"]),
                    "AnalogueGain": float(meta["AnalogueGain"]),
                    "ColourGains": tuple(meta["ColourGains"])}
        self._cam.set_controls(controls)
        return controls

    def close(self) -> None:
        self._cam.stop()
        self._cam.close()


class CaptureSource:
    """An OpenCV VideoCapture: a USB webcam by index, or a video file."""

    def __init__(self, target: int | str, size: tuple[int, int] | None = (1920, 1080),
                 clock: Callable[[], float] = time.time) -> None:
        import cv2

        self._cap = cv2.VideoCapture(target)
        if not self._cap.isOpened():
            raise SourceError(f"cannot open camera or video {target!r}")
        if isinstance(target, int) and size is not None:
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self._clock = clock
        self._count = 0

    def read(self) -> Frame | None:
        ok, image = self._cap.read()
        if not ok:
            return None
        self._count += 1
        return Frame(image, self._clock(), self._count)

    def close(self) -> None:
        self._cap.release()


class FolderSource:
    """The images in a folder, in name order, as if a camera had taken them."""

    def __init__(self, folder: str | Path, clock: Callable[[], float] = time.time) -> None:
        self._paths = sorted(p for p in Path(folder).iterdir()
                             if p.suffix.lower() in IMAGE_SUFFIXES) \
            if Path(folder).is_dir() else []
        if not self._paths:
            raise SourceError(f"no images (.png, .jpg) in {folder}")
        self._clock = clock
        self._count = 0

    def read(self) -> Frame | None:
        import cv2

        if self._count >= len(self._paths):
            return None
        path = self._paths[self._count]
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise SourceError(f"cannot read image {path}")
        self._count += 1
        return Frame(image, self._clock(), self._count)

    def close(self) -> None:
        self._paths = []


class SimSource:
    """Frames rendered from a `MatScene`, which its owner drives (places cards, ...)."""

    def __init__(self, scene: Any, clock: Callable[[], float] = time.time) -> None:
        self.scene = scene
        self._clock = clock
        self._count = 0

    def read(self) -> Frame | None:
        self._count += 1
        return Frame(self.scene.render(), self._clock(), self._count)

    def close(self) -> None:
        pass


def open_source(spec: str, seats: int = 3, seed: int = 0,
                clock: Callable[[], float] = time.time) -> FrameSource:
    """A frame source from its name: pi, usb:N, file:PATH, folder:PATH (or a folder path),
    sim (an empty simulated mat, kdegames' standard deck)."""
    kind, _, arg = spec.partition(":")
    if kind == "pi":
        return PiCameraSource(clock=clock)
    if kind == "usb":
        if not arg.isdigit():
            raise SourceError(f"write the webcam as usb:N (e.g. usb:0), not {spec!r}")
        return CaptureSource(int(arg), clock=clock)
    if kind == "file":
        if not Path(arg).is_file():
            raise SourceError(f"no video file {arg!r}")
        return CaptureSource(arg, None, clock=clock)
    if kind == "folder" or Path(spec).is_dir():
        return FolderSource(arg if kind == "folder" else spec, clock=clock)
    if kind == "sim":
        from .mat import mat_layout
        from .simulator import MatScene

        return SimSource(MatScene.create(mat_layout(seats), arg or "svg-standard", seed),
                         clock=clock)
    raise SourceError(f"unknown camera {spec!r}: use pi, usb:N, file:PATH, folder:PATH or sim")
