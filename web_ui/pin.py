"""The table PIN: anything that changes the game needs it; looking needs nothing.

The PIN comes in the `X-Table-PIN` header (the page sends it from the phone's storage) or as
`pin` in a JSON body. A few wrong guesses from one address lock that address out for a minute,
so a four-digit PIN cannot be walked through on the table's Wi-Fi.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

HEADER = "X-Table-PIN"
WRONG_TRIES = 5
LOCKOUT_S = 60.0


def new_pin(digits: int = 4) -> str:
    """A random PIN to print on the console."""
    return "".join(str(secrets.randbelow(10)) for _ in range(digits))


@dataclass(frozen=True)
class PinRefusal:
    """Why an action is not allowed: HTTP status and a message a player can act on."""

    status: int
    message: str


class PinGuard:
    def __init__(self, pin: str | None, clock: Callable[[], float] = time.monotonic) -> None:
        self.pin = pin or None
        self._clock = clock
        self._lock = threading.Lock()
        self._wrong: dict[str, list[float]] = {}

    def check(self, given: str | None, address: str) -> PinRefusal | None:
        """None if `given` is the PIN; otherwise why not."""
        if self.pin is None:
            return PinRefusal(403, "this table has no PIN set, so the page can only watch; "
                                   "start the server with --pin to allow changes")
        now = self._clock()
        with self._lock:
            recent = [t for t in self._wrong.get(address, []) if now - t < LOCKOUT_S]
            self._wrong[address] = recent
            if len(recent) >= WRONG_TRIES:
                wait = int(LOCKOUT_S - (now - recent[0])) + 1
                return PinRefusal(429, f"too many wrong PINs from this phone; try again in "
                                       f"{wait} seconds")
        if not given:
            return PinRefusal(401, "this needs the table PIN (it is shown on the table's "
                                   "screen); enter it on the page")
        if hmac.compare_digest(given.strip().encode(), self.pin.encode()):
            return None
        with self._lock:
            self._wrong.setdefault(address, []).append(now)
        return PinRefusal(403, "wrong table PIN; check the number on the table's screen")
