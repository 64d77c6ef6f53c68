"""The package's subcommands, run through the real `pinochle-table` entry point."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_bridge.commands import FIRMWARE_MODULES, sim_command
from firmware_bridge.config import default_wiring
from firmware_bridge.simboard import SimulatedBoard
from table.cli import main


def test_wiring_prints_every_pin(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["wiring", "--seats", "4"]) == 0
    out = capsys.readouterr().out
    for function, where, pin in default_wiring(4).rows():
        assert f"| {function} | {where} | {pin} |" in out


def test_wiring_with_a_bad_file_says_why(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "w.toml"
    bad.write_text("[[seat]]\nbid = 99\n" * 2)
    assert main(["wiring", "--file", str(bad)]) == 2
    assert "seat 1: bid = 99 is not a BCM pin" in capsys.readouterr().err


def test_board_flash_dry_run_copies_every_firmware_file(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board-flash", "--dry-run", "--port", "/dev/ttyACM0"]) == 0
    out = capsys.readouterr().out
    assert "connect /dev/ttyACM0 resume" in out and ":main.py" in out
    for name in FIRMWARE_MODULES:
        assert f"firmware/{name}" in out


def test_board_flash_uses_the_venvs_mpremote_and_the_boards_udev_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from firmware_bridge import commands

    (tmp_path / "mpremote").write_text("#!/bin/sh\n")
    monkeypatch.setattr(commands.sys, "executable", str(tmp_path / "python"))
    assert commands.find_mpremote() == str(tmp_path / "mpremote")
    calls = commands.flash_commands("/dev/pinochle-board", str(tmp_path / "mpremote"))
    assert all(c[:4] == [str(tmp_path / "mpremote"), "connect", "/dev/pinochle-board",
                         "resume"] for c in calls)
    device = tmp_path / "pinochle-board"
    device.touch()
    monkeypatch.setattr(commands, "BOARD_DEVICE", str(device))
    assert main(["board-flash", "--dry-run"]) == 0
    assert f"{tmp_path / 'mpremote'} connect {device} resume" in capsys.readouterr().out


def test_board_sim_runs_a_script_and_refuses_a_bad_step(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board-sim", "--seats", "3", "--script", "1 bid; 2 pass hold; undo"]) == 0
    out = capsys.readouterr().out
    assert "seat 1 BID tap" in out and "seat 2 PASS long press" in out and "UNDO" in out
    assert main(["board-sim", "--seats", "3", "--script", "4 bid"]) == 2
    assert "no seat 4" in capsys.readouterr().err


def test_sim_commands_reach_the_board() -> None:
    sent: list[bytes] = []
    board = SimulatedBoard(3)
    board.on_write = sent.append
    board.start()
    try:
        sim_command(board, "unplug", 3)
        assert not board.plugged
        sim_command(board, "replug", 3)
        assert board.plugged
        with pytest.raises(ValueError, match="not understood"):
            sim_command(board, "2 fold", 3)
        assert "not heard" in sim_command(board, "lights", 3)
    finally:
        board.stop()
