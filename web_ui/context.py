"""What the views share: the `WebTable` kept on the app (never in a module global), and
`web_table()` to reach it from a view, as flaskr's views reach the database through `get_db()`.
The blueprints import this module, never the factory."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from flask import Flask, current_app

from table.alerts import Alert
from table.journal import Journal
from table.rules import Rules
from table.session import Session

from .camera import CameraView
from .guard import HistoryCache
from .live import LiveTable
from .pin import PinGuard, WrongPin

StartGame = Callable[[Rules, Sequence[str], int], Session]
EXTENSION = "pinochle"  # the key of the table in `app.extensions`


@dataclass
class WebTable:
    """What the views share, kept on the app (never in a module global)."""

    live: LiveTable
    guard: PinGuard
    camera: CameraView | None
    journal: Journal | None
    start_game: StartGame | None
    max_streams: int
    per_client: int = 4
    history: HistoryCache = field(default_factory=HistoryCache)
    streams: int = 0
    by_client: dict[str, int] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def open_stream(self, client: str) -> str | None:
        """Count one more live stream of `client` (its address); why not, when there are too
        many in all or from that client (each holds a thread)."""
        with self._lock:
            if self.by_client.get(client, 0) >= self.per_client:
                return (f"this phone already has {self.per_client} live views open; close one "
                        "(another tab?) and reload")
            if self.streams >= self.max_streams:
                return "too many phones are watching live; close the page on another one and reload"
            self.streams += 1
            self.by_client[client] = self.by_client.get(client, 0) + 1
            return None

    def close_stream(self, client: str) -> None:
        with self._lock:
            self.streams -= 1
            left = self.by_client.get(client, 0) - 1
            if left > 0:
                self.by_client[client] = left
            else:
                self.by_client.pop(client, None)

    def wrong_pin(self, wrong: WrongPin) -> None:
        """Show wrong PINs on every phone, one alert saying how many and from where (the guard
        has logged each)."""
        session = self.live.session
        board = self.live.board
        for item in board.snapshot()[0]:
            if item["kind"] == "wrong-pin":
                board.dismiss(item["id"])
        board.add_alert(Alert(kind="wrong-pin", text=wrong.text(), source="web",
                                        at=time.time(), details={"address": wrong.address}),
                                  session.last_number if session else 0)
        self.live.refresh()

    def begin(self, rules: Rules, names: Sequence[str], dealer: int) -> Session:
        """Start a new game and follow it."""
        if self.start_game is not None:
            session = self.start_game(rules, names, dealer)
            if self.live.session is not session:
                self.live.switch(session)
            return session
        if self.journal is None:
            raise RuntimeError("no journal to start a game in")
        old = self.live.session
        session = Session.create(self.journal, rules, names, dealer).start()
        self.live.switch(session)
        if old is not None:
            old.stop(5)
        return session

    @property
    def can_start(self) -> bool:
        return self.start_game is not None or self.journal is not None

    def close(self) -> None:
        """End every stream (so the server can stop); the session is left to its owner."""
        self.live.close()


def web_table(app: Flask | None = None) -> WebTable:
    """The table of `app` (default: the app handling this request)."""
    target = app if app is not None else current_app
    table: WebTable = target.extensions[EXTENSION]
    return table
