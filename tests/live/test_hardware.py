"""Hardware detection: what is found on a Pi, the simulation elsewhere, and the flags."""

from __future__ import annotations

from pathlib import Path

import pytest

from table.cli import main
from table.cli_common import CommandError
from table.live.hardware import detect, pi_model

PI5 = "Raspberry Pi 5 Model B Rev 1.0"


def test_off_a_pi_everything_is_simulated() -> None:
    hw = detect(model=None)
    assert (hw.camera, hw.gpio, hw.pin_factory, hw.serial) == ("sim", "mock", "mock", "sim")
    assert hw.notes == ()


def test_a_pi_5_with_everything_plugged_in() -> None:
    hw = detect(model=PI5, cameras=lambda: 1, find_board=lambda: "/dev/ttyACM0")
    assert (hw.camera, hw.gpio, hw.pin_factory, hw.serial) == \
        ("pi", "real", "lgpio", "/dev/ttyACM0")
    assert hw.notes == ()


def test_what_is_missing_on_a_pi_is_said_once_and_falls_to_the_page() -> None:
    hw = detect(model="Raspberry Pi 4 Model B Rev 1.4", cameras=lambda: 0,
                find_board=lambda: None)
    assert hw.camera is None and hw.serial is None
    assert hw.gpio == "real" and hw.pin_factory is None  # gpiozero's own choice on a Pi 4
    assert len(hw.notes) == 2
    assert "no camera" in hw.notes[0] and "page" in hw.notes[0]
    assert "no serial board" in hw.notes[1]


def test_flags_override_detection(tmp_path: Path) -> None:
    video = tmp_path / "game.mp4"
    video.write_bytes(b"not really a video")
    hw = detect(camera=f"file:{video}", gpio="off", serial="off", model=PI5,
                cameras=lambda: 1, find_board=lambda: "/dev/ttyACM0")
    assert hw.camera == f"file:{video}" and hw.gpio is None and hw.serial is None
    assert any("GPIO buttons off" in n for n in hw.notes)
    assert detect(camera="usb:1", model=None).camera == "usb:1"
    assert detect(camera="off", model=None).camera is None


@pytest.mark.parametrize(("camera", "gpio", "serial", "says"), [
    ("webcam", None, None, "--camera is pi, usb:N"),
    ("usb:x", None, None, "--camera is pi, usb:N"),
    ("file:/no/such.mp4", None, None, "no such video file"),
    (None, "maybe", None, "--gpio is real, mock or off"),
    (None, None, "/dev/no-such-board", "no such device"),
])
def test_bad_flags_are_named(camera: str | None, gpio: str | None, serial: str | None,
                             says: str) -> None:
    with pytest.raises(CommandError, match=says):
        detect(camera, gpio, serial, model=None)


def test_the_pi_model_is_read_from_the_device_tree(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_bytes(PI5.encode() + b"\0")
    assert pi_model(model) == PI5
    model.write_bytes(b"Some other board\0")
    assert pi_model(model) is None
    assert pi_model(tmp_path / "missing") is None


def test_run_refuses_bad_arguments_before_starting(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--speed", "0"]) == 2
    assert "--speed must be more than 0" in capsys.readouterr().err
    assert main(["run", "--sim-frame", "big"]) == 2
    assert "--sim-frame is WIDTHxHEIGHT" in capsys.readouterr().err
    assert main(["run", "--option", "target"]) == 2
    assert "FIELD=VALUE" in capsys.readouterr().err
