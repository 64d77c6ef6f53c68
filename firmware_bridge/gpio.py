"""Seat buttons, turn lights, suit lights and the buzzer on the Pi's own GPIO (gpiozero).

The pin factory is injected: `MockFactory` in tests and on a laptop, lgpio on a Pi 5 (or
whatever `GPIOZERO_PIN_FACTORY` names when none is given). gpiozero's own bounce_time and
hold_time are not used: the panel debounces and times holds on its own clock, the same way on
mock pins and real ones.
"""

from __future__ import annotations

from typing import Any

from .config import Wiring
from .language import BID, PASS, UNDO
from .panel import SUIT_BIT, ControlPanel

SOURCE = "gpio"
BLINK_S = 0.25


class GpioControls:
    """Opens every pin of `wiring` and connects them to `panel` (as one of its outputs)."""

    def __init__(self, wiring: Wiring, panel: ControlPanel, pin_factory: Any = None) -> None:
        from gpiozero import LED, Button, Buzzer  # imported here: `--help` stays fast

        self.wiring = wiring
        self.panel = panel
        self._devices: list[Any] = []
        self.buttons: dict[tuple[int | None, str], Any] = {}
        self.lights: dict[int, Any] = {}  # by bit: seats 0-3, suits 4-7
        self.buzzer: Any = None
        self._state: dict[int, str] = {}
        try:
            for seat, pins in enumerate(wiring.seats):
                self._button(Button, seat, BID, pins.bid, pin_factory)
                self._button(Button, seat, PASS, pins.pass_, pin_factory)
                self.lights[seat] = self._open(LED, pins.light, pin_factory)
            self._button(Button, None, UNDO, wiring.undo, pin_factory)
            for i, pin in enumerate(wiring.suit_lights):
                if pin is not None:
                    self.lights[SUIT_BIT + i] = self._open(LED, pin, pin_factory)
            if wiring.buzzer is not None:
                self.buzzer = self._open(Buzzer, wiring.buzzer, pin_factory)
        except Exception:
            self.close()
            raise
        panel.add_output(self)

    def show(self, lit: int, blink: int) -> None:
        for bit, led in self.lights.items():
            state = "blink" if blink >> bit & 1 else "on" if lit >> bit & 1 else "off"
            if self._state.get(bit) == state:
                continue  # restarting a blink would make it stutter
            self._state[bit] = state
            if state == "blink":
                led.blink(on_time=BLINK_S, off_time=BLINK_S, background=True)
            elif state == "on":
                led.on()
            else:
                led.off()

    def buzz(self, on_ms: int, off_ms: int, times: int) -> None:
        if self.buzzer is not None:
            self.buzzer.beep(on_time=on_ms / 1000, off_time=max(off_ms, 1) / 1000, n=times,
                             background=True)

    def close(self) -> None:
        for device in reversed(self._devices):
            device.close()
        self._devices.clear()

    def _open(self, cls: Any, pin: int, pin_factory: Any) -> Any:
        device = cls(pin, pin_factory=pin_factory)
        self._devices.append(device)
        return device

    def _button(self, cls: Any, seat: int | None, name: str, pin: int, pin_factory: Any) -> None:
        button = cls(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
        self._devices.append(button)
        button.when_pressed = lambda: self.panel.edge(SOURCE, seat, name, True)
        button.when_released = lambda: self.panel.edge(SOURCE, seat, name, False)
        self.buttons[(seat, name)] = button
