"""The systemd unit and the udev rule: valid, and in agreement with the code they run."""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from firmware_bridge.config import LAYOUT_FILES, PICO_USB_ID, default_wiring
from table.cli import build_parser
from table.journal import default_path

ROOT = Path(__file__).resolve().parents[2]
UNIT_FILE = ROOT / "deploy" / "pinochle-table.service"
RULE_FILE = ROOT / "deploy" / "99-pinochle-board.rules"


def unit() -> dict[str, dict[str, list[str]]]:
    """The unit file as {section: {key: [values in order]}}."""
    sections: dict[str, dict[str, list[str]]] = {}
    current = None
    for line in UNIT_FILE.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        assert current is not None, f"{line!r} is outside any section"
        key, _, value = line.partition("=")
        current.setdefault(key, []).append(value)
    return sections


def environment() -> dict[str, str]:
    return dict(v.split("=", 1) for v in unit()["Service"]["Environment"])


def test_the_unit_has_what_the_table_needs() -> None:
    service = unit()["Service"]
    assert service["User"] == ["pinochle"]
    assert set(service["SupplementaryGroups"][0].split()) == {"gpio", "video", "dialout"}
    assert service["Restart"] == ["on-failure"] and int(service["RestartSec"][0]) > 0
    assert service["ExecStart"] == ["/opt/pinochle-table/.venv/bin/pinochle-table run"]
    assert unit()["Install"]["WantedBy"] == ["multi-user.target"]


def test_the_journal_and_lgpio_live_in_the_state_directory(
        monkeypatch: pytest.MonkeyPatch) -> None:
    service = unit()["Service"]
    state = Path("/var/lib") / service["StateDirectory"][0]
    # lgpio makes its notification pipes in the working directory: it must be writable
    assert Path(service["WorkingDirectory"][0]) == state
    assert Path(environment()["LG_WD"]) == state
    journal = Path(environment()["PINOCHLE_DB"])
    assert journal.parent == state
    monkeypatch.setenv("PINOCHLE_DB", str(journal))  # the variable the journal really reads
    assert default_path() == journal


def test_the_command_the_unit_runs_exists() -> None:
    subcommand = unit()["Service"]["ExecStart"][0].split()[1]
    parser = build_parser()
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if subcommand not in actions[0].choices:
        pytest.skip(f"`pinochle-table {subcommand}` is not written yet (issue 8's integration)")
    assert subcommand == "run"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    # The venv exists only on the Pi: point ExecStart at a program that is here, keep the rest.
    text = UNIT_FILE.read_text(encoding="utf-8")
    copy = tmp_path / UNIT_FILE.name
    copy.write_text(re.sub(r"^ExecStart=\S+", "ExecStart=/bin/true", text, flags=re.M))
    result = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True,
                            text=True, timeout=30, check=False)
    complaints = [line for line in (result.stdout + result.stderr).splitlines()
                  if UNIT_FILE.name in line]
    assert result.returncode == 0 and not complaints, result.stdout + result.stderr


def rule() -> dict[str, str]:
    """The udev rule's one line as {KEY: value} (KEY with its operator, like 'SYMLINK+=')."""
    lines = [line for line in RULE_FILE.read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    assert len(lines) == 1
    pairs = [p.strip() for p in lines[0].split(",")]
    parsed = {}
    for pair in pairs:
        match = re.fullmatch(r'([A-Z_]+(?:\{[A-Za-z_]+\})?)(==|!=|\+=|:=|=)"([^"]*)"', pair)
        assert match, f"not a udev key=value: {pair!r}"
        parsed[match.group(1) + match.group(2)] = match.group(3)
    return parsed


def test_the_udev_rule_matches_the_board_firmware_bridge_looks_for() -> None:
    keys = rule()
    assert keys["SUBSYSTEM=="] == "tty"
    usb_id = f"{keys['ATTRS{idVendor}==']}:{keys['ATTRS{idProduct}==']}"
    assert usb_id == PICO_USB_ID == "2e8a:0005"
    for seats in LAYOUT_FILES:
        assert default_wiring(seats).board.usb_id == usb_id


def test_the_udev_rule_names_the_board_and_lets_the_service_open_it() -> None:
    keys = rule()
    assert keys["SYMLINK+="] == "pinochle-board"
    assert keys["GROUP="] == "dialout" and keys["MODE="] == "0660"
    assert "dialout" in unit()["Service"]["SupplementaryGroups"][0].split()
