"""The app factory: `create_app(config)` is handed the session and everything else it needs.

Config keys (all optional except that changes need a PIN):
- `SESSION`: the `table.session.Session` that owns the game (None before the first game).
- `JOURNAL`: the `Journal` new games are started in (default: the session's).
- `START_GAME`: `(rules, names, first_dealer) -> Session`, how the whole table starts a new
  game (the runner passes one that re-points the camera and buttons too); by default the page
  starts a session in the journal, follows it and stops the old one.
- `PIN`: the table PIN; without one the page can only watch.
- `CAMERA`: a `web_ui.camera.CameraView` for the setup page.
- `HEARTBEAT_S` (15), `MAX_STREAMS` (40), `STREAMS_PER_CLIENT` (4), `CAMERA_FPS` (5),
  `SUBMIT_TIMEOUT_S` (10), `MAX_CONTENT_LENGTH` (64 KiB: a larger body is refused unread),
  `HISTORY_PAGE` (200 entries at most per /api/history answer).
- `ALLOWED_HOSTS`: names besides IP addresses, localhost and this machine's name that the page
  answers to (any other Host header is refused: DNS rebinding).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, current_app
from werkzeug.exceptions import HTTPException

from table.alerts import Alert
from table.journal import Journal
from table.rules import Rules
from table.session import Session

from .camera import CameraView
from .guard import HistoryCache, install_guards
from .live import LiveTable
from .pin import PinGuard, WrongPin

StartGame = Callable[[Rules, Sequence[str], int], Session]

DEFAULTS: dict[str, Any] = {"HEARTBEAT_S": 15.0, "MAX_STREAMS": 40, "STREAMS_PER_CLIENT": 4,
                            "CAMERA_FPS": 5.0, "SUBMIT_TIMEOUT_S": 10.0,
                            "MAX_CONTENT_LENGTH": 64 * 1024, "HISTORY_PAGE": 200,
                            "ALLOWED_HOSTS": ()}


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


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    app.config.update(DEFAULTS)
    app.config.update(config or {})
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    session: Session | None = app.config.get("SESSION")
    journal: Journal | None = app.config.get("JOURNAL") or (session.journal if session else None)
    camera: CameraView | None = app.config.get("CAMERA")
    guard = PinGuard(app.config.get("PIN"))
    start_game: StartGame | None = app.config.get("START_GAME")
    table_flags = {"pin": guard.pin is not None, "camera": camera is not None,
                   "new_games": start_game is not None or journal is not None,
                   "heartbeat_s": float(app.config["HEARTBEAT_S"])}
    table = WebTable(
        live=LiveTable(session, table_flags, camera), guard=guard, camera=camera, journal=journal,
        start_game=start_game, max_streams=int(app.config["MAX_STREAMS"]),
        per_client=int(app.config["STREAMS_PER_CLIENT"]))
    guard.on_wrong = table.wrong_pin
    app.extensions["pinochle"] = table
    install_guards(app)

    from . import api, games, pages, stream
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(stream.bp)
    app.register_error_handler(HTTPException, api.http_error)
    return app


def web_table(app: Flask | None = None) -> WebTable:
    """The table of `app` (default: the app handling this request)."""
    target = app if app is not None else current_app
    table: WebTable = target.extensions["pinochle"]
    return table
