"""What calibrate and enroll save, and `run` using it: the Pi camera's exposure, white balance
and focus locked and set again, a webcam asked for MJPG, the enrolled deck read with. No real
camera: a stand-in picamera2 and a stand-in VideoCapture record what they are told."""

from __future__ import annotations

import io
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import cv2
import numpy as np
import pytest

from table.cli import main
from table.live.hardware import Hardware
from table.live.runner import RunningTable, RunOptions
from table.rules import Card, CardPlayed
from vision.calibration import calibrate
from vision.commands import config_dir
from vision.enroll import enroll
from vision.mat import mat_layout
from vision.simulator import MatScene
from vision.sources import CameraSettings, CaptureSource, PiCameraSource, SourceError

from .camera_fakes import CM3_METADATA, SMUDGED, Script, fake_picamera2, smudged_faces
from .helpers import PIN

GAME = Path(__file__).resolve().parents[1] / "vision" / "data" / "game"
LOCKED = {"AeEnable": False, "AwbEnable": False, "ExposureTime": 16000, "AnalogueGain": 2.5,
          "ColourGains": (1.9, 1.6), "AfMode": 0, "LensPosition": 1.75}


def test_the_settings_folder_is_pinochle_config_first(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("PINOCHLE_CONFIG", raising=False)
    assert config_dir() == tmp_path / "xdg" / "pinochle-table"
    monkeypatch.setenv("PINOCHLE_CONFIG", str(tmp_path / "service"))
    assert config_dir() == tmp_path / "service"


def test_calibrate_locks_the_pi_camera_and_saves_its_settings(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    frames = iter([np.asarray(cv2.imread(str(p))) for p in sorted(GAME.glob("*.jpg"))[:3]])
    cameras = fake_picamera2(monkeypatch, lambda: next(frames))
    monkeypatch.setenv("PINOCHLE_CONFIG", str(tmp_path))
    assert main(["calibrate", "--camera", "pi", "--tries", "3"]) == 0
    camera = cameras[0]
    assert camera.controls[0] == {"AfMode": 2}      # focusing by itself until calibrated
    assert camera.focus_cycles == 1 and camera.controls[-1] == LOCKED and camera.closed
    saved = json.loads((tmp_path / "camera.json").read_text())
    assert saved == {"camera": "pi", "controls": {**LOCKED, "ColourGains": [1.9, 1.6]}}
    assert (tmp_path / "calibration.json").exists()
    assert "camera fixed: exposure 16.0 ms, gain 2.50, white balance 1.90/1.60, focus 1.75 " \
           "dioptres" in capsys.readouterr().out


def test_saved_settings_are_set_when_the_camera_opens(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    image = np.zeros((720, 1280, 3), np.uint8)
    cameras = fake_picamera2(monkeypatch, lambda: image)
    CameraSettings("pi", LOCKED).save(tmp_path / "camera.json")
    settings = CameraSettings.load(tmp_path / "camera.json")
    source = PiCameraSource(settings=settings)
    assert cameras[0].controls == [LOCKED]
    frame = source.read()
    assert frame is not None and frame.image is image and frame.lores is not None
    source.close()

    (tmp_path / "bad.json").write_text("{\"camera\": \"pi\"}")
    with pytest.raises(SourceError, match="calibrate` again"):
        CameraSettings.load(tmp_path / "bad.json")


def test_a_fixed_focus_camera_gets_no_lens_controls(monkeypatch: pytest.MonkeyPatch) -> None:
    image = np.zeros((720, 1280, 3), np.uint8)
    cameras = fake_picamera2(monkeypatch, lambda: image, autofocus=False)
    source = PiCameraSource(settings=CameraSettings("pi", LOCKED))
    lens = {"AfMode", "LensPosition"}
    assert cameras[0].controls == [{k: v for k, v in LOCKED.items() if k not in lens}]
    locked = source.fix_exposure()
    assert not lens & set(locked.controls) and cameras[0].focus_cycles == 0
    assert locked.controls["ExposureTime"] == CM3_METADATA["ExposureTime"]


class FakeCapture:
    """A webcam that records what it is asked (in order) and gives 1280x720 frames."""

    made: ClassVar[list[FakeCapture]] = []

    def __init__(self, target: Any) -> None:
        self.asked: list[tuple[int, float]] = []
        self.log_level = os.environ.get("OPENCV_LOG_LEVEL")   # as it was when opened
        FakeCapture.made.append(self)

    def isOpened(self) -> bool:
        return True

    def set(self, prop: int, value: float) -> bool:
        self.asked.append((prop, value))
        return True

    def get(self, prop: int) -> float:
        return {cv2.CAP_PROP_FRAME_WIDTH: 1280.0, cv2.CAP_PROP_FRAME_HEIGHT: 720.0}.get(prop, 0)

    def read(self) -> tuple[bool, np.ndarray]:
        return True, np.zeros((720, 1280, 3), np.uint8)

    def release(self) -> None:
        pass


def test_a_webcam_is_asked_for_mjpg_then_the_size_and_opencv_is_quiet(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cv2, "VideoCapture", FakeCapture)
    monkeypatch.delenv("OPENCV_LOG_LEVEL", raising=False)
    FakeCapture.made.clear()
    source = CaptureSource(0)
    webcam = FakeCapture.made[0]
    assert webcam.asked == [(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG")),
                            (cv2.CAP_PROP_FRAME_WIDTH, 1920), (cv2.CAP_PROP_FRAME_HEIGHT, 1080)]
    assert webcam.log_level == "ERROR"
    frame = source.read()
    assert frame is not None and frame.image.shape == (720, 1280, 3)
    CaptureSource("game.mp4", None)
    assert FakeCapture.made[1].asked == []      # a video file is read as it is


def _scene_frames(scene: MatScene, count: int) -> Iterator[np.ndarray]:
    for _ in range(count):
        yield scene.render()


def _enrolled(faces: dict[Card, np.ndarray], cards: list[Card]) -> Any:
    """The profile `enroll` makes of these faces, shown one by one on a simulated mat."""
    scene = MatScene.create(mat_layout(3), faces, 5, size=(1280, 720))

    def frames() -> Iterator[np.ndarray]:
        for card in cards:
            scene.place(card, 0)
            yield from _scene_frames(scene, 8)
            scene.gather()
            yield from _scene_frames(scene, 4)
    return enroll(frames(), "smudged", cards=cards)


@pytest.mark.parametrize("enrolled", [True, False])
def test_run_reads_with_the_enrolled_deck_and_sets_the_saved_camera_settings(
        enrolled: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    faces = smudged_faces()
    folder = tmp_path / "settings"
    monkeypatch.setenv("PINOCHLE_CONFIG", str(folder))
    if enrolled:
        kings = [Card.parse(c) for c in ("KH", "KD", "KC", "KS")]
        _enrolled(faces, kings).save(folder / "deck.png")   # as `enroll` saves it
    CameraSettings("pi", LOCKED).save(folder / "camera.json")
    scene = MatScene.create(mat_layout(3), faces, 8, size=(1280, 720))
    calibrate(scene.render(), scene.layout).save(folder / "calibration.json")
    scene.place(SMUDGED, 0)
    script = Script(_scene_frames(scene, 16))
    cameras = fake_picamera2(monkeypatch, script)
    out = io.StringIO()
    table = RunningTable(RunOptions(db=tmp_path / "table.db", port=0, host="127.0.0.1", pin=PIN,
                                    headless=True), Hardware("pi", None, None, None), out)
    table.start()
    try:
        assert script.done.wait(120), "the camera thread did not read the frames"
        feed = table.feed
        assert cameras[0].controls == [LOCKED]
        said = out.getvalue()
        assert "camera settings from calibrate: exposure 16.0 ms" in said
        read = [e.card for e, _ in feed.sent if isinstance(e, CardPlayed)]
        asked = [t for t in feed.tracker.tracks if t.unsure_sent]
        if enrolled:
            assert f"deck profile: 'smudged', enrolled ({folder / 'deck.png'})" in said
            assert feed.tracker.deck.name == "smudged"
            assert read == [SMUDGED]
        else:
            assert "deck profile: built-in" in said
            assert feed.tracker.deck.name == "built-in"
            assert read == [] and len(asked) == 1
    finally:
        script.release()
        table.stop()
