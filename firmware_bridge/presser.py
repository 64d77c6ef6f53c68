"""Simulated fingers for demos and tests: press the seat buttons on mock GPIO pins, the way
`SimulatedBoard.press` presses them on the simulated serial board.

    fingers = PinPresser(factory, wiring)
    fingers.press(2, "BID")                  # a tap at seat 3
    fingers.bid(game, 2, 350)                # as many taps as it takes to say 350

Presses take real time (the panel's clock is the real one in a demo).
"""

from __future__ import annotations

import time
from typing import Any

from .config import Wiring
from .language import BID, PASS, UNDO, taps_to_bid

TAP_S = 0.06  # a quick finger, longer than the debounce window


class PinPresser:
    def __init__(self, factory: Any, wiring: Wiring) -> None:
        self.factory = factory
        self.wiring = wiring

    def press(self, seat: int | None, button: str, hold: bool = False) -> None:
        """Press and let go (seat None: the table's UNDO); blocks for the press's length."""
        pin = self.factory.pin(self._pin(seat, button))
        pin.drive_low()  # the button joins the pin to ground
        time.sleep(self.wiring.timing.hold_ms / 1000 + TAP_S if hold else TAP_S)
        pin.drive_high()
        time.sleep(self.wiring.timing.debounce_ms / 1000 + 0.005)

    def bid(self, game: Any, seat: int, amount: int) -> None:
        """Tap BID until the raise reaches `amount`, then confirm it with a long press."""
        taps = taps_to_bid(game, seat, amount)
        if taps is None:
            raise ValueError(f"{amount} is not a bid seat {seat + 1} can raise to now")
        for _ in range(taps):
            self.press(seat, BID)
        self.press(seat, BID, hold=True)

    def _pin(self, seat: int | None, button: str) -> int:
        if seat is None or button == UNDO:
            return self.wiring.undo
        if not 0 <= seat < len(self.wiring.seats):
            raise ValueError(f"there is no seat {seat + 1} in this wiring")
        pins = self.wiring.seats[seat]
        if button not in (BID, PASS):
            raise ValueError(f"a seat has BID and PASS, not {button}")
        return pins.bid if button == BID else pins.pass_
