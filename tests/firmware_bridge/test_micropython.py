"""The board's program on a real MicroPython: compiled by mpy-cross for the Pico's core, its
logic and main.py run by MicroPython's Unix port (tests/firmware_bridge/upy/scenarios.py), and
main.py talking to the Pi side's real BoardConnection over a pty."""

from __future__ import annotations

import importlib.util
import os
import platform
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from firmware_bridge.commands import FIRMWARE
from firmware_bridge.config import BoardPlace
from firmware_bridge.serial_board import BoardConnection

from .conftest import wait_until

ROOT = Path(__file__).resolve().parents[2]
UPY = Path(__file__).resolve().parent / "upy"


def _load_check() -> ModuleType:
    spec = importlib.util.spec_from_file_location("firmware_check", ROOT / "deploy" /
                                                  "firmware_check.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


check = _load_check()
# The Unix port is packaged for x86-64 only; there, a missing interpreter is a failure.
pytestmark = pytest.mark.skipif(platform.machine() != "x86_64",
                                reason="MicroPython's Unix port is packaged for x86-64 only")


@pytest.fixture(scope="module")
def board_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    board: Path = tmp_path_factory.mktemp("board")
    check.compile_firmware(board)
    return board


def test_every_firmware_file_compiles_for_the_pico(board_dir: Path) -> None:
    sources = sorted(p.stem for p in FIRMWARE.glob("*.py"))
    compiled = sorted(p.stem for p in (board_dir / check.BOARD_PACKAGE).glob("*.mpy"))
    assert compiled == [s for s in sources if s != "main"]
    assert (board_dir / "main.py").read_bytes() == (FIRMWARE / "main.py").read_bytes()
    for mpy in (board_dir / check.BOARD_PACKAGE).glob("*.mpy"):
        assert mpy.read_bytes()[:2] == b"M\x06", mpy  # MicroPython's .mpy, format version 6


def test_mpy_cross_refuses_what_micropython_cannot_run(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    return (yield from)\n")
    result = subprocess.run([check.tool("mpy-cross"), "-march=armv6m", str(bad)],
                            capture_output=True, text=True)
    assert result.returncode != 0 and "SyntaxError" in result.stderr + result.stdout


def test_the_boards_logic_and_main_loop_on_micropython(board_dir: Path) -> None:
    result = check.run_scenarios(board_dir)
    text = check.report(result)
    scenarios = len(re.findall(r"^@scenario$", (UPY / "scenarios.py").read_text(), re.M))
    assert result.returncode == 0, text
    assert "micropython 1." in text and f": {scenarios} passed, 0 failed" in text, text
    assert "OSError" in (board_dir / "crash.txt").read_text()


class PtyBoard:
    """main.py on MicroPython behind a pty: the Pi opens the pty's slave end by its path."""

    def __init__(self, board_dir: Path, scratch: Path) -> None:
        self.pins = scratch / "pins"
        self.log = scratch / "log"
        self.seq = 0
        self.press()
        self.master, self.slave = os.openpty()
        self.path = os.ttyname(self.slave)
        self.process = subprocess.Popen(
            [check.tool("micropython"), str(UPY / "board_on_pty.py"), str(board_dir),
             str(self.pins), str(self.log)],
            stdin=self.master, stdout=self.master, stderr=subprocess.PIPE, cwd=scratch)

    def press(self, *gpios: int, fault: bool = False) -> None:
        """Hold these buttons down (the rest up); `fault` makes the next pin read fail."""
        self.seq += 1
        lines = [f"seq {self.seq}"] + [f"{g} 0" for g in gpios] + (["fault"] if fault else [])
        tmp = self.pins.with_suffix(".tmp")
        tmp.write_text("\n".join(lines) + "\n")
        tmp.replace(self.pins)  # whole, never half-written

    def seen(self) -> bool:
        """The board has read the latest press()."""
        return f"seen {self.seq}" in self.lines()

    def lines(self) -> list[str]:
        return self.log.read_text().splitlines() if self.log.exists() else []

    def outputs(self) -> dict[int, int]:
        """Each output pin's last level."""
        out = {}
        for line in self.lines():
            words = line.split()
            if words[0] == "out":
                out[int(words[1])] = int(words[2])
        return out

    def rises(self, gpio: int) -> int:
        return sum(1 for line in self.lines() if line == f"out {gpio} 1")

    def close(self) -> None:
        self.process.kill()
        self.process.wait(timeout=10)
        assert self.process.stderr is not None
        self.process.stderr.close()
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def pty_board(board_dir: Path, tmp_path: Path) -> Iterator[PtyBoard]:
    board = PtyBoard(board_dir, tmp_path)
    yield board
    board.close()


def test_the_pi_and_micropython_board_over_a_pty(pty_board: PtyBoard) -> None:
    source = _load_main_constants()
    gestures: list[tuple[int | None, str, str]] = []
    alerts: list[str] = []
    pi = BoardConnection(BoardPlace(port=pty_board.path, usb_id=None),
                         on_gesture=lambda src, seat, button, g: gestures.append((seat, button, g)),
                         on_alert=lambda text, src, kind: alerts.append(text),
                         backoff=(0.02, 0.2)).start()
    try:
        assert pi.wait_linked(20), (pi.status, pty_board.lines())
        # the board said who it is in its answer to the Pi's challenge (the stand-in's chip id)
        assert wait_until(lambda: "pinochle-fw-1.1, 9 buttons, id e6614c311b7e2f2a" in pi.status)
        bid = source["BUTTON_PINS"][0][0]          # seat 0's BID
        undo = source["BUTTON_PINS"][-1][0]        # the table's UNDO
        # a TAP: pressed (the board has seen it), then let go
        pty_board.press(bid)
        assert wait_until(pty_board.seen, 10)
        pty_board.press()
        assert wait_until(lambda: (0, "BID", "TAP") in gestures, 10), gestures
        # a HOLD: held until the board says so, then let go (no second gesture)
        pty_board.press(undo)
        assert wait_until(lambda: (None, "UNDO", "HOLD") in gestures, 10), gestures
        pty_board.press()
        assert wait_until(pty_board.seen, 10)

        # noise from the Pi's side of the cable, then lights and the buzzer still obeyed
        os.write(pty_board.slave, b"\xff\xfe garbage\n>>> \nP1 9 LEDS 1 0 *0000\n")
        lights, buzzer = source["LIGHT_PINS"], source["BUZZER_PIN"]
        pi.show(0b0101_0011, 0)  # seats 0 and 1, hearts and diamonds
        want = {lights[i]: int(bool(0b0101_0011 & (1 << i))) for i in range(8)}
        assert wait_until(lambda: all(pty_board.outputs().get(g) == v for g, v in want.items()),
                          10), (pty_board.outputs(), want)
        pi.buzz(60, 60, 2)
        assert wait_until(lambda: pty_board.rises(buzzer) == 2
                          and pty_board.outputs()[buzzer] == 0, 10), pty_board.lines()

        # a pin that fails: the board logs it, restarts, and links again as a new board
        pty_board.press(fault=True)
        assert wait_until(lambda: "boot 2" in pty_board.lines(), 10), pty_board.lines()
        assert wait_until(lambda: pi.stats().get("noise", 0) > 0, 10), pi.stats()
        assert wait_until(lambda: pi.linked, 20)
        pty_board.press(bid)
        assert wait_until(pty_board.seen, 10)
        pty_board.press()
        assert wait_until(lambda: gestures.count((0, "BID", "TAP")) == 2, 10), gestures
        assert gestures.count((None, "UNDO", "HOLD")) == 1  # nothing replayed twice
    finally:
        pi.stop()


def _load_main_constants() -> dict[str, object]:
    """main.py's pin tables (it imports `machine`, so it is read, not imported)."""
    import ast

    tree = ast.parse((FIRMWARE / "main.py").read_text())
    out: dict[str, object] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            try:
                out[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                continue
    return out
