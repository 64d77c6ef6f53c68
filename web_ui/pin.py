"""The table PIN: anything that changes the game needs it; looking needs nothing.

The PIN comes in the `X-Table-PIN` header (the page sends it from the phone's storage) or as
`pin` in a small JSON body. Wrong guesses are counted for the whole table, not per address (a
guest can take any number of addresses on the Wi-Fi): after `WRONG_TRIES` wrong PINs within
`LOCKOUT_S`, every change is refused until that window has passed, so a four-digit PIN takes
days to walk through. Each wrong PIN is logged and shown on the page with the address it came
from (see `WrongPin`).
"""

from __future__ import annotations

import hmac
import logging
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)

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


@dataclass(frozen=True)
class WrongPin:
    """A wrong PIN was given: from where, and from where the ones within the window came
    (this one last)."""

    address: str
    addresses: tuple[str, ...]
    locked: bool

    @property
    def recent(self) -> int:
        return len(self.addresses)

    def text(self) -> str:
        lock = f"; changes are locked for {int(LOCKOUT_S)} seconds" if self.locked else ""
        where = ", ".join(dict.fromkeys(self.addresses))
        return (f"{self.recent} wrong table PIN{'s' if self.recent > 1 else ''} in the last "
                f"{int(LOCKOUT_S)} seconds, from {where}{lock}.")


class PinGuard:
    def __init__(self, pin: str | None, clock: Callable[[], float] = time.monotonic,
                 on_wrong: Callable[[WrongPin], object] | None = None) -> None:
        self.pin = pin or None
        self.on_wrong = on_wrong
        self._clock = clock
        self._lock = threading.Lock()
        self._wrong: deque[tuple[float, str]] = deque()
        self.wrong_total = 0

    def check(self, given: str | None, address: str) -> PinRefusal | None:
        """None if `given` is the PIN; otherwise why not."""
        if self.pin is None:
            return PinRefusal(403, "this table has no PIN set, so the page can only watch; "
                                   "start the server with --pin to allow changes")
        now = self._clock()
        with self._lock:
            while self._wrong and now - self._wrong[0][0] >= LOCKOUT_S:
                self._wrong.popleft()
            if len(self._wrong) >= WRONG_TRIES:
                wait = int(LOCKOUT_S - (now - self._wrong[0][0])) + 1
                return PinRefusal(429, f"too many wrong PINs were tried at this table; changes "
                                       f"are locked for {wait} more seconds")
        if not given:
            return PinRefusal(401, "this needs the table PIN (it is shown on the table's "
                                   "screen); enter it on the page")
        if hmac.compare_digest(given.strip().encode(), self.pin.encode()):
            return None
        with self._lock:
            self._wrong.append((now, address))
            self.wrong_total += 1
            wrong = WrongPin(address, tuple(a for _, a in self._wrong),
                             len(self._wrong) >= WRONG_TRIES)
        log.warning("wrong table PIN from %s (%d within %d s)", address, wrong.recent,
                    int(LOCKOUT_S))
        if self.on_wrong is not None:
            self.on_wrong(wrong)
        return PinRefusal(403, "wrong table PIN; check the number on the table's screen")
