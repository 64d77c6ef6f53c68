"""The live table as the page sees it: the current session, its alert board, and the latest
state message that every connected phone is sent.

The session tells its subscribers on its own worker thread, so the subscriber here only queues
the notice; a thread of ours updates the board, builds the state once and wakes every stream.
Each message is the whole state, so a phone never needs a backlog: a stream just sends the
latest message it has not sent yet (a slow phone skips states; it never falls behind).
"""

from __future__ import annotations

import json
import logging
import queue
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from table.alerts import Alert
from table.session import Outcome, Session

from .board import AlertBoard
from .camera import CameraView
from .state import page_state
from .words import describe

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Message:
    """One state message for the streams: `id` is `<boot>-<serial>`."""

    id: str
    number: int
    data: str

    def sse(self) -> bytes:
        return f"id: {self.id}\nevent: state\ndata: {self.data}\n\n".encode()


_REFRESH = object()  # a queue item that only asks for a new message (the board changed)
_STOP = object()


class LiveTable:
    """Links the page to the session that owns the game (or to none before the first game)."""

    def __init__(self, session: Session | None, table: dict[str, Any] | None = None,
                 camera: CameraView | None = None) -> None:
        self.board = AlertBoard()
        self.table = dict(table or {})
        self.camera = camera
        self.boot = secrets.token_hex(3)
        self._session: Session | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._lock = threading.Lock()
        self._changed = threading.Condition(threading.Lock())
        self._serial = 0
        self._closed = False
        self._inbox: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._latest = Message(f"{self.boot}-0", 0, "{}")
        self.switch(session)
        self._publish()
        self._thread = threading.Thread(target=self._run, daemon=True, name="web-live")
        self._thread.start()

    # -- the session ---------------------------------------------------------------------------

    @property
    def session(self) -> Session | None:
        return self._session

    def switch(self, session: Session | None) -> None:
        """Follow another session (a new game); the board starts empty."""
        with self._lock:
            if self._unsubscribe is not None:
                self._unsubscribe()
            self._session = session
            self._unsubscribe = session.subscribe(self._inbox.put) if session else None
        self.board.clear()
        self._inbox.put(_REFRESH)

    def refresh(self) -> None:
        """Send every phone a fresh state (after the board changed)."""
        self._inbox.put(_REFRESH)

    def state(self) -> dict[str, Any]:
        """The present state, built now from the session."""
        session = self._session
        camera = self.camera.status() if self.camera is not None else None
        if session is None:
            return page_state(None, [], 0, None, self.board, self.table, camera)
        return page_state(session.game, session.accepted(), session.last_number,
                          session.game_id, self.board, self.table, camera)

    # -- the streams ----------------------------------------------------------------------------

    @property
    def latest(self) -> Message:
        return self._latest

    @property
    def closed(self) -> bool:
        return self._closed

    def wait(self, seen: str | None, timeout: float) -> Message | None:
        """The latest message if its id is not `seen`; else wait up to `timeout` seconds for
        one. None on timeout or once the table is closed."""
        with self._changed:
            self._changed.wait_for(lambda: self._closed or self._latest.id != seen, timeout)
            if self._closed or self._latest.id == seen:
                return None
            return self._latest

    def close(self) -> None:
        """End every stream and stop following the session (the session itself goes on)."""
        with self._lock:
            if self._unsubscribe is not None:
                self._unsubscribe()
                self._unsubscribe = None
        with self._changed:
            self._closed = True
            self._changed.notify_all()
        self._inbox.put(_STOP)
        self._thread.join(5)

    # -- the worker -----------------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            item = self._inbox.get()
            items = [item]
            while True:  # take everything already waiting, then build one message for it all
                try:
                    items.append(self._inbox.get_nowait())
                except queue.Empty:
                    break
            try:
                for it in items:
                    self._note(it)
                if _STOP in items:
                    return
                self._publish()
            except Exception:  # the page must outlive one bad notice
                log.exception("the live page could not take a notice")

    def _note(self, item: object) -> None:
        session = self._session
        if isinstance(item, Outcome):
            names = item.game.names
            if item.accepted:
                self.board.accepted(item.event)
            elif item.number is not None or item.reason:
                self.board.add_refusal(item.number or 0, describe(item.event, names),
                                       item.reason or "refused", item.event.source,
                                       item.event.at)
        elif isinstance(item, Alert):
            self.board.add_alert(item, session.last_number if session else 0)

    def _publish(self) -> None:
        state = self.state()
        with self._changed:
            self._serial += 1
            self._latest = Message(f"{self.boot}-{self._serial}", int(state["number"]),
                                   json.dumps(state, separators=(",", ":"),
                                              ensure_ascii=False))
            self._changed.notify_all()
