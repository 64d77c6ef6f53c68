"""Serving the app with waitress (threads, so live streams work), and stopping cleanly.

Every live stream holds one of waitress's threads, so the server gets `MAX_STREAMS` threads more
than it needs for ordinary requests. Stopping ends the streams first (the table closes), then
the server.
"""

from __future__ import annotations

import logging
import socket
import sys
import threading
from typing import Any, TextIO

from flask import Flask
from waitress import wasyncore  # type: ignore[import-untyped]
from waitress.server import create_server  # type: ignore[import-untyped]

from .app import web_table

log = logging.getLogger(__name__)

SPARE_THREADS = 8  # for pages and actions while every stream slot is taken


class TableServer:
    """`app` served on `host:port` (port 0 picks a free one) in a background thread."""

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 0) -> None:
        self.app = app
        threads = int(app.config["MAX_STREAMS"]) + SPARE_THREADS
        self._server: Any = create_server(app, host=host, port=port, threads=threads,
                                          ident="pinochle-table",
                                          clear_untrusted_proxy_headers=True)
        self.host = host
        self.port: int = self._server.effective_port
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}/"

    def start(self) -> TableServer:
        self._thread = threading.Thread(target=self._serve, daemon=True, name="web-server")
        self._thread.start()
        return self

    def _serve(self) -> None:
        try:
            self._server.run()
        except (OSError, ValueError):  # `stop` closed the sockets while the loop polled them
            log.debug("the web server's loop ended", exc_info=True)

    def serve_forever(self) -> None:
        """Serve in this thread until stopped (Ctrl-C comes out as KeyboardInterrupt)."""
        self._serve()

    def stop(self) -> None:
        web_table(self.app).close()  # every stream ends, so its thread comes free
        self._server.task_dispatcher.shutdown(timeout=5)
        wasyncore.close_all(self._server._map)  # the listening socket and every connection
        if self._thread is not None:
            self._thread.join(10)

    def __enter__(self) -> TableServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def page_address(host: str, port: int) -> str:
    """The address a phone on the same network types in."""
    if host not in ("0.0.0.0", ""):
        return f"http://{host}:{port}/"
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 9))  # no packet is sent: this only picks a route
            ip = probe.getsockname()[0]
        except OSError:
            ip = "127.0.0.1"
    return f"http://{ip}:{port}/"


def print_qr(address: str, out: TextIO | None = None) -> None:
    """The address as a QR code in the terminal, for phones to scan."""
    import segno

    segno.make(address, error="m").terminal(out=out or sys.stdout, compact=True)
