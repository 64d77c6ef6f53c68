"""Issue 19: the attacks on the page, each bounded (counts and time limits) and on loopback only.

A real waitress server (web_ui.server.TableServer) on 127.0.0.1; the attacker's connections
come from other loopback addresses (127.0.0.2 ...), so the per-address limits can be told from
the phones'. Each test checks that the phones are still served, nothing accepted is lost, and
what must be refused is. Nothing here asserts a duration: waits have generous upper bounds and
end as soon as the condition holds.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import closing
from typing import Any

import pytest
from flask import Flask

from table.rules import BidMade, Buried, Card, Corrected, HandDealt, Undone
from table.rules.game import Phase
from table.session import Session
from web_ui.app import create_app, web_table
from web_ui.server import TableServer

from .conftest import PIN, moves, play_until, wait_for

LIMIT_S = 30.0  # the most any wait here may take before the test fails


@pytest.fixture
def served(session: Session) -> Iterator[tuple[TableServer, Flask]]:
    app = create_app({"SESSION": session, "PIN": PIN, "HEARTBEAT_S": 0.2, "MAX_STREAMS": 12,
                      "STREAMS_PER_CLIENT": 3})
    server = TableServer(app, "127.0.0.1", 0, per_client=8, deadline_s=2.0).start()
    yield server, app
    server.stop()


def _request(server: TableServer, method: str, path: str, body: Any = None,
             headers: dict[str, str] | None = None, source: str = "127.0.0.1"
             ) -> tuple[int, dict[str, Any], http.client.HTTPMessage]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=LIMIT_S,
                                      source_address=(source, 0))
    try:
        data = None if body is None else json.dumps(body).encode()
        h = {"Content-Type": "application/json"} if data is not None else {}
        conn.request(method, path, body=data, headers={**h, **(headers or {})})
        reply = conn.getresponse()
        raw = reply.read()
        try:
            parsed = json.loads(raw) if raw else {}
        except ValueError:
            parsed = {"text": raw.decode(errors="replace")}
        return reply.status, parsed, reply.headers  # names in any case
    finally:
        conn.close()


def _pin() -> dict[str, str]:
    return {"X-Table-PIN": PIN}


def _raw(server: TableServer, source: str) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=LIMIT_S,
                                    source_address=(source, 0))


def _closed_by_server(sock: socket.socket) -> bool:
    """Wait (at most LIMIT_S) until the server closes `sock`; True if it did."""
    sock.settimeout(LIMIT_S)
    try:
        while True:
            data = sock.recv(4096)
            if not data:
                return True
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def _eventually(check: Callable[[], bool]) -> None:
    wait_for(check, timeout=LIMIT_S)


# -- 1: slow connections ----------------------------------------------------------------------

def test_one_guest_with_100_slow_connections_does_not_take_the_page(
        served: tuple[TableServer, Flask]) -> None:
    server, _ = served
    guest = []
    for _ in range(100):  # each sends the start of a request and then a byte now and then
        s = _raw(server, "127.0.0.2")
        s.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-")
        guest.append(s)
    try:
        for _ in range(12):  # the phones still get every answer
            status, state, _ = _request(server, "GET", "/api/state")
            assert status == 200 and state["game_id"] is not None
        guarded = server._server
        _eventually(lambda: guarded.refused >= 100 - guarded.per_client)
        # the ones the address was allowed are cut at the request deadline, byte or not
        for s in guest[:3]:
            s.sendall(b"a")
        assert all(_closed_by_server(s) for s in guest)
        _eventually(lambda: "127.0.0.2" not in guarded.clients)
    finally:
        for s in guest:
            s.close()


# -- 2: big bodies, and the PIN before the body ------------------------------------------------

def test_a_huge_body_is_refused_before_it_is_read(served: tuple[TableServer, Flask],
                                                  session: Session) -> None:
    server, _ = served
    number = session.last_number
    with closing(_raw(server, "127.0.0.3")) as s:  # 200 MB announced; only the headers sent
        s.sendall(b"POST /api/bid HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                  b"application/json\r\nContent-Length: 200000000\r\n\r\n{")
        s.settimeout(LIMIT_S)
        assert s.recv(4096).startswith(b"HTTP/1.1 413")
    status, _, _ = _request(server, "POST", "/api/bid", {"amount": 250, "pad": "x" * 70_000},
                            _pin())
    assert status == 413
    assert session.last_number == number
    assert _request(server, "GET", "/api/state")[0] == 200


def test_the_pin_is_checked_before_the_body(served: tuple[TableServer, Flask],
                                            session: Session) -> None:
    server, _ = served
    junk = b"[" * 60_000  # not JSON, and deep: reading it would be a 400
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=LIMIT_S)
    conn.request("POST", "/api/bid", body=junk,
                 headers={"Content-Type": "application/json", "X-Table-PIN": "0000"})
    assert conn.getresponse().status == 403
    conn.close()


def test_a_huge_header_is_refused(served: tuple[TableServer, Flask]) -> None:
    server, _ = served
    status, _, _ = _request(server, "GET", "/api/state", headers={"X-Pad": "x" * 40_000})
    assert status == 431 or status == 400
    assert _request(server, "GET", "/api/state")[0] == 200


# -- 3: rule options out of their domain -------------------------------------------------------

@pytest.mark.parametrize("value", ["0", "-10", 0, -10, "1e9", "²"])
def test_a_bad_bid_step_is_refused_at_the_new_game_form(
        served: tuple[TableServer, Flask], session: Session, value: object) -> None:
    server, _ = served
    games = len(session.journal.games())
    status, reply, _ = _request(server, "POST", "/api/game", {
        "preset": "bison", "names": ["A", "B", "C"], "options": {"bid_step": value}}, _pin())
    assert status == 400 and "bid_step" in reply["error"]
    assert len(session.journal.games()) == games
    assert _request(server, "GET", "/api/state")[0] == 200


# -- 4: PIN guessing from many addresses ---------------------------------------------------------

def test_rotating_addresses_gain_nothing_and_wrong_pins_are_shown(
        served: tuple[TableServer, Flask], session: Session) -> None:
    server, _ = served
    statuses = [_request(server, "POST", "/api/pin", None, {"X-Table-PIN": f"{n:04d}"},
                         source=f"127.0.1.{n + 1}")[0] for n in range(40) if f"{n:04d}" != PIN]
    assert statuses[:5] == [403] * 5 and set(statuses[5:]) == {429}
    # even the right PIN waits out the lockout, from any address
    assert _request(server, "POST", "/api/pin", None, _pin(), source="127.0.2.1")[0] == 429
    _, state, _ = _request(server, "GET", "/api/state")
    shown = [a["text"] for a in state["alerts"] if a["kind"] == "wrong-pin"]
    assert len(shown) == 1 and "5 wrong table PINs" in shown[0] and "locked" in shown[0]
    assert all(f"127.0.1.{n}" in shown[0] for n in range(1, 6))


# -- 5: live-stream slots ------------------------------------------------------------------------

def _open_stream(server: TableServer, source: str) -> tuple[socket.socket, bytes]:
    """A live stream's socket and what came first (a refusal comes whole: the server closes)."""
    s = _raw(server, source)
    s.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    s.settimeout(LIMIT_S)
    head = s.recv(4096)
    if head.startswith(b"HTTP/1.1 503"):
        while chunk := s.recv(4096):
            head += chunk
    return s, head


def test_one_phone_cannot_hold_every_stream_and_a_closed_one_is_freed(
        served: tuple[TableServer, Flask]) -> None:
    server, app = served
    table = web_table(app)
    mine = [_open_stream(server, "127.0.0.4") for _ in range(3)]
    assert all(head.startswith(b"HTTP/1.1 200") for _, head in mine)
    extra, head = _open_stream(server, "127.0.0.4")
    assert head.startswith(b"HTTP/1.1 503") and b"already has 3" in head
    extra.close()
    other, head = _open_stream(server, "127.0.0.1")  # another phone still gets one
    assert head.startswith(b"HTTP/1.1 200")
    for s, _ in mine:  # a phone that closes its page frees its slots without a write failing
        s.close()
    _eventually(lambda: table.by_client.get("127.0.0.4", 0) == 0)
    assert table.streams == 1
    other.close()
    _eventually(lambda: table.streams == 0)


def test_connections_carry_keepalive_and_a_user_timeout(served: tuple[TableServer, Flask]
                                                        ) -> None:
    """A phone that vanishes without closing is cut by TCP: the heartbeat it does not
    acknowledge ends the connection (TCP_USER_TIMEOUT), and so its stream and slot."""
    server, _ = served
    s, head = _open_stream(server, "127.0.0.5")
    try:
        assert head.startswith(b"HTTP/1.1 200")
        channels = [c for c in server._server.active_channels.values()
                    if getattr(c, "client", "") == "127.0.0.5"]
        assert channels
        sock = channels[0].socket
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
        if hasattr(socket, "TCP_USER_TIMEOUT"):
            assert 0 < sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT) <= 60_000
    finally:
        s.close()


# -- 6: undo names its move ----------------------------------------------------------------------

def test_two_phones_undoing_the_same_move_undo_one(served: tuple[TableServer, Flask],
                                                    session: Session) -> None:
    server, _ = served
    play_until(session, lambda g: g.phase is Phase.AUCTION and len(g.bids) == 2)
    before = session.accepted()
    target = _request(server, "GET", "/api/state")[1]["undo_target"]
    results: list[int] = []
    start = threading.Barrier(2)

    def phone(source: str) -> None:
        start.wait(LIMIT_S)
        results.append(_request(server, "POST", "/api/undo", {"target": target}, _pin(),
                                source=source)[0])
    threads = [threading.Thread(target=phone, args=(f"127.0.0.{n}",)) for n in (6, 7)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(LIMIT_S)
    assert sorted(results) == [200, 409]
    assert [n for n, _ in session.accepted()[:-1]] == [n for n, _ in before]
    undone = session.accepted()[-1][1]
    assert isinstance(undone, Undone) and undone.target == target


# -- 7: face-down cards through corrections ----------------------------------------------------

def test_corrected_deals_and_buries_never_show_their_cards(
        served: tuple[TableServer, Flask], session: Session) -> None:
    server, _ = served
    deal = next(e for e, _ in moves() if isinstance(e, HandDealt))
    assert deal.hands is not None
    secret = [str(c) for c in deal.hands[1]]
    session.submit(deal)
    hands = tuple(tuple(h) for h in deal.hands)
    nested = Corrected(target=1, replacement=HandDealt(dealer=deal.dealer, hands=hands,
                                                       kitty=deal.kitty))
    session.submit(nested)
    session.submit(Corrected(target=1, replacement=Buried(seat=0, cards=tuple(
        Card.parse(c) for c in secret[:3]))))
    _, history, _ = _request(server, "GET", "/api/history")
    assert len(history["entries"]) == 3
    for entry in history["entries"]:
        text = json.dumps(entry)
        assert not any(f'"{card}"' in text for card in secret), entry
    replacement = history["entries"][1]["event"]["replacement"]
    assert replacement["hands"] is None and replacement["kitty"] is None


# -- 10: input that used to give 500s ----------------------------------------------------------

def test_odd_digits_and_deep_json_are_clean_refusals(served: tuple[TableServer, Flask],
                                                      session: Session) -> None:
    server, _ = served
    play_until(session, lambda g: g.phase is Phase.AUCTION)
    number = session.last_number
    assert _request(server, "GET", "/api/history?since=%C2%B2")[0] == 400
    assert _request(server, "GET", "/api/history?since=%D9%A3")[0] == 400
    for body in ({"amount": "²"}, {"amount": "٣٠٠"}, {"seat": "²", "amount": 300}):
        status, reply, _ = _request(server, "POST", "/api/bid", body, _pin())
        assert status == 400 and reply["error"], body
    deep: Any = {"type": "Passed", "seat": 0}
    for _ in range(490):
        deep = {"type": "Corrected", "target": 1, "replacement": deep}
    status, reply, _ = _request(server, "POST", "/api/events", {"event": deep}, _pin())
    assert status == 400 and "nested" in reply["error"]
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=LIMIT_S)
    conn.request("POST", "/api/bid", body=b"[" * 30_000 + b"]" * 30_000,
                 headers={"Content-Type": "application/json", "X-Table-PIN": PIN})
    assert conn.getresponse().status == 400
    conn.close()
    status, reply, _ = _request(server, "POST", "/api/correct",
                                {"target": "²", "amount": 300}, _pin())
    assert status == 400
    assert session.last_number == number  # nothing was journalled
    assert _request(server, "GET", "/api/state")[0] == 200


def test_a_nested_correction_is_refused_and_the_history_still_reads(
        served: tuple[TableServer, Flask], session: Session) -> None:
    server, _ = served
    play_until(session, lambda g: g.phase is Phase.AUCTION and len(g.bids) == 1)
    first_bid = next(n for n, e in session.accepted() if isinstance(e, BidMade))
    inner = Corrected(target=first_bid, replacement=BidMade(seat=0, amount=260))
    status, reply, _ = _request(server, "POST", "/api/events", {"event": Corrected(
        target=first_bid, replacement=inner).to_dict()}, _pin())
    assert status == 409 and "correction" in reply["error"]
    status, history, _ = _request(server, "GET", "/api/history")
    assert status == 200 and history["entries"][-1]["accepted"] is False


# -- 12: Host, headers, history paging ---------------------------------------------------------

def test_other_host_names_are_refused(served: tuple[TableServer, Flask]) -> None:
    server, _ = served
    status, reply, _ = _request(server, "GET", "/api/state",
                                headers={"Host": "attacker.example"})
    assert status == 421 and "attacker.example" in reply["error"]
    assert _request(server, "GET", "/", headers={"Host": "rebind.attacker.example:8000"}
                    )[0] == 421
    for host in (f"127.0.0.1:{server.port}", "localhost", f"[::1]:{server.port}",
                 "192.168.4.1:8000", f"{socket.gethostname()}.local:8000"):
        assert _request(server, "GET", "/api/state", headers={"Host": host})[0] == 200, host


def test_answers_say_what_they_are_and_cannot_be_framed(served: tuple[TableServer, Flask]
                                                        ) -> None:
    server, _ = served
    for path in ("/", "/api/state", "/api/history", "/static/table.js", "/api/nothing"):
        _, _, headers = _request(server, "GET", path)
        assert headers["X-Content-Type-Options"] == "nosniff", path
        assert headers["X-Frame-Options"] == "DENY", path
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"], path
        assert headers["Content-Type"], path
        assert "Access-Control-Allow-Origin" not in headers and "Set-Cookie" not in headers


def test_the_history_comes_in_cached_pages(served: tuple[TableServer, Flask],
                                           session: Session) -> None:
    server, served_app = served
    for event, _ in moves(hands=1)[:25]:
        session.submit(event)
    entries: list[dict[str, Any]] = []
    since: int | None = 0
    pages = 0
    while since is not None and pages < 20:
        status, page, _ = _request(server, "GET", f"/api/history?since={since}&limit=10")
        assert status == 200 and len(page["entries"]) <= 10
        entries += page["entries"]
        since = page["next"]
        pages += 1
    assert [e["number"] for e in entries] == list(range(1, session.last_number + 1))
    cache = web_table(served_app).history
    built = cache.built
    status, _, headers = _request(server, "GET", "/api/history?since=0&limit=10")
    assert status == 200 and cache.built == built  # from the cache
    status, _, _ = _request(server, "GET", "/api/history?since=0&limit=10",
                            headers={"If-None-Match": headers["ETag"]})
    assert status == 304
    assert _request(server, "GET", "/api/history?limit=100000")[0] == 400
    session.submit(next(e for e, _ in moves(hands=1)[25:26]))
    status, page, _ = _request(server, "GET", f"/api/history?since={session.last_number - 1}")
    assert status == 200 and page["entries"][-1]["number"] == session.last_number


def test_the_phones_keep_being_served_during_all_of_it(served: tuple[TableServer, Flask],
                                                       session: Session) -> None:
    """Attacks together, then a game's worth of events from the page: all accepted, none
    lost, the journal as the page said."""
    server, _ = served
    guest = [_raw(server, "127.0.0.9") for _ in range(20)]
    for s in guest:
        s.sendall(b"POST /api/bid HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\n")
    try:
        accepted = []
        for event, _ in moves(hands=1)[:40]:
            status, reply, _ = _request(server, "POST", "/api/events", {"event": event.to_dict()},
                                        _pin())
            assert status in (200, 409), reply
            if status == 200:
                accepted.append(reply["number"])
        journal = {r.number: r.accepted for r in session.history()}
        assert accepted and all(journal[n] for n in accepted)
    finally:
        for s in guest:
            s.close()
