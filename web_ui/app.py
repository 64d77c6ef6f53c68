"""The app factory: `create_app(config)` is handed the session and everything else it needs.

Config keys (all optional except that changes need a PIN):
- `SESSION`: the `table.session.Session` that owns the game (None before the first game).
- `JOURNAL`: the `Journal` new games are started in (default: the session's).
- `START_GAME`: `(rules, names, first_dealer) -> Session`, how the whole table starts a new
  game (the runner passes one that re-points the camera and buttons too); by default the page
  starts a session in the journal, follows it and stops the old one.
- `PIN`: the table PIN; without one the page can only watch.
- `CAMERA`: a `web_ui.camera.CameraView` for the setup page.
- `HEARTBEAT_S` (15), `MAX_STREAMS` (40), `CAMERA_FPS` (5), `SUBMIT_TIMEOUT_S` (10).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, current_app
from werkzeug.exceptions import HTTPException

from table.journal import Journal
from table.rules import Rules
from table.session import Session

from .camera import CameraView
from .live import LiveTable
from .pin import PinGuard

StartGame = Callable[[Rules, Sequence[str], int], Session]

DEFAULTS: dict[str, Any] = {"HEARTBEAT_S": 15.0, "MAX_STREAMS": 40, "CAMERA_FPS": 5.0,
                            "SUBMIT_TIMEOUT_S": 10.0}


@dataclass
class WebTable:
    """What the views share, kept on the app (never in a module global)."""

    live: LiveTable
    guard: PinGuard
    camera: CameraView | None
    journal: Journal | None
    start_game: StartGame | None
    max_streams: int
    streams: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def open_stream(self) -> bool:
        """Count one more live stream; False when there are too many (each holds a thread)."""
        with self._lock:
            if self.streams >= self.max_streams:
                return False
            self.streams += 1
            return True

    def close_stream(self) -> None:
        with self._lock:
            self.streams -= 1

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
    app.extensions["pinochle"] = WebTable(
        live=LiveTable(session, table_flags, camera), guard=guard, camera=camera, journal=journal,
        start_game=start_game, max_streams=int(app.config["MAX_STREAMS"]))

    from . import api, pages, stream
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(stream.bp)
    app.register_error_handler(HTTPException, api.http_error)
    return app


def web_table(app: Flask | None = None) -> WebTable:
    """The table of `app` (default: the app handling this request)."""
    target = app if app is not None else current_app
    table: WebTable = target.extensions["pinochle"]
    return table
