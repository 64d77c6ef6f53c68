"""Subcommands of `pinochle-table` that belong to this package (see table/cli.py):

    wiring        the wiring table: which BCM pin does what (from a wiring file or the default)
    board-sim     a simulated serial board on a pty, pressed from the keyboard or a script
    board-check   connect to the serial board and show what it sends
    board-flash   copy the MicroPython program onto a Pico with mpremote
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

FIRMWARE = Path(__file__).resolve().parent / "firmware"
FIRMWARE_MODULES = ("__init__.py", "wire.py", "link.py", "buttons.py", "board.py")
BOARD_PACKAGE = "pinochle_fw"
SUIT_WORDS = ("spades", "hearts", "clubs", "diamonds")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add this package's subcommands to the `pinochle-table` parser."""
    p = sub.add_parser("wiring", help="print the wiring table of the seat buttons and lights")
    p.add_argument("--seats", type=int, default=3, choices=(2, 3, 4))
    p.add_argument("--file", type=Path, help="a wiring file (TOML) instead of the default")
    p.set_defaults(handler=_wiring)

    p = sub.add_parser("board-sim", help="run a simulated serial board on a pty")
    p.add_argument("--seats", type=int, default=4, choices=(2, 3, 4))
    p.add_argument("--link", type=Path, help="keep a symlink to the pty here (a stable path "
                   "to give as the board's port, like /dev/serial/by-id/...)")
    p.add_argument("--script", help='presses to make, then exit: "1 bid; 1 bid hold; undo"')
    p.add_argument("--hold-ms", type=int, default=700)
    p.set_defaults(handler=_board_sim)

    p = sub.add_parser("board-check", help="connect to the serial board and show its presses")
    p.add_argument("--port", help="the board's device (default: found by USB id)")
    p.add_argument("--usb-id", default=None, help="USB vendor:product (default 2e8a:0005)")
    p.add_argument("--seconds", type=float, default=0,
                   help="stop after this long (default: until Ctrl-C)")
    p.set_defaults(handler=_board_check)

    p = sub.add_parser("board-flash", help="copy the board's MicroPython program with mpremote")
    p.add_argument("--port", help="the Pico's device (default: /dev/pinochle-board if there, "
                   "else mpremote finds it)")
    p.add_argument("--dry-run", action="store_true", help="print the mpremote commands only")
    p.set_defaults(handler=_board_flash)


# -- wiring ---------------------------------------------------------------------------------------

def wiring_table(wiring: Any) -> str:
    """The wiring as a markdown table, with the timing below it."""
    lines = [f"Wiring from {Path(wiring.source).name}:", "",
             "| function | where | BCM pin |", "| --- | --- | --- |"]
    lines += [f"| {function} | {where} | {pin} |" for function, where, pin in wiring.rows()]
    t = wiring.timing
    lines += ["", f"debounce {t.debounce_ms} ms, long press {t.hold_ms} ms, "
              f"raise window {t.raise_window_ms} ms"]
    return "\n".join(lines)


def _wiring(args: argparse.Namespace) -> int:
    from table.cli_common import CommandError

    from .config import WiringError, default_wiring, load_wiring

    try:
        wiring = load_wiring(args.file) if args.file else default_wiring(args.seats)
    except WiringError as exc:
        raise CommandError(str(exc)) from None
    print(wiring_table(wiring))
    return 0


# -- the simulated board --------------------------------------------------------------------------

SIM_HELP = ("commands: '<seat> bid', '<seat> bid hold', '<seat> pass', '<seat> pass hold' "
            "(seats 1-4), 'undo', 'unplug', 'power' (unplug and lose power), 'replug', "
            "'lights', 'quit'")


def describe_lights(levels: list[bool], seats: int) -> str:
    on = [f"seat {i + 1}" for i in range(seats) if levels[i]]
    on += [SUIT_WORDS[i] for i in range(4) if levels[4 + i]]
    return "lights: " + (", ".join(on) if on else "all off")


def sim_command(board: Any, line: str, seats: int) -> str:
    """Carry out one board-sim command; returns what to print. Raises ValueError if unclear."""
    words = line.lower().split()
    if words == ["undo"]:
        board.press(None, "UNDO")
        return "UNDO"
    if words in (["unplug"], ["power"]):
        board.unplug(power_off=words == ["power"])
        return "unplugged" + (" (and lost power)" if words == ["power"] else "")
    if words == ["replug"]:
        board.replug()
        return f"plugged in again at {board.path}"
    if words == ["lights"]:
        if not board.linked():
            return "lights: the Pi is not heard, so the seat lights pulse together"
        return describe_lights(board.lights(), seats)
    if len(words) in (2, 3) and words[0].isdigit() and words[1] in ("bid", "pass") \
            and (len(words) == 2 or words[2] == "hold"):
        seat = int(words[0])
        if not 1 <= seat <= seats:
            raise ValueError(f"there is no seat {seat}: seats are 1 to {seats}")
        hold = len(words) == 3
        board.press(seat - 1, words[1].upper(), hold=hold)
        return f"seat {seat} {words[1].upper()} {'long press' if hold else 'tap'}"
    raise ValueError(f"not understood: {line.strip()!r}; {SIM_HELP}")


def _board_sim(args: argparse.Namespace) -> int:
    from table.cli_common import CommandError

    from .simboard import SimulatedBoard

    board = SimulatedBoard(args.seats, args.link, hold_ms=args.hold_ms).start()
    try:
        print(f"simulated board on {board.path}", flush=True)
        if args.script is not None:
            for step in filter(None, (s.strip() for s in args.script.split(";"))):
                try:
                    print(sim_command(board, step, args.seats), flush=True)
                except ValueError as exc:
                    raise CommandError(str(exc)) from None
                time.sleep(0.05)  # let the Pi answer before the next press
            return 0
        print(SIM_HELP, flush=True)
        for line in sys.stdin:
            if line.strip().lower() in ("quit", "exit"):
                break
            if not line.strip():
                continue
            try:
                print(sim_command(board, line, args.seats), flush=True)
            except ValueError as exc:
                print(exc, flush=True)
        return 0
    finally:
        board.stop()


# -- checking a board -----------------------------------------------------------------------------

def _board_check(args: argparse.Namespace) -> int:
    from .config import PICO_USB_ID, BoardPlace
    from .serial_board import BoardConnection

    place = BoardPlace(port=args.port, usb_id=args.usb_id or PICO_USB_ID)

    def show(source: str, seat: int | None, button: str, gesture: str) -> None:
        who = "table" if seat is None else f"seat {seat + 1}"
        print(f"{who}: {button} {'long press' if gesture == 'HOLD' else 'tap'}", flush=True)

    def alert(text: str, source: str, kind: str) -> None:
        print(text, flush=True)

    connection = BoardConnection(place, on_gesture=show, on_alert=alert).start()
    end = time.monotonic() + args.seconds if args.seconds else None
    status = ""
    try:
        while end is None or time.monotonic() < end:
            if connection.status != status:
                status = connection.status
                print(status, flush=True)
            time.sleep(0.05)
    except KeyboardInterrupt:
        pass
    finally:
        connection.stop()
    stats = connection.stats()
    print("received: " + ", ".join(f"{k} {v}" for k, v in sorted(stats.items())))
    return 0 if stats.get("frames", 0) else 1


# -- flashing -------------------------------------------------------------------------------------

BOARD_DEVICE = "/dev/pinochle-board"  # the udev rule's name for the Pico (deploy/)


def find_mpremote() -> str | None:
    """mpremote from this program's own venv (install-pi.sh puts it there), else on PATH."""
    beside = Path(sys.executable).parent / "mpremote"
    return str(beside) if beside.exists() else shutil.which("mpremote")


def flash_commands(port: str | None, mpremote: str = "mpremote") -> list[list[str]]:
    """The mpremote calls that put the board's program on a Pico running MicroPython.

    `resume`: no soft reset on connecting. Ctrl-C hands the running board to the REPL with a
    timer feeding its watchdog (firmware/main.py); a soft reset would stop that timer and the
    watchdog would restart the board in the middle of the copy."""
    base = [mpremote, *(["connect", port] if port else []), "resume"]
    make_dir = (f"import os\ntry:\n os.mkdir('{BOARD_PACKAGE}')\n"
                "except OSError:\n pass")  # already there from an earlier flash
    calls = [[*base, "exec", make_dir]]
    files = [str(FIRMWARE / name) for name in FIRMWARE_MODULES]
    calls.append([*base, "cp", *files, f":{BOARD_PACKAGE}/"])
    calls.append([*base, "cp", str(FIRMWARE / "main.py"), ":main.py"])
    calls.append([*base, "reset"])
    return calls


def _board_flash(args: argparse.Namespace) -> int:
    from table.cli_common import CommandError

    port = args.port or (BOARD_DEVICE if Path(BOARD_DEVICE).exists() else None)
    mpremote = find_mpremote()
    calls = flash_commands(port, mpremote or "mpremote")
    if args.dry_run:
        for call in calls:
            print(" ".join(repr(a) if "\n" in a else a for a in call))
        return 0
    if mpremote is None:
        raise CommandError("mpremote is not installed: `pip install mpremote` (install-pi.sh "
                           "puts it in the table's venv), or run with --dry-run to see the "
                           "commands")
    for call in calls:
        result = subprocess.run(call, check=False)
        if result.returncode != 0:
            where = port or "the Pico mpremote found"
            raise CommandError(f"mpremote failed ({' '.join(call[1:5])} ...) on {where}: is "
                               "the Pico plugged in, running MicroPython, and not open "
                               "elsewhere (sudo systemctl stop pinochle-table)?")
    print("flashed: the board restarts with the new program")
    return 0
