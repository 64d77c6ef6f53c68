"""Where frames come from, behind one small interface: the Pi camera (picamera2), any OpenCV
VideoCapture (a USB webcam or a video file), a folder of images, or the simulator.

`open_source("pi" | "usb:0" | "file:game.mp4" | "folder:shots/" | "sim")`.

`calibrate` locks what the Pi camera would otherwise keep changing (exposure, gains, white
balance, and on a Camera Module 3 the focus) and saves it as `CameraSettings` (camera.json
beside the calibration); `run` applies them when it opens the camera.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp")


# The picamera2 controls `calibrate` saves and `run` applies: exposure and gain, white balance,
# and the focus of a camera with a movable lens (AfMode 0 is manual: the lens stays put).
PI_CONTROLS = ("AeEnable", "ExposureTime", "AnalogueGain", "AwbEnable", "ColourGains", "AfMode",
               "LensPosition")
AF_MANUAL, AF_CONTINUOUS = 0, 2   # libcamera's AfModeEnum.Manual and .Continuous


class SourceError(Exception):
    """A camera or file that cannot be opened or read."""


@dataclass(frozen=True)
class CameraSettings:
    """What `calibrate` fixed on a camera (`camera`: the kind, "pi"), as the camera's own
    controls, to be set again by `run`."""

    camera: str
    controls: Mapping[str, Any] = field(default_factory=dict)

    def describe(self) -> str:
        """The settings in a few words, for the messages."""
        c = self.controls
        parts = []
        if "ExposureTime" in c:
            parts.append(f"exposure {int(c['ExposureTime']) / 1000:.1f} ms")
        if "AnalogueGain" in c:
            parts.append(f"gain {float(c['AnalogueGain']):.2f}")
        if "ColourGains" in c:
            red, blue = c["ColourGains"]
            parts.append(f"white balance {float(red):.2f}/{float(blue):.2f}")
        if "LensPosition" in c:
            parts.append(f"focus {float(c['LensPosition']):.2f} dioptres")
        return ", ".join(parts) or "none"

    def save(self, path: str | Path) -> None:
        """Write as JSON, atomically (a table switched off meanwhile keeps the old file)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"camera": self.camera, "controls": dict(self.controls)},
                                  indent=1))
        tmp.replace(path)

    @classmethod
    def load(cls, path: str | Path) -> CameraSettings:
        try:
            data = json.loads(Path(path).read_text())
            controls = {k: v for k, v in data["controls"].items() if k in PI_CONTROLS}
            if "ColourGains" in controls:
                controls["ColourGains"] = tuple(float(g) for g in controls["ColourGains"])
            return cls(str(data["camera"]), controls)
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise SourceError(f"cannot read the camera settings {path}: {exc}; run "
                              "`pinochle-table calibrate` again") from None


def quiet_opencv() -> None:
    """Keep OpenCV's own warning lines (a webcam's backend probing, a property it lacks) out
    of the table's messages, unless OPENCV_LOG_LEVEL asks for them."""
    if "OPENCV_LOG_LEVEL" in os.environ:
        return
    os.environ["OPENCV_LOG_LEVEL"] = "ERROR"   # read when OpenCV first logs
    import cv2

    logging_ = getattr(getattr(cv2, "utils", None), "logging", None)
    if logging_ is not None and hasattr(logging_, "setLogLevel"):
        logging_.setLogLevel(logging_.LOG_LEVEL_ERROR)


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
    lores stream for motion. `fix_exposure()` locks exposure, white balance and focus (after
    calibration) so the lamp, not the camera, decides how cards look; `settings` sets them
    as a calibration saved them."""

    def __init__(self, size: tuple[int, int] = (1920, 1080),
                 clock: Callable[[], float] = time.time,
                 settings: CameraSettings | None = None) -> None:
        quiet_opencv()
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
        self.applied: dict[str, Any] = {}
        if settings is not None and settings.camera == "pi":
            self.applied = self._known(settings.controls)
        else:   # not calibrated yet: a lens that can move keeps the mat in focus meanwhile
            self.applied = self._known({"AfMode": AF_CONTINUOUS})
        if self.applied:
            self._cam.set_controls(self.applied)

    def _known(self, controls: Mapping[str, Any]) -> dict[str, Any]:
        """The controls this camera has (a fixed-focus lens has no LensPosition)."""
        has = getattr(self._cam, "camera_controls", None) or {}
        return {k: v for k, v in controls.items() if k in has}

    def read(self) -> Frame | None:
        request = self._cam.capture_request()
        try:
            main = request.make_array("main")
            lores = request.make_array("lores")
        finally:
            request.release()
        self._count += 1
        return Frame(main, self._clock(), self._count, lores[:180, :320])

    def fix_exposure(self) -> CameraSettings:
        """Lock the current automatic exposure and white balance, and (a camera with
        autofocus, the Camera Module 3) focus once on the mat and keep the lens there;
        returns what was locked, to be saved."""
        focus = "LensPosition" in self._known({"LensPosition": 0})
        if focus and not self._cam.autofocus_cycle():
            log.warning("the camera could not focus on the mat; its lens stays where it is")
        meta = self._cam.capture_metadata()
        controls: dict[str, Any] = {
            "AeEnable": False, "AwbEnable": False,
            "ExposureTime": int(meta["ExposureTime"]),
            "AnalogueGain": float(meta["AnalogueGain"]),
            "ColourGains": tuple(float(g) for g in meta["ColourGains"])}
        if focus and "LensPosition" in meta:
            controls |= {"AfMode": AF_MANUAL, "LensPosition": float(meta["LensPosition"])}
        self._cam.set_controls(controls)
        return CameraSettings("pi", controls)

    def close(self) -> None:
        self._cam.stop()
        self._cam.close()


class CaptureSource:
    """An OpenCV VideoCapture: a USB webcam by index, or a video file."""

    def __init__(self, target: int | str, size: tuple[int, int] | None = (1920, 1080),
                 clock: Callable[[], float] = time.time) -> None:
        quiet_opencv()
        import cv2

        self._cap = cv2.VideoCapture(target)
        if not self._cap.isOpened():
            raise SourceError(f"cannot open camera or video {target!r}")
        if isinstance(target, int) and size is not None:
            # Uncompressed 1080p does not fit through USB 2 at a useful rate: ask for MJPG
            # first (the size is then chosen among the MJPG ones).
            self._cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG"))
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
            got = (int(self._cap.get(cv2.CAP_PROP_FRAME_WIDTH)),
                   int(self._cap.get(cv2.CAP_PROP_FRAME_HEIGHT)))
            if got != size:
                log.info("webcam %s gives %dx%d frames, not %dx%d", target, *got, *size)
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
                clock: Callable[[], float] = time.time,
                settings: CameraSettings | None = None) -> FrameSource:
    """A frame source from its name: pi, usb:N, file:PATH, folder:PATH (or a folder path),
    sim (an empty simulated mat, kdegames' standard deck). `settings`: what calibrate fixed,
    set on the Pi camera."""
    kind, _, arg = spec.partition(":")
    if kind == "pi":
        return PiCameraSource(clock=clock, settings=settings)
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
