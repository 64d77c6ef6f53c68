"""How long a press takes to reach the session: from a pin edge (gpiozero mock pins) or a
serial line (the simulated board on a pty, read by the real connection) to the event being
queued in a real session.

    .venv/bin/python bench/bench_controls.py [--presses 300] [--timed 30]

Taps are measured from the release edge (a tap is known when the button comes up) or from
the moment the board's line is written. Long presses are measured from the hold time being
reached, and raised bids from the end of the raise window: those two show how promptly the
panel's timer wakes. Presses alternate PASS (for the seat to act) and UNDO, so the game stays
in the auction. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from firmware_bridge.config import BoardPlace, Timing, default_wiring
from firmware_bridge.gpio import GpioControls
from firmware_bridge.panel import ControlPanel
from firmware_bridge.serial_board import BoardConnection
from firmware_bridge.simboard import SimulatedBoard
from table.alerts import Alert
from table.journal import Journal
from table.rules import BidMade, Event, HandDealt, Passed, Undone, preset
from table.session import Session

TIMING = Timing(debounce_ms=25, hold_ms=200, raise_window_ms=300)


class Stamped:
    """The real session, noting when each event is handed to its queue."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.stamps: list[tuple[float, Event]] = []
        self._lock = threading.Lock()

    @property
    def game(self) -> Any:
        return self.session.game

    def post(self, event: Event) -> Future[Any]:
        now = time.monotonic()
        with self._lock:
            self.stamps.append((now, event))
        return self.session.post(event)

    def subscribe(self, callback: Callable[..., Any]) -> Callable[[], None]:
        return self.session.subscribe(callback)

    def alert(self, alert: Alert) -> Any:
        return self.session.alert(alert)

    def settle(self) -> None:
        self.session.alert(Alert(kind="note", text="bench: settle")).result(timeout=10)

    def next_stamp(self, count: int, kind: type[Event] = Event, timeout: float = 5.0) -> float:
        """When the event after the first `count` was queued; it must be a `kind`."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self._lock:
                if len(self.stamps) > count:
                    at, event = self.stamps[count]
                    if not isinstance(event, kind):
                        raise RuntimeError(f"expected a {kind.__name__}, got {event.describe()}")
                    return at
            time.sleep(0.0005)
        raise RuntimeError("a press never reached the session")


def figures(samples: list[float]) -> tuple[float, float]:
    """(median, 99th percentile) in ms."""
    ms = sorted(s * 1000 for s in samples)
    p99 = statistics.quantiles(ms, n=100, method="inclusive")[98] if len(ms) > 1 else ms[0]
    return statistics.median(ms), p99


def new_session(folder: Path, name: str) -> Stamped:
    journal = Journal(folder / f"{name}.db")
    session = Session.create(journal, preset("brooklyn"), ["N", "E", "S"]).start()
    session.submit(HandDealt(dealer=0, source="bench"), timeout=10)
    return Stamped(session)


def bench_gpio(folder: Path, presses: int, timed: int) -> dict[str, list[float]]:
    from gpiozero.pins.mock import MockFactory

    session = new_session(folder, "gpio")
    wiring = default_wiring(3)
    factory = MockFactory()
    panel = ControlPanel(session, TIMING).start()
    controls = GpioControls(wiring, panel, pin_factory=factory)
    out: dict[str, list[float]] = {"tap": [], "hold": [], "raise": []}
    try:
        def pin(seat: int | None, button: str) -> Any:
            if seat is None:
                return factory.pin(wiring.undo)
            return factory.pin(getattr(wiring.seats[seat], "bid" if button == "BID"
                                       else "pass_"))

        def press(seat: int | None, button: str, hold: bool = False) -> float:
            """Press and let go; the reference time: the release, or the hold time reached."""
            p = pin(seat, button)
            p.drive_low()
            down = time.monotonic()
            time.sleep(TIMING.hold_ms / 1000 + 0.05 if hold else 0.03)
            up = time.monotonic()
            p.drive_high()
            return down + TIMING.hold_ms / 1000 if hold else up

        for i in range(presses):
            seat = session.game.turn if i % 2 == 0 else None
            count = len(session.stamps)
            ref = press(seat, "PASS" if seat is not None else "UNDO")
            out["tap"].append(session.next_stamp(count, Passed if seat is not None else Undone)
                              - ref)
            session.settle()
            time.sleep(0.03)  # past the debounce window of the last release
        for _ in range(timed):
            count = len(session.stamps)
            tapped = press(session.game.turn, "BID")
            out["raise"].append(session.next_stamp(count, BidMade) - tapped
                                - TIMING.raise_window_ms / 1000)
            session.settle()
            time.sleep(0.03)
            count = len(session.stamps)
            ref = press(None, "UNDO", hold=True)  # takes the bid back: the same auction again
            out["hold"].append(session.next_stamp(count, Undone) - ref)
            session.settle()
            time.sleep(0.03)
    finally:
        panel.stop()
        controls.close()
        factory.close()
        session.session.stop(timeout=10)
    return out


def bench_serial(folder: Path, presses: int) -> list[float]:
    session = new_session(folder, "serial")
    board = SimulatedBoard(3, folder / "board", TIMING.debounce_ms, TIMING.hold_ms).start()
    written: list[float] = []
    board.on_write = lambda data: written.append(time.monotonic()) if b" BTN " in data else None
    panel = ControlPanel(session, TIMING).start()
    link = BoardConnection(BoardPlace(port=str(folder / "board"), usb_id=None), panel).start()
    samples: list[float] = []
    try:
        if not link.wait_linked(10):
            raise RuntimeError(f"the simulated board did not link: {link.status}")
        for i in range(presses):
            count, lines = len(session.stamps), len(written)
            seat = session.game.turn if i % 2 == 0 else None
            board.press(seat, "PASS" if seat is not None else "UNDO")
            reached = session.next_stamp(count, Passed if seat is not None else Undone)
            samples.append(reached - written[lines])
            session.settle()
    finally:
        link.stop()
        panel.stop()
        board.stop()
        session.session.stop(timeout=10)
    return samples


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=300, help="taps per path")
    parser.add_argument("--timed", type=int, default=30, help="long presses and raised bids")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        gpio = bench_gpio(folder, args.presses, args.timed)
        serial_taps = bench_serial(folder, args.presses)
    result: dict[str, Any] = {"bench": "controls", "python": platform.python_version(),
                              "presses": args.presses, "timed": args.timed}
    rows = [("gpio tap (release edge -> queue)", "gpio_tap", gpio["tap"]),
            ("serial tap (line written -> queue)", "serial_tap", serial_taps),
            ("gpio long press (hold time reached -> queue)", "gpio_hold", gpio["hold"]),
            ("gpio raised bid (window closed -> queue)", "gpio_raise", gpio["raise"])]
    for label, key, samples in rows:
        median, p99 = figures(samples)
        print(f"{label:46} median {median:6.2f} ms   p99 {p99:6.2f} ms   (n={len(samples)})")
        result[f"{key}_median_ms"] = round(median, 3)
        result[f"{key}_p99_ms"] = round(p99, 3)
    worst = max(result[f"{key}_p99_ms"] for _, key, _ in rows)
    result["target_p99_ms"] = 20
    result["meets_target"] = worst < 20
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
