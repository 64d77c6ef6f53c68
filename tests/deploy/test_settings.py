"""table.toml (table/settings.py) and the table card: what the service starts with."""

from __future__ import annotations

import re
import subprocess
import zlib
from pathlib import Path

import cv2
import pytest

from table.cli import main
from table.settings import (
    SettingsError,
    TableSettings,
    config_dir,
    keep_pin,
    load_settings,
    settings_path,
)


def test_the_settings_directory_follows_pinochle_config_then_xdg() -> None:
    assert config_dir({"PINOCHLE_CONFIG": "/var/lib/pinochle-table",
                       "XDG_CONFIG_HOME": "/x"}) == Path("/var/lib/pinochle-table")
    assert config_dir({"XDG_CONFIG_HOME": "/x"}) == Path("/x/pinochle-table")
    assert config_dir({}) == Path.home() / ".config" / "pinochle-table"
    assert settings_path({"PINOCHLE_CONFIG": "/s"}) == Path("/s/table.toml")


def test_a_full_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text('pin = "0427"\npreset = "bison"\nseats = ["Ann", " Bob ", "Cleo"]\n'
                    "port = 8000\n")
    assert load_settings(path) == TableSettings("0427", "bison", ("Ann", "Bob", "Cleo"), 8000)
    assert load_settings(tmp_path / "none.toml") == TableSettings()


@pytest.mark.parametrize(("text", "says"), [
    ("pin = 427\n", "in quotes"),
    ('pin = "12a4"\n', "4 to 12 digits"),
    ('seats = "Ann"\n', "list of names"),
    ("port = 70000\n", "port is a number"),
    ('colour = "green"\n', "unknown setting colour"),
    ('pin = "1234\n', "table.toml"),  # not TOML at all
])
def test_a_bad_file_says_which_and_what_to_write(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "table.toml"
    path.write_text(text)
    with pytest.raises(SettingsError, match=says) as caught:
        load_settings(path)
    assert str(path) in str(caught.value)


def test_a_pin_is_made_once_and_kept_with_the_rest_of_the_file(tmp_path: Path) -> None:
    path = tmp_path / "settings" / "table.toml"
    made = iter(["5150", "9999"])
    first = keep_pin(path, lambda: next(made))  # no file yet: one is written
    assert first.pin == "5150" and load_settings(path).pin == "5150"
    assert path.stat().st_mode & 0o077 == 0  # only the service's user reads the PIN
    text = path.read_text() + 'preset = "racehorse"\n'
    path.write_text(text)
    again = keep_pin(path, lambda: next(made))
    assert again == TableSettings("5150", "racehorse")
    other = tmp_path / "other.toml"
    other.write_text('seats = ["A", "B", "C"]\n')
    assert keep_pin(other, lambda: "0001") == TableSettings("0001", None, ("A", "B", "C"))
    assert load_settings(other).seats == ("A", "B", "C")


def test_the_table_card_has_the_address_qr_code_and_the_pin(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("PINOCHLE_CONFIG", str(tmp_path / "settings"))
    settings = tmp_path / "settings" / "table.toml"
    settings.parent.mkdir()
    settings.write_text("port = 8123\n")
    card = tmp_path / "card.pdf"
    address = "http://pinochle.local:8123/"
    assert main(["print-card", "--out", str(card), "--address", address]) == 0
    pin = load_settings(settings).pin
    assert pin is not None and f"table PIN {pin}" in capsys.readouterr().out
    pdf = card.read_bytes()
    streams = [zlib.decompress(m) for m in re.findall(rb"stream\n(.*?)\nendstream", pdf, re.S)]
    assert any(f"({pin}) Tj".encode() in s for s in streams)
    assert any(f"({address}) Tj".encode() in s for s in streams)
    subprocess.run(["pdftoppm", "-r", "150", "-png", "-singlefile", str(card),
                    str(tmp_path / "card")], check=True)
    decoded, _, _ = cv2.QRCodeDetector().detectAndDecode(cv2.imread(str(tmp_path / "card.png")))
    assert decoded == address
    # printed again: the same PIN (the service uses it too)
    assert main(["print-card", "--out", str(card), "--address", address]) == 0
    assert load_settings(settings).pin == pin
    assert main(["print-card", "--address", "pinochle.local"]) == 2
