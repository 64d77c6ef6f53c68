"""A simulated serial board: the board's own program (firmware/board.py) on a pty pair.

The Pi side opens the pty's slave end with pyserial exactly as it opens a real board; `path`
can be a stable symlink to it, like /dev/serial/by-id/... . Presses are simulated on the
board's pins (with contact bounce if asked), and the cable can be pulled and put back:
`unplug()` closes the pty as a USB unplug would (the Pi's reads fail), `unplug(power_off=True)`
also forgets everything, as a Pico powered from USB does, and `replug()` brings a new pty.

Long presses move the board's clock forward rather than waiting, so a simulated hold is quick.
"""

from __future__ import annotations

import errno
import os
import secrets
import select
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path

from .firmware.board import Board
from .language import BID, PASS, UNDO

TABLE = "T"


class SimulatedBoard:
    def __init__(self, seats: int = 4, path: Path | str | None = None,
                 debounce_ms: float = 25, hold_ms: float = 700,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.buttons = [(str(s), name) for s in range(seats) for name in (BID, PASS)]
        self.buttons.append((TABLE, UNDO))
        self.link_path = Path(path) if path is not None else None
        self.debounce_ms = debounce_ms
        self.hold_ms = hold_ms
        self.clock = clock
        self.on_write: Callable[[bytes], object] | None = None  # each line, just before
        self.dropped = 0  # bytes written while unplugged, lost as on a real cable
        self.deaf = False  # True: what the Pi sends is lost (acknowledgements too)
        self._levels = [False] * len(self.buttons)
        self._offset_ms = 0.0
        self._lock = threading.RLock()
        self._master = -1
        self._slave = -1
        self._pts = ""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.board = self._boot()

    # -- the cable ------------------------------------------------------------------------------

    @property
    def path(self) -> str:
        """What the Pi opens: the symlink if one was asked for, else the pty itself."""
        return str(self.link_path) if self.link_path is not None else self._pts

    @property
    def plugged(self) -> bool:
        return self._master >= 0

    def start(self) -> SimulatedBoard:
        with self._lock:
            self._plug()
        self._thread = threading.Thread(target=self._run, name="simulated-board", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=3)
            self._thread = None
        with self._lock:
            self._unplug()

    def unplug(self, power_off: bool = False) -> None:
        with self._lock:
            self._unplug()
            if power_off:
                self.board = self._boot()  # comes back as a freshly started board

    def replug(self) -> None:
        with self._lock:
            if not self.plugged:
                self._plug()

    def inject(self, data: bytes) -> None:
        """Raw bytes towards the Pi: REPL chatter, line noise, forged frames."""
        with self._lock:
            self._send(data)

    # -- the buttons -----------------------------------------------------------------------------

    def press(self, seat: int | None, button: str, hold: bool = False, bounce: int = 0) -> None:
        """Press and release one button (`seat` None: the table's UNDO); `bounce` adds that
        many chattering contacts, 1 ms apart, at the press and at the release."""
        key = (TABLE if seat is None else str(seat), button)
        i = self.buttons.index(key)
        with self._lock:
            self._chatter(i, bounce, settle=True)
            self._offset_ms += self.hold_ms + 20 if hold else self.debounce_ms + 30
            self._scan()
            self._chatter(i, bounce, settle=False)
            self._offset_ms += self.debounce_ms + 5
            self._scan()

    def lights(self) -> list[bool]:
        """The eight lights as they are now (seats 0-3, spades, hearts, clubs, diamonds)."""
        with self._lock:
            return self.board.light_levels(self._now())

    def linked(self) -> bool:
        """The board hears the Pi."""
        with self._lock:
            return self.board.link.alive(self._now())

    def buzzing(self) -> bool:
        with self._lock:
            return self.board.buzzing(self._now())

    # -- internals -------------------------------------------------------------------------------

    def _boot(self) -> Board:
        return Board(self.buttons, self._send, self._now(), secrets.token_hex(4), os.urandom,
                     self.debounce_ms, self.hold_ms)

    def _now(self) -> float:
        return self.clock() * 1000 + self._offset_ms

    def _chatter(self, i: int, bounce: int, settle: bool) -> None:
        for _ in range(bounce):
            self._levels[i] = settle
            self._scan()
            self._offset_ms += 1
            self._levels[i] = not settle
            self._scan()
            self._offset_ms += 1
        self._levels[i] = settle
        self._scan()

    def _scan(self) -> None:
        now = self._now()
        self.board.scan(self._levels, now)

    def _plug(self) -> None:
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no line editing: a plain byte pipe like USB CDC
        os.set_blocking(self._master, False)
        self._pts = os.ttyname(self._slave)
        if self.link_path is not None:
            tmp = self.link_path.with_name(self.link_path.name + ".new")
            tmp.unlink(missing_ok=True)
            tmp.symlink_to(self._pts)
            os.replace(tmp, self.link_path)

    def _unplug(self) -> None:
        if self.link_path is not None:
            self.link_path.unlink(missing_ok=True)
        for fd in (self._master, self._slave):
            if fd >= 0:
                os.close(fd)
        self._master = self._slave = -1

    def _send(self, data: bytes) -> None:
        if self._master < 0:
            self.dropped += len(data)
            return
        if self.on_write is not None:
            self.on_write(data)
        try:
            os.write(self._master, data)
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.EIO):
                raise
            self.dropped += len(data)  # nobody reading: the line is lost, as on a cable

    def _run(self) -> None:
        while not self._stop.is_set():
            fd = self._master
            ready = False
            if fd >= 0:
                try:
                    ready = bool(select.select([fd], [], [], 0.005)[0])
                except (OSError, ValueError):  # closed by unplug() meanwhile
                    ready = False
            else:
                time.sleep(0.005)
            with self._lock:
                data = b""
                if ready and self._master == fd:
                    try:
                        data = os.read(fd, 4096)
                    except OSError:
                        data = b""
                now = self._now()
                if data and not self.deaf:
                    self.board.receive(data, now)
                self.board.scan(self._levels, now)
                self.board.tick(now)
