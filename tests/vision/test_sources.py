"""Frame sources and the vision subcommands of `pinochle-table`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from table.cli import main
from vision.sources import FolderSource, SourceError, open_source

GAME = Path(__file__).resolve().parent / "data" / "game"


def test_a_folder_plays_back_in_name_order() -> None:
    ticks = iter(range(1000))
    source = open_source(f"folder:{GAME}", clock=lambda: float(next(ticks)))
    assert isinstance(source, FolderSource)
    first = source.read()
    assert first is not None and first.number == 1 and first.image.shape == (1080, 1920, 3)
    count = 1
    while source.read() is not None:
        count += 1
    assert count == len(list(GAME.glob("*.jpg")))
    source.close()


@pytest.mark.parametrize("spec, message", [
    ("usb:x", "usb:N"), ("file:/no/such.mp4", "no video file"), ("webcam", "unknown camera"),
])
def test_bad_camera_names_get_a_clear_error(spec: str, message: str) -> None:
    with pytest.raises(SourceError, match=message):
        open_source(spec)


def test_an_empty_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no images"):
        open_source(f"folder:{tmp_path}")


def test_print_mat_and_calibrate_commands(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    mat = tmp_path / "mat.png"
    assert main(["print-mat", "--seats", "3", "--dpi", "50", "--out", str(mat)]) == 0
    assert mat.exists() and "cm above the mat" in capsys.readouterr().out
    assert main(["print-mat", "--out", str(tmp_path / "mat.svg")]) == 2
    cal = tmp_path / "cal.json"
    assert main(["calibrate", "--camera", f"folder:{GAME}", "--out", str(cal),
                 "--tries", "2"]) == 0
    assert json.loads(cal.read_text())["seats"] == 3
    assert "px/mm" in capsys.readouterr().out
    assert main(["calibrate", "--camera", "folder:/nowhere"]) == 2
