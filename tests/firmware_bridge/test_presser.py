"""Simulated fingers on mock pins, with the panel on the real clock and its timer thread."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from firmware_bridge.config import Timing, default_wiring
from firmware_bridge.gpio import GpioControls
from firmware_bridge.panel import ControlPanel
from firmware_bridge.presser import PinPresser
from table.rules import BidMade, Passed
from table.session import Session

from .conftest import accepted, turn, wait_until


def test_fingers_bid_and_pass_in_real_time(open_session: Callable[..., Session],
                                           pin_factory: Any) -> None:
    session = open_session("brooklyn")
    wiring = replace(default_wiring(3),
                     timing=Timing(debounce_ms=20, hold_ms=250, raise_window_ms=400))
    panel = ControlPanel(session, wiring.timing).start()
    pins = GpioControls(wiring, panel, pin_factory=pin_factory)
    fingers = PinPresser(pin_factory, wiring)
    try:
        first = turn(session)
        fingers.bid(session.game, first, 350)
        assert wait_until(lambda: len(accepted(session)) == 2)
        fingers.press(turn(session), "PASS")
        assert wait_until(lambda: len(accepted(session)) == 3)
        bid, passed = accepted(session)[1:]
        assert isinstance(bid, BidMade) and (bid.seat, bid.amount) == (first, 350)
        assert isinstance(passed, Passed)
        with pytest.raises(ValueError, match="not a bid"):
            fingers.bid(session.game, turn(session), 355)
    finally:
        panel.stop()
        pins.close()
