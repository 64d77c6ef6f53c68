"""How fast the live page reaches every phone, and how heavy the page is.

A real session and journal (a temporary SQLite file), the app served by waitress on loopback,
and 50 server-sent-event clients in a separate process (so their reading does not compete with
the server for the interpreter). A simulated bison game is submitted one event at a time; for
each, the time from `submit` to the moment the last of the 50 clients has the new state.
Beside them, 8 readers (another process) fetch the whole /api/history page by page, over and
over, as a phone showing the journal would. Each phone and reader has its own loopback address
(127.0.0.x), as phones on the Wi-Fi have theirs (the server limits connections per address).
Also the page weight: the HTML (with the embedded state) plus its CSS and script.

    .venv/bin/python bench/bench_web.py [--clients 50] [--events 150] [--readers 8]

Ends with one JSON line.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import random
import re
import selectors
import socket
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from multiprocessing.connection import Connection
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from table.journal import Journal
from table.rules import play_game, preset
from table.session import Session
from web_ui.app import create_app
from web_ui.server import TableServer

NUMBER = re.compile(rb'event: state\ndata: \{"game_id":\d+,"number":(\d+),')
WAIT_S = 5.0


def clients(port: int, count: int, pipe: Connection) -> None:
    """Open `count` streams; report (number, monotonic time) once every stream has it."""
    sel = selectors.DefaultSelector()
    buffers: dict[socket.socket, bytes] = {}
    have: dict[socket.socket, int] = {}
    for i in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=WAIT_S,
                                     source_address=(phone_address(i), 0))
        s.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  b"Accept: text/event-stream\r\n\r\n")
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ, s)
        buffers[s], have[s] = b"", -1
    reported = -1
    deadline = time.monotonic() + 600  # a bound on the whole run
    while time.monotonic() < deadline:
        if pipe.poll():
            break  # the parent is done
        for key, _ in sel.select(0.2):
            conn: socket.socket = key.data
            data = conn.recv(1 << 20)
            if not data:
                sel.unregister(conn)
                continue
            buf = buffers[conn] + data
            last = None
            for last in NUMBER.finditer(buf):
                have[conn] = max(have[conn], int(last.group(1)))
            buffers[conn] = buf[last.end():] if last else buf[-4096:]
        low = min(have.values())
        if low > reported:
            reported = low
            pipe.send((low, time.monotonic()))
    for s in buffers:
        s.close()


def phone_address(i: int) -> str:
    return f"127.0.{1 + i // 250}.{1 + i % 250}"


def readers(port: int, count: int, pipe: Connection) -> None:
    """`count` threads, each on its own address, reading the whole history page by page until
    the parent is done; then report (requests, median ms, p99 ms)."""
    import http.client

    stop = threading.Event()
    times: list[float] = []

    def read(i: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT_S,
                                          source_address=(f"127.0.200.{1 + i}", 0))
        since: int | None = 0
        while not stop.is_set():
            start = time.monotonic()
            conn.request("GET", f"/api/history?since={since or 0}")
            reply = conn.getresponse()
            body = reply.read()
            times.append((time.monotonic() - start) * 1000)
            since = json.loads(body).get("next") if reply.status == 200 else None
    threads = [threading.Thread(target=read, args=(i,), daemon=True) for i in range(count)]
    for t in threads:
        t.start()
    pipe.recv()  # the parent is done
    stop.set()
    for t in threads:
        t.join(WAIT_S)
    pipe.send((len(times), statistics.median(times) if times else 0.0,
               percentile(times, 0.99) if times else 0.0))


def page_weight(url: str) -> int:
    total = 0
    for path in ("", "static/table.css", "static/table.js"):
        with urllib.request.urlopen(url + path, timeout=WAIT_S) as reply:
            total += len(reply.read())
    return total


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--events", type=int, default=150)
    parser.add_argument("--readers", type=int, default=8, help="history readers beside them")
    args = parser.parse_args()
    names = ["Ann", "Bob", "Cy"]
    events = [e for e, _ in play_game(preset("bison"), random.Random(11), names=names,
                                      max_hands=10)][:args.events]
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp) / "bench.sqlite3")
        session = Session.create(journal, preset("bison"), names).start()
        app = create_app({"SESSION": session, "PIN": "0000",
                          "MAX_STREAMS": args.clients + 4})
        server = TableServer(app).start()
        ours, theirs = mp.Pipe()
        child = mp.get_context("spawn").Process(target=clients,
                                                args=(server.port, args.clients, theirs))
        child.start()
        to_readers, readers_end = mp.Pipe()
        reading = mp.get_context("spawn").Process(target=readers,
                                                  args=(server.port, args.readers, readers_end))
        reading.start()
        read_stats = (0, 0.0, 0.0)
        from_submit: list[float] = []
        from_accept: list[float] = []
        weight = 0
        try:
            if not ours.poll(30):
                raise SystemExit("the clients never connected")
            ours.recv()  # everyone has the state on connect
            for i, event in enumerate(events):
                start = time.monotonic()
                outcome = session.submit(event, timeout=WAIT_S)
                accepted = time.monotonic()
                assert outcome.accepted, outcome.reason
                while True:
                    if not ours.poll(WAIT_S):
                        raise SystemExit(f"event {outcome.number} never reached every client")
                    number, when = ours.recv()
                    if number >= (outcome.number or 0):
                        break
                from_submit.append((when - start) * 1000)
                from_accept.append((when - accepted) * 1000)
                if i == len(events) // 2:
                    weight = page_weight(server.url)
        finally:
            ours.send("done")
            to_readers.send("done")
            if to_readers.poll(30):
                read_stats = to_readers.recv()
            for process in (child, reading):
                process.join(10)
                if process.is_alive():
                    process.terminate()
            server.stop()
            session.stop(5)
            journal.close()
    result = {
        "bench": "web", "clients": args.clients, "events": len(from_submit),
        "submit_to_all_p50_ms": round(statistics.median(from_submit), 2),
        "submit_to_all_p99_ms": round(percentile(from_submit, 0.99), 2),
        "accepted_to_all_p50_ms": round(statistics.median(from_accept), 2),
        "accepted_to_all_p99_ms": round(percentile(from_accept, 0.99), 2),
        "page_bytes": weight, "target_p99_ms": 200, "target_page_bytes": 150_000,
        "history_readers": args.readers, "history_requests": read_stats[0],
        "history_p50_ms": round(read_stats[1], 2), "history_p99_ms": round(read_stats[2], 2),
    }
    print(f"{args.clients} SSE clients on loopback, {len(from_submit)} events of a bison game")
    print(f"submit() to every client: median {result['submit_to_all_p50_ms']} ms, "
          f"p99 {result['submit_to_all_p99_ms']} ms (includes the durable journal write)")
    print(f"accepted to every client: median {result['accepted_to_all_p50_ms']} ms, "
          f"p99 {result['accepted_to_all_p99_ms']} ms")
    print(f"{args.readers} history readers beside them: {read_stats[0]} pages read, median "
          f"{result['history_p50_ms']} ms, p99 {result['history_p99_ms']} ms")
    print(f"page weight (HTML with state, CSS, script): {weight} bytes")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
