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

from collections.abc import Mapping
from typing import Any

from flask import Flask
from werkzeug.exceptions import HTTPException

from table.journal import Journal
from table.session import Session

from . import api, games, pages, stream
from .camera import CameraView
from .context import EXTENSION, StartGame, WebTable, web_table
from .guard import install_guards
from .live import LiveTable
from .pin import PinGuard

__all__ = ["create_app", "web_table"]

DEFAULTS: dict[str, Any] = {"HEARTBEAT_S": 15.0, "MAX_STREAMS": 40, "STREAMS_PER_CLIENT": 4,
                            "CAMERA_FPS": 5.0, "SUBMIT_TIMEOUT_S": 10.0,
                            "MAX_CONTENT_LENGTH": 64 * 1024, "HISTORY_PAGE": 200,
                            "ALLOWED_HOSTS": ()}



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
    app.extensions[EXTENSION] = table
    install_guards(app)

    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(stream.bp)
    app.register_error_handler(HTTPException, api.http_error)
    return app
