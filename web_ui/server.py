"""Serving the app with waitress (threads, so live streams work), and stopping cleanly.

Every live stream holds one of waitress's threads, so the server gets `MAX_STREAMS` threads more
than it needs for ordinary requests. Stopping ends the streams first (the table closes), then
the server.

Limits, so that one guest on the Wi-Fi cannot take the page from the phones at the table:
- waitress's own settings (`LIMITS`): bodies of at most 64 KiB and headers of 16 KiB, refused
  before they are read; idle connections closed; slow readers cannot pile up output. And on
  each connection TCP keepalive and a user timeout (`SOCKET_OPTIONS`), so a phone that
  vanished (no FIN) is cut within about 30 s.
- What waitress cannot do, two small hooks on its own classes (`GuardedServer`): at most
  `PER_CLIENT` connections from one address (more are closed unread, so one address cannot
  fill waitress's connection limit) and `REQUEST_DEADLINE_S` to send a whole request (one that
  trickles a byte every few seconds is closed, whatever its address). Waitress reads requests
  in its event loop, not in a thread, so slow ones only cost a socket until they are cut.
"""

from __future__ import annotations

import logging
import socket
import sys
import threading
import time
from typing import Any, TextIO

from flask import Flask
from waitress import wasyncore  # type: ignore[import-untyped]
from waitress.adjustments import Adjustments  # type: ignore[import-untyped]
from waitress.channel import HTTPChannel  # type: ignore[import-untyped]
from waitress.server import TcpWSGIServer  # type: ignore[import-untyped]
from waitress.task import ThreadedTaskDispatcher  # type: ignore[import-untyped]

from .context import web_table

log = logging.getLogger(__name__)

SPARE_THREADS = 8  # for pages and actions while every stream slot is taken
PER_CLIENT = 16  # connections from one address (a phone opens ~6; a laptop with tabs more)
REQUEST_DEADLINE_S = 10.0  # to send a whole request, headers and body
LIVE_TIMEOUT_S = 30  # a phone that does not acknowledge what it is sent for this long is gone

LIMITS: dict[str, Any] = {
    "max_request_body_size": 64 * 1024,
    "max_request_header_size": 16 * 1024,
    "connection_limit": 256,           # the per-address limit keeps room for the phones
    "channel_timeout": 30,             # an idle keep-alive connection is closed after this
    "channel_request_lookahead": 1,    # keeps reading while a stream runs: sees a phone leave
    "outbuf_high_watermark": 1 << 20,  # a phone that stops reading holds at most 1 MiB
}
# set on each accepted connection (waitress sets only TCP_NODELAY)
SOCKET_OPTIONS = [
    (socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),
    (socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1),
    *[(socket.IPPROTO_TCP, getattr(socket, name), value) for name, value in (
        ("TCP_KEEPIDLE", 10), ("TCP_KEEPINTVL", 5), ("TCP_KEEPCNT", 4),
        ("TCP_USER_TIMEOUT", LIVE_TIMEOUT_S * 1000)) if hasattr(socket, name)],
]


class GuardedChannel(HTTPChannel):
    """Waitress's connection, counted per client address and timed while a request arrives."""

    def __init__(self, server: GuardedServer, sock: socket.socket, addr: Any, adj: Any,
                 map: Any = None) -> None:
        super().__init__(server, sock, addr, adj, map)
        self.client = str(addr[0]) if isinstance(addr, tuple) else str(addr)
        self.arriving_since: float | None = None
        self._counted = server.count(self.client, +1)
        if not self._counted:
            self.will_close = True  # closed by the event loop before anything is read

    def received(self, data: bytes) -> bool:
        result: bool = super().received(data)
        if self.request is None:
            self.arriving_since = None  # nothing half-received
        elif self.arriving_since is None:
            self.arriving_since = time.monotonic()
        return result

    def del_channel(self, map: Any = None) -> None:
        super().del_channel(map)
        if self._counted:
            self._counted = False
            self.server.count(self.client, -1)


class GuardedServer(TcpWSGIServer):
    """Waitress's TCP server with the two limits above."""

    channel_class = GuardedChannel

    def __init__(self, app: Any, adj: Any, per_client: int, deadline_s: float) -> None:
        self.per_client = per_client
        self.deadline_s = deadline_s
        self.clients: dict[str, int] = {}
        self.refused = 0
        self._clients_lock = threading.Lock()
        dispatcher = ThreadedTaskDispatcher()
        dispatcher.set_thread_count(adj.threads)
        super().__init__(app, {}, True, None, dispatcher=dispatcher, adj=adj,
                         sockinfo=adj.listen[0])

    def set_socket_options(self, conn: socket.socket) -> None:
        for level, name, value in SOCKET_OPTIONS:
            conn.setsockopt(level, name, value)

    def count(self, client: str, step: int) -> bool:
        """Count a connection of `client` in (+1: False if it already has too many) or out."""
        with self._clients_lock:
            now = self.clients.get(client, 0)
            if step > 0 and now >= self.per_client:
                self.refused += 1
                return False
            if now + step > 0:
                self.clients[client] = now + step
            else:
                self.clients.pop(client, None)
            return True

    def maintenance(self, now: float) -> None:
        super().maintenance(now)  # idle connections
        late = time.monotonic() - self.deadline_s
        for channel in list(self.active_channels.values()):
            since = getattr(channel, "arriving_since", None)
            if since is not None and since < late:
                channel.will_close = True


class TableServer:
    """`app` served on `host:port` (port 0 picks a free one) in a background thread."""

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 0,
                 per_client: int = PER_CLIENT, deadline_s: float = REQUEST_DEADLINE_S) -> None:
        self.app = app
        threads = int(app.config["MAX_STREAMS"]) + SPARE_THREADS
        adj = Adjustments(host=host, port=port, threads=threads, ident="pinochle-table",
                          clear_untrusted_proxy_headers=True,
                          cleanup_interval=max(1, int(deadline_s / 2)), **LIMITS)
        self._server: Any = GuardedServer(app, adj, per_client, deadline_s)
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
