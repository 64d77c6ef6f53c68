"""The USB serial board, seen from the Pi: found, opened exclusively, read by a thread.

The thread keeps the board connected: it finds the port (a /dev/serial/by-id path, or the USB
vendor:product id), opens it exclusively, shakes hands, passes each button gesture to the panel,
and sends the lights and buzzer. Unplugging (a read error, or a board silent past the dead time)
closes the port and it tries again with a growing pause; once linked again the board is sent the
lights as they should be. Presses the board sent but had no acknowledgement for come again and
are recognised as replays, so none is lost or doubled.

A press is taken only as the wiring has it: a seat button (BID, PASS) of a seat the wiring has,
or the table's UNDO ("T"); anything else (`99 UNDO TAP`) is counted as unknown and ignored. A
HELLO with a resume number far ahead is ignored by the link (see firmware/link.py) and the
players are told once. So are HELLOs the link refuses: one answering an earlier connection's
challenge (a replayed message), one answering a challenge never sent (a forgery), one from a
board whose firmware predates the challenge (flash it again); each is told once until the board
links again.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

from .config import BoardPlace
from .firmware.board import BUTTON, BUZZ, LEDS
from .firmware.link import LINKED, Link
from .language import BUTTONS, GESTURES, UNDO
from .panel import ControlPanel

log = logging.getLogger(__name__)

SOURCE = "serial"
BAUD = 115200  # ignored by USB CDC, but pyserial wants one


class LinkDead(Exception):
    """The board stopped answering."""


def find_board(place: BoardPlace) -> str | None:
    """The device path of the board, or None if it is not plugged in."""
    if place.port:
        return place.port if os.path.exists(place.port) else None
    vid_pid = place.vid_pid
    if vid_pid is None:
        return None
    from serial.tools import list_ports

    for info in sorted(list_ports.comports(), key=lambda p: p.device):
        if (info.vid, info.pid) == vid_pid:
            return str(info.device)
    return None


class BoardConnection:
    """One board, kept connected by a thread; an output of the panel (lights and buzzer)."""

    def __init__(self, place: BoardPlace, panel: ControlPanel | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 backoff: tuple[float, float] = (0.05, 2.0), dead_ms: float = 3500,
                 nonce: str | None = None,
                 on_gesture: Callable[[str, int | None, str, str], object] | None = None,
                 on_alert: Callable[[str, str, str], object] | None = None,
                 seats: int | None = None) -> None:
        """With a `panel`, gestures go to it and it drives the lights; without one, give
        `on_gesture(source, seat, button, gesture)` and `on_alert(text, source, kind)`.
        `seats`: how many seats the wiring has (presses of other seats are ignored)."""
        self.place = place
        self.seats = seats
        self._far_told = 0
        self._refusals_told = 0
        self._refusals_said: set[str] = set()   # what was told since the board last linked
        self._refusals_at_open = 0
        self.on_gesture = on_gesture or (panel.gesture if panel is not None else None)
        self.on_alert = on_alert or (panel.device_alert if panel is not None else None)
        self.clock = clock
        self.backoff = backoff
        self.port: str | None = None
        self.status = "not started"
        self.reconnects = 0
        self.unknown = 0
        self._link = Link(nonce or secrets.token_hex(4), self._write, self._ms(), os.urandom,
                          dead_ms=dead_ms)
        self._lock = threading.Lock()
        self._lights = (0, 0)
        self._lights_sent: tuple[int, int] | None = None
        self._buzzes: list[tuple[int, int, int]] = []
        self._serial: Any = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._linked = threading.Event()
        self._ever_linked = False
        if panel is not None:
            panel.add_output(self)

    # -- the panel's output ------------------------------------------------------------------

    def show(self, lit: int, blink: int) -> None:
        with self._lock:
            self._lights = (lit, blink)
        self._nudge()

    def buzz(self, on_ms: int, off_ms: int, times: int) -> None:
        with self._lock:
            self._buzzes.append((on_ms, off_ms, times))
        self._nudge()

    # -- running -----------------------------------------------------------------------------

    def start(self) -> BoardConnection:
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="serial-board", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._nudge()
        if self._thread is not None:
            self._thread.join(timeout=3)
            self._thread = None

    @property
    def linked(self) -> bool:
        return self._linked.is_set()

    def wait_linked(self, timeout: float) -> bool:
        return self._linked.wait(timeout)

    def stats(self) -> dict[str, int]:
        """What was received and dropped: frames, noise, torn lines, replays, ..."""
        with self._lock:
            out = dict(self._link.stats)
        out["reconnects"] = self.reconnects
        out["unknown-message"] = self.unknown
        return out

    # -- the thread ---------------------------------------------------------------------------

    def _run(self) -> None:
        delay = self.backoff[0]
        while not self._stop.is_set():
            port = find_board(self.place)
            if port is None:
                self._set_status(f"waiting for the board ({self._where()})")
            else:
                try:
                    self._serve(port)
                except LinkDead:
                    refused = self._link.refused if self._link.refusals > self._refusals_at_open \
                        else None
                    self._set_status(f"the board on {port} did not link: {refused}" if refused
                                     else f"the board on {port} stopped answering; is its "
                                     "firmware running? (`pinochle-table board-check`)")
                except (OSError, ValueError) as exc:  # SerialException is an OSError
                    what = "was unplugged" if self._linked.is_set() else "is not usable"
                    self._set_status(f"the board on {port} {what}: {exc}")
                except Exception as exc:  # a fault of ours: report it, keep trying
                    log.exception("serial board: the connection failed")
                    self._set_status(f"the connection to the board on {port} failed: {exc}")
                if self._stop.is_set():
                    self._linked.clear()
                    return
                if self._lost():
                    delay = self.backoff[0]  # it was working a moment ago: look again soon
            if self._stop.wait(delay):
                return
            delay = min(delay * 2, self.backoff[1])

    def _serve(self, port: str) -> None:
        import serial

        ser = serial.Serial(port, BAUD, timeout=0.05, exclusive=True)
        try:
            ser.reset_input_buffer()
            with self._lock:
                self._serial = ser
                self.port = port
                self._link.drop_outbox()  # stale lights; fresh ones follow the handshake
                self._link.restart(self._ms())
                self._refusals_at_open = self._link.refusals
                self._lights_sent = None
                self._buzzes.clear()
            self._set_status(f"shaking hands with the board on {port}")
            unconfirmed_since: float | None = self._ms()
            while not self._stop.is_set():
                data = ser.read(max(1, ser.in_waiting))
                now = self._ms()
                with self._lock:
                    messages = self._link.receive(data, now) if data else []
                self._tell_far_resume()
                self._tell_refused()
                for kind, args in messages:
                    try:
                        self._obey(kind, args)
                    except Exception:  # a fault past the link must not stop the reader
                        log.exception("serial board: could not act on %s %s", kind, args)
                with self._lock:
                    self._send_state(now)
                    self._link.tick(now)
                    alive = self._link.alive(now)
                    confirmed = self._link.confirmed
                if confirmed:
                    unconfirmed_since = None
                elif unconfirmed_since is None:
                    unconfirmed_since = now
                waiting = unconfirmed_since is not None and \
                    now - unconfirmed_since > self._link.dead_ms
                if (self._linked.is_set() and not alive) or waiting:
                    raise LinkDead()
        finally:
            with self._lock:
                self._serial = None
            ser.close()

    def _obey(self, kind: str, args: list[str]) -> None:
        if kind == LINKED:
            first = not self._ever_linked
            self._ever_linked = True
            self._refusals_said.clear()
            self._linked.set()
            with self._lock:
                self._lights_sent = None  # the board is told the lights as they should be
            self._set_status(f"board linked on {self.port}: {self.board_info()}")
            if not first and self.on_alert is not None:
                self.on_alert("The button board is back.", SOURCE, "device-connected")
        elif kind == BUTTON and len(args) == 3 and args[1] in BUTTONS and args[2] in GESTURES \
                and self._wired(args[0], args[1]):
            seat = None if args[0] == "T" else int(args[0])
            if self.on_gesture is not None:
                self.on_gesture(SOURCE, seat, args[1], args[2])
        else:
            self.unknown += 1
            log.warning("serial board: ignored %s %s (not a button of this wiring)", kind,
                        " ".join(args)[:60])

    def _wired(self, where: str, button: str) -> bool:
        """The table's UNDO, or a seat button of a seat the wiring has."""
        if where == "T":
            return button == UNDO
        if button == UNDO or not (where.isascii() and where.isdigit()) or len(where) > 2:
            return False
        return self.seats is None or int(where) < self.seats

    def _tell_far_resume(self) -> None:
        far = self._link.stats.get("far-resume", 0)
        if far > self._far_told:
            self._far_told = far
            if self.on_alert is not None:
                self.on_alert("The button board's link got a hello that did not fit (a resume "
                              "number far ahead) and ignored it. If the buttons stop working, "
                              "unplug the board and plug it in again.", SOURCE, "device-garbled")

    def _tell_refused(self) -> None:
        """A HELLO the link refused: logged, and told to the players once until the board links
        again (an old board that never links is not told of again and again)."""
        with self._lock:
            count, text = self._link.refusals, self._link.refused
        if count == self._refusals_told or text is None:
            return
        self._refusals_told = count
        log.warning("serial board: %s", text)
        if text in self._refusals_said:
            return
        self._refusals_said.add(text)
        if not self._link.confirmed:
            self._set_status(f"the board on {self.port}: {text}")
        if self.on_alert is not None:
            self.on_alert(f"The button board's link: {text}.", SOURCE, "device-garbled")

    def board_info(self) -> str:
        """What the board said of itself in its HELLO: firmware, buttons, chip id."""
        with self._lock:
            info = list(self._link.peer_info)
        firmware = info[0] if info else "unknown firmware"
        buttons = f", {info[1]} buttons" if len(info) > 1 else ""
        chip = f", id {info[2]}" if len(info) > 2 and info[2] != "-" else ""
        return f"{firmware}{buttons}{chip}"

    def _send_state(self, now: float) -> None:
        """Lights and buzzes for the board (lock held)."""
        if not self._link.confirmed:
            return
        if self._lights != self._lights_sent:
            lit, blink = self._lights
            self._link.send(LEDS, [f"{lit:X}", f"{blink:X}"], now)
            self._lights_sent = self._lights
        for on_ms, off_ms, times in self._buzzes:
            self._link.send(BUZZ, [str(on_ms), str(off_ms), str(times)], now)
        self._buzzes.clear()

    def _lost(self) -> bool:
        """The connection ended; True if it had been linked (the players are told)."""
        if not self._linked.is_set():
            return False
        self._linked.clear()
        self.reconnects += 1
        if self.on_alert is not None:
            self.on_alert("The button board was unplugged: presses on it are not seen "
                          "until it is back.", SOURCE, "device-unplugged")
        return True

    def _write(self, data: bytes) -> None:
        ser = self._serial
        if ser is not None:
            ser.write(data)

    def _nudge(self) -> None:
        ser = self._serial
        if ser is not None:
            with contextlib.suppress(OSError):
                ser.cancel_read()  # the thread sends at once instead of after its read timeout

    def _set_status(self, text: str) -> None:
        if text != self.status:
            log.info("serial board: %s", text)
        self.status = text

    def _where(self) -> str:
        return self.place.port or f"USB id {self.place.usb_id}"

    def _ms(self) -> float:
        return self.clock() * 1000

