"""Everything at once: the panel, the GPIO buttons and the serial board, for one session.

    controls = open_controls(session, gpio=True, board=True)   # from `pinochle-table run`
    ...
    controls.stop()

A table can be wired either way, or both: both end in the same events, marked with their source.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from .config import Wiring, default_wiring
from .gpio import GpioControls
from .panel import ControlPanel
from .ports import SessionPort
from .serial_board import BoardConnection

log = logging.getLogger(__name__)


def pin_factory(name: str | None) -> Any:
    """A gpiozero pin factory by name: "mock" (no hardware), "lgpio" (a Pi 5), or None for
    gpiozero's own choice (it reads GPIOZERO_PIN_FACTORY)."""
    if name is None:
        return None
    if name == "mock":
        from gpiozero.pins.mock import MockFactory

        return MockFactory()
    if name == "lgpio":
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    raise ValueError(f"unknown pin factory {name!r}; use mock or lgpio")


@dataclass
class Controls:
    panel: ControlPanel
    gpio: GpioControls | None
    board: BoardConnection | None

    def stop(self) -> None:
        if self.board is not None:
            self.board.stop()
        self.panel.stop()
        if self.gpio is not None:
            self.gpio.close()


def open_controls(session: SessionPort, wiring: Wiring | None = None, gpio: bool = True,
                  board: bool = True, factory: Any = None) -> Controls:
    """Start the panel for `session`, with the GPIO pins of `wiring` (default: the layout for
    the game's number of seats) and/or the serial board it names."""
    wiring = wiring or default_wiring(session.game.rules.table_seats)
    panel = ControlPanel(session, wiring.timing).start()
    pins = None
    try:
        if gpio:
            pins = GpioControls(wiring, panel, pin_factory=factory)
        connection = BoardConnection(wiring.board, panel, seats=len(wiring.seats)).start() \
            if board else None
    except Exception:
        panel.stop()
        if pins is not None:
            pins.close()
        raise
    return Controls(panel, pins, connection)
