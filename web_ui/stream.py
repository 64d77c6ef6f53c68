"""Live streams: server-sent events with the whole state, and the camera's MJPEG picture.

A phone that connects (or reconnects after sleeping, with `Last-Event-ID`) is sent the present
state at once unless it already has it; then each new state, and a heartbeat event when nothing
happens, so that dead connections are noticed on both ends and their threads freed. Every stream
ends when the table closes, so the server can shut down cleanly.
"""

from __future__ import annotations

from collections.abc import Iterator

from flask import Blueprint, Response, current_app, jsonify, request

from .app import WebTable, web_table
from .camera import BOUNDARY, mjpeg

bp = Blueprint("stream", __name__)

RETRY_MS = 2000  # how soon the browser reconnects after losing the stream
# An event, not a comment: the page's watchdog must see it (comments never reach scripts).
HEARTBEAT = b"event: ping\ndata: {}\n\n"


def _too_many() -> tuple[Response, int]:
    return jsonify({"error": "too many phones are watching live; close the page on another "
                             "one and reload"}), 503


def _state_stream(table: WebTable, seen: str | None, heartbeat: float) -> Iterator[bytes]:
    live = table.live
    yield f"retry: {RETRY_MS}\n\n".encode()
    while not live.closed:
        message = live.wait(seen, heartbeat)
        if message is None:
            if live.closed:
                return
            yield HEARTBEAT
            continue
        seen = message.id
        yield message.sse()


@bp.get("/events")
def events() -> Response | tuple[Response, int]:
    table = web_table()
    if not table.open_stream():
        return _too_many()
    seen = request.headers.get("Last-Event-ID") or request.args.get("last")
    response = Response(_state_stream(table, seen, float(current_app.config["HEARTBEAT_S"])),
                        mimetype="text/event-stream",
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    response.call_on_close(table.close_stream)
    return response


@bp.get("/camera.mjpg")
def camera() -> Response | tuple[Response, int]:
    table = web_table()
    if table.camera is None:
        return jsonify({"error": "this table has no camera view"}), 404
    if not table.open_stream():
        return _too_many()
    live = table.live
    frames = mjpeg(table.camera, float(current_app.config["CAMERA_FPS"]), lambda: live.closed)
    response = Response(frames, mimetype=f"multipart/x-mixed-replace; boundary={BOUNDARY}",
                        headers={"Cache-Control": "no-cache"})
    response.call_on_close(table.close_stream)
    return response
