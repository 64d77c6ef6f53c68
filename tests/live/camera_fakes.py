"""Stand-ins for the camera tests: a deck with one smudged face, a picamera2 that records the
controls it is given, a session that takes the camera's events."""

from __future__ import annotations

import sys
import threading
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from table.rules import Card, Event
from table.rules.game import Phase
from table.session import Outcome
from vision.faces import FACE_HEIGHT, FACE_WIDTH

CROPS = Path(__file__).resolve().parents[1] / "vision" / "data" / "crops" / "svg-standard"
SMUDGED = Card.parse("KH")
Faces = dict[Card, np.ndarray]


def standard_faces() -> Faces:
    """kdegames' standard deck as BGRA faces, from the stored crops (as the vision tests
    make them), so no card artwork needs rendering."""
    faces = {}
    for path in sorted(CROPS.glob("*_0.jpg")):
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        assert image is not None, f"cannot read {path}"
        big = cv2.resize(image[2:-2, 2:-2], (FACE_WIDTH, FACE_HEIGHT),
                         interpolation=cv2.INTER_CUBIC)
        cv2.rectangle(big, (0, 0), (FACE_WIDTH - 1, FACE_HEIGHT - 1), (245, 245, 245), 5)
        faces[Card.parse(path.stem.split("_")[0])] = np.dstack(
            [big, np.full(big.shape[:2], 255, np.uint8)])
    assert len(faces) == 24, f"stored crops missing under {CROPS}"
    return faces


def smudge(face: np.ndarray) -> np.ndarray:
    """A brown blot over the suit pip of both index corners and the court picture's heart
    beside it: the rank is still there, the suit is not, so no stored deck's corners fit it
    (and the corner reader cannot tell the suit)."""
    out = face.copy()
    for _ in range(2):
        cv2.ellipse(out, (int(FACE_WIDTH * 0.17), int(FACE_HEIGHT * 0.2)),
                    (int(FACE_WIDTH * 0.2), int(FACE_HEIGHT * 0.07)), 20, 0, 360,
                    (60, 90, 120, 255), -1)
        out = cv2.rotate(out, cv2.ROTATE_180)
    return out


def smudged_faces() -> Faces:
    faces = standard_faces()
    faces[SMUDGED] = smudge(faces[SMUDGED])
    return faces


@dataclass
class FakeCamera:
    """What one Picamera2 was told: the controls set, in order, and autofocus cycles run."""

    frames: Callable[[], np.ndarray]
    camera_controls: dict[str, Any]
    metadata: dict[str, Any]
    controls: list[dict[str, Any]] = field(default_factory=list)
    focus_cycles: int = 0
    closed: bool = False

    def create_video_configuration(self, **streams: Any) -> dict[str, Any]:
        return streams

    def configure(self, config: dict[str, Any]) -> None:
        pass

    def start(self) -> None:
        pass

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.controls.append(dict(controls))

    def autofocus_cycle(self) -> bool:
        self.focus_cycles += 1
        return True

    def capture_metadata(self) -> dict[str, Any]:
        return dict(self.metadata)

    def capture_request(self) -> Any:
        image = self.frames()
        arrays = {"main": image, "lores": np.zeros((270, 320), np.uint8)}
        return types.SimpleNamespace(make_array=arrays.__getitem__, release=lambda: None)

    def stop(self) -> None:
        pass

    def close(self) -> None:
        self.closed = True


CM3_CONTROLS = {name: (0, 1, 0) for name in (
    "AeEnable", "ExposureTime", "AnalogueGain", "AwbEnable", "ColourGains", "AfMode",
    "LensPosition")}
CM3_METADATA = {"ExposureTime": 16000, "AnalogueGain": 2.5, "ColourGains": (1.9, 1.6),
                "LensPosition": 1.75}


def fake_picamera2(monkeypatch: pytest.MonkeyPatch, frames: Callable[[], np.ndarray],
                   autofocus: bool = True) -> list[FakeCamera]:
    """Install a `picamera2` module whose Picamera2 is a FakeCamera (a Camera Module 3, or
    with `autofocus=False` a fixed-focus one); returns the cameras made, as they are made."""
    made: list[FakeCamera] = []
    controls = dict(CM3_CONTROLS)
    if not autofocus:
        del controls["AfMode"], controls["LensPosition"]

    def picamera2() -> FakeCamera:
        made.append(FakeCamera(frames, controls, dict(CM3_METADATA)))
        return made[-1]

    module = types.ModuleType("picamera2")
    module.Picamera2 = picamera2  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return made


class Script:
    """Frames for a camera thread: each of `frames` once, then `done` is set and reading
    waits until `release()` (the test's checks happen while the camera is idle)."""

    def __init__(self, frames: Iterator[np.ndarray]) -> None:
        self._frames = frames
        self.done = threading.Event()
        self._released = threading.Event()
        self._last: np.ndarray | None = None

    def __call__(self) -> np.ndarray:
        for frame in self._frames:
            self._last = frame
            return frame
        self.done.set()
        self._released.wait()
        assert self._last is not None
        return self._last

    def release(self) -> None:
        self._released.set()


@dataclass
class Game:
    """What the camera feed asks of the game while cards are played."""

    hand_number: int = 1
    phase: Phase = Phase.PLAY
    trick: tuple[Any, ...] = ()
    trick_full: bool = False
    next_dealer: int | None = None  # the play goes on: no deal is awaited


class PlaySession:
    """A session that accepts every card the camera plays (each gets the next entry
    number) and keeps the alerts; `corrected` entries no longer hold the card read."""

    names = ("Ann", "Bob", "Cy")
    game_id = 1

    def __init__(self) -> None:
        self.game = Game()
        self.played: list[tuple[int, Event]] = []
        self.alerts: list[Any] = []
        self.last_number = 0

    def submit(self, event: Event) -> Outcome:
        self.last_number += 1
        self.played.append((self.last_number, event))
        return Outcome(event, True, self.last_number, None, self.game)  # type: ignore[arg-type]

    def alert(self, alert: Any) -> None:
        self.alerts.append(alert)

    def accepted(self) -> list[tuple[int, Event]]:
        return list(self.played)
