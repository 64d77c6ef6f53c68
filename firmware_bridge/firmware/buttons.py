"""A button's raw level over time, turned into what the player did: a TAP or a HOLD.

Debouncing takes the first edge at once (no added delay) and ignores the contacts' chatter for
`debounce_ms` after it; when that window ends the level is read again, so a tap shorter than
the window is not lost. A press becomes a HOLD as soon as it has lasted `hold_ms` (the release
then reports nothing), and a TAP when it is let go before that.

Used by the board's program (MicroPython: no imports) and by the Pi's GPIO path.
"""

TAP = "TAP"
HOLD = "HOLD"


class ButtonTracker:
    """Feed it the raw level (True = pressed) with the time in ms; it says TAP or HOLD."""

    def __init__(self, debounce_ms: float = 25, hold_ms: float = 700) -> None:
        self.debounce_ms = debounce_ms
        self.hold_ms = hold_ms
        self.pressed = False        # the debounced level
        self._raw = False
        self._quiet_at = -1.0e18    # chatter is ignored until this time
        self._pressed_at = 0.0
        self._held = False

    def feed(self, level: bool, now: float) -> str | None:
        """A raw reading (an edge, or a poll of the pin)."""
        self._raw = level
        return self.tick(now)

    def tick(self, now: float) -> str | None:
        """Time has passed with the raw level unchanged."""
        if self._raw != self.pressed and now >= self._quiet_at:
            self.pressed = self._raw
            self._quiet_at = now + self.debounce_ms
            if self.pressed:
                self._pressed_at = now
                self._held = False
                return None
            return None if self._held else TAP
        if self.pressed and not self._held and now - self._pressed_at >= self.hold_ms:
            self._held = True
            return HOLD
        return None

    def deadline(self) -> float | None:
        """When `tick` may next have something to say (None: not until the next edge)."""
        if self._raw != self.pressed:
            return self._quiet_at
        if self.pressed and not self._held:
            return self._pressed_at + self.hold_ms
        return None
