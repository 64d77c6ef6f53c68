"""What every request passes before a view sees it, and what every answer carries.

- The Host header must be this table (an IP address, localhost, this machine's name, or one of
  `ALLOWED_HOSTS`): a web page elsewhere that points its own name at the table's address (DNS
  rebinding) gets 421, not the game.
- A request body must be JSON (`Content-Type: application/json`) and is parsed here, bounded:
  at most `MAX_CONTENT_LENGTH` bytes (Flask refuses more unread) and `MAX_DEPTH` levels deep.
- Answers say what they are (`nosniff`), may not be framed by another site, send no referrer.
- `HistoryCache` keeps /api/history's pages: the journal is only ever appended to, so a page
  is built once per (game, last entry, last alert) and every reader after that gets the bytes.
"""

from __future__ import annotations

import ipaddress
import json
import re
import socket
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from flask import Flask, Response, current_app, jsonify, request

from table.json_limits import MAX_DEPTH, too_deep

_NUMBER = re.compile(r"-?[0-9]{1,12}")


class BadInput(Exception):
    """A request body the table cannot read: `status` and a message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def whole_number(text: str) -> int | None:
    """`text` as a whole number written in ASCII digits (not '²' or '٣'), else None."""
    text = text.strip()
    return int(text) if _NUMBER.fullmatch(text) else None


def json_body() -> dict[str, Any]:
    """The request's JSON object ({} without a body); `BadInput` when it is not one."""
    if not request.content_length:
        return {}
    cached = request.environ.get("pinochle.body")
    if isinstance(cached, dict):
        return cached
    try:
        data = json.loads(request.get_data(cache=True))
    except (ValueError, RecursionError):
        raise BadInput(400, "the body is not JSON; send a JSON object") from None
    if not isinstance(data, dict):
        raise BadInput(400, "send a JSON object (Content-Type: application/json)")
    if too_deep(data):
        raise BadInput(400, f"the JSON is nested more than {MAX_DEPTH} levels deep")
    request.environ["pinochle.body"] = data
    return data


def _own_names() -> set[str]:
    name = socket.gethostname().lower()
    return {"localhost", name, f"{name}.local", name.split(".")[0]}


def host_allowed(host: str, extra: tuple[str, ...] | list[str]) -> bool:
    """True if `host` (a Host header, port and all) names this table."""
    name = host.strip().lower()
    if name.startswith("["):  # [::1]:8000
        name = name[1:name.find("]")] if "]" in name else name
    elif name.count(":") == 1:
        name = name.rsplit(":", 1)[0]
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    return name in _own_names() or name in {h.lower() for h in extra}


def _refuse(status: int, message: str) -> tuple[Response, int]:
    return jsonify({"error": message}), status


def install_guards(app: Flask) -> None:
    @app.before_request
    def _check() -> tuple[Response, int] | None:
        host = request.headers.get("Host", "")
        if not host_allowed(host, current_app.config["ALLOWED_HOSTS"]):
            return _refuse(421, f"this table does not answer to {host[:60]!r}; open it by "
                                "its own address (shown on the table's screen)")
        if request.method == "POST" and request.content_length and not request.is_json:
            return _refuse(415, "send the body as JSON (Content-Type: application/json)")
        return None

    @app.after_request
    def _headers(response: Response) -> Response:
        h = response.headers
        h.setdefault("X-Content-Type-Options", "nosniff")
        h.setdefault("X-Frame-Options", "DENY")
        h.setdefault("Content-Security-Policy", "frame-ancestors 'none'; base-uri 'none'")
        h.setdefault("Referrer-Policy", "no-referrer")
        h.setdefault("Cross-Origin-Resource-Policy", "same-origin")
        if request.path.startswith("/api/"):
            h.setdefault("Cache-Control", "no-store")
        return response


class HistoryCache:
    """Built /api/history answers, by key; the oldest go first past `size`."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._pages: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()
        self.built = 0

    def get(self, key: tuple[Any, ...], build: Callable[[], bytes]) -> bytes:
        with self._lock:
            page = self._pages.get(key)
            if page is not None:
                self._pages.move_to_end(key)
                return page
        page = build()  # outside the lock: two readers may build the same page once each
        with self._lock:
            self.built += 1
            self._pages[key] = page
            while len(self._pages) > self.size:
                self._pages.popitem(last=False)
        return page
