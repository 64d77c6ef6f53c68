"""Live streams: server-sent events with the whole state, and the camera's MJPEG picture.

A phone that connects (or reconnects after sleeping, with `Last-Event-ID`) is sent the present
state at once unless it already has it; then each new state, and a heartbeat event when nothing
happens, so that dead connections are noticed on both ends and their threads freed. Every stream
ends when the table closes, so the server can shut down cleanly.

Each phone (client address) may hold `STREAMS_PER_CLIENT` streams, the table `MAX_STREAMS`. A
phone that closes its page frees its slot within `GONE_POLL_S` (waitress tells us the client
went away); one that vanishes from the Wi-Fi is cut by TCP (see server.py: a heartbeat that is
not acknowledged within the user timeout ends the connection) and its slot freed then.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from flask import Blueprint, Response, current_app, jsonify, request

from .camera import BOUNDARY, mjpeg
from .context import WebTable, web_table

bp = Blueprint("stream", __name__)

RETRY_MS = 2000  # how soon the browser reconnects after losing the stream
# An event, not a comment: the page's watchdog must see it (comments never reach scripts).
HEARTBEAT = b"event: ping\ndata: {}\n\n"
GONE_POLL_S = 1.0  # how often a quiet stream asks whether its phone has gone


def _refused(why: str) -> tuple[Response, int]:
    return jsonify({"error": why}), 503


def _client_gone() -> Callable[[], bool]:
    """Whether this request's client has closed its connection (waitress can tell; another
    server, or the test client, cannot: then only a failed write ends the stream)."""
    check = request.environ.get("waitress.client_disconnected")
    return check if callable(check) else (lambda: False)


def _state_stream(table: WebTable, seen: str | None, heartbeat: float,
                  gone: Callable[[], bool]) -> Iterator[bytes]:
    live = table.live
    yield f"retry: {RETRY_MS}\n\n".encode()
    quiet = 0.0
    while not live.closed and not gone():
        step = min(heartbeat - quiet, GONE_POLL_S)
        message = live.wait(seen, step)
        if message is None:
            if live.closed:
                return
            quiet += step
            if quiet >= heartbeat:
                quiet = 0.0
                yield HEARTBEAT
            continue
        quiet = 0.0
        seen = message.id
        yield message.sse()


def _client() -> str:
    return request.remote_addr or "?"


@bp.get("/events")
def events() -> Response | tuple[Response, int]:
    table = web_table()
    client = _client()
    refusal = table.open_stream(client)
    if refusal is not None:
        return _refused(refusal)
    seen = request.headers.get("Last-Event-ID") or request.args.get("last")
    heartbeat = float(current_app.config["HEARTBEAT_S"])
    response = Response(_state_stream(table, seen, heartbeat, _client_gone()),
                        mimetype="text/event-stream",
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    response.call_on_close(lambda: table.close_stream(client))
    return response


@bp.get("/camera.mjpg")
def camera() -> Response | tuple[Response, int]:
    table = web_table()
    if table.camera is None:
        return jsonify({"error": "this table has no camera view"}), 404
    client = _client()
    refusal = table.open_stream(client)
    if refusal is not None:
        return _refused(refusal)
    live = table.live
    gone = _client_gone()
    frames = mjpeg(table.camera, float(current_app.config["CAMERA_FPS"]),
                   lambda: live.closed or gone())
    response = Response(frames, mimetype=f"multipart/x-mixed-replace; boundary={BOUNDARY}",
                        headers={"Cache-Control": "no-cache"})
    response.call_on_close(lambda: table.close_stream(client))
    return response
