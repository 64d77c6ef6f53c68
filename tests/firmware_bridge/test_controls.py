"""Both wirings at once: GPIO pins and the serial board feed one session."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from firmware_bridge.config import BoardPlace, default_wiring
from firmware_bridge.controls import open_controls, pin_factory
from firmware_bridge.simboard import SimulatedBoard
from table.rules import Passed
from table.session import Session

from .conftest import accepted, settle, turn, wait_until


def test_gpio_and_serial_together(open_session: Callable[..., Session], tmp_path: Path,
                                  pin_factory: Any) -> None:
    session = open_session("brooklyn")
    board = SimulatedBoard(3, tmp_path / "board").start()
    wiring = replace(default_wiring(3), board=BoardPlace(port=str(tmp_path / "board"),
                                                         usb_id=None))
    controls = open_controls(session, wiring, factory=pin_factory)
    try:
        assert controls.board is not None and controls.board.wait_linked(5)
        first = turn(session)
        pin = pin_factory.pin(wiring.seats[first].pass_)
        pin.drive_low()
        time.sleep(0.05)  # the panel runs on the real clock here: a 50 ms press
        pin.drive_high()
        assert wait_until(lambda: turn(session) != first)
        board.press(turn(session), "PASS")
        assert wait_until(lambda: len(accepted(session)) == 3)
        settle(session)
        passes = accepted(session)[1:]
        assert [type(e) for e in passes] == [Passed, Passed]
        assert [e.source for e in passes] == ["gpio", "serial"]
    finally:
        controls.stop()
        board.stop()


def test_pin_factory_names() -> None:
    assert pin_factory(None) is None
    mock = pin_factory("mock")
    try:
        assert type(mock).__name__ == "MockFactory"
    finally:
        mock.close()
