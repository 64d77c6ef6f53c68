"""The page's parts on their own: the alert board, the PIN guard, move words, the numbers of
the cards on the mat, the live streams."""

from __future__ import annotations

import itertools
import json
import threading

from flask import Flask
from flask.testing import FlaskClient

from table.alerts import Alert
from table.rules import (
    BidMade,
    Buried,
    Card,
    CardPlayed,
    CardsPassed,
    Corrected,
    Suit,
    TrickGathered,
    TrumpNamed,
    Undone,
    in_effect,
)
from table.session import Session
from web_ui.app import create_app, web_table
from web_ui.board import AlertBoard
from web_ui.camera import BOUNDARY, mjpeg
from web_ui.pin import PinGuard, WrongPin, new_pin
from web_ui.state import hand_moves, play_numbers
from web_ui.stream import HEARTBEAT
from web_ui.words import describe

from .conftest import NAMES, moves, wait_for


def test_moves_in_a_players_words() -> None:
    qs = Card.parse("QS")
    assert describe(CardPlayed(seat=2, card=qs), NAMES) == "Cy played Q♠"
    assert describe(BidMade(seat=1, amount=260), NAMES) == "Bob bid 260"
    assert describe(TrumpNamed(seat=0, suit=Suit.HEARTS), NAMES) == "Ann named hearts trump ♥"
    assert describe(Corrected(target=12, replacement=CardPlayed(seat=0, card=qs)),
                    NAMES) == "#12 corrected: Ann played Q♠"
    assert describe(TrickGathered(), NAMES) == "trick gathered"
    assert describe(Undone(), NAMES) == "undo"
    secret = (Card.parse("9C"), Card.parse("JD"))
    assert describe(Buried(seat=1, cards=secret), NAMES) == "Bob buried 2 cards"
    assert describe(CardsPassed(seat=0, to_seat=2, cards=secret), NAMES) == \
        "Ann passed 2 cards to Cy"


def test_the_numbers_of_the_cards_on_the_mat_through_a_whole_hand() -> None:
    accepted = []
    checked = 0
    for number, (event, game) in enumerate(moves("racehorse", seed=3, hands=1,
                                                 names=["N", "E", "S", "W"]), 1):
        accepted.append((number, event))
        view = game.view()
        numbers = play_numbers(game, hand_moves(accepted))
        effect = dict(in_effect(accepted))
        for key in ("trick", "last_trick"):
            shown = view[key]["cards"] if view[key] else []
            assert len(numbers[key]) == len(shown)
            for n, card in zip(numbers[key], shown, strict=True):
                played = effect[n]
                assert isinstance(played, CardPlayed)
                assert (played.seat, str(played.card)) == (card["seat"], card["card"])
                checked += 1
    assert checked > 48


def test_the_board_keeps_what_needs_a_person() -> None:
    board = AlertBoard()
    unsure = board.add_alert(Alert(kind="camera-unsure", text="?", source="camera", seat=1,
                                   details={"candidates": ["QS", "KS", "JS"]}), after=5)
    assert unsure.to_dict()["candidates"] == ["QS", "KS"]
    board.add_refusal(6, "Cy played Q♠", "it is Bob's turn", "camera", 1.0)
    board.add_alert(Alert(kind="note", text="hello"), after=6)
    pending, news = board.snapshot()
    assert [p["kind"] for p in pending] == ["camera-unsure", "refused"]
    assert [n["text"] for n in news] == ["hello"]
    board.accepted(CardPlayed(seat=2, card=Card.parse("AS")))  # another seat's play
    assert [p["kind"] for p in board.snapshot()[0]] == ["camera-unsure"]
    board.accepted(Corrected(target=3, replacement=CardPlayed(seat=1, card=Card.parse("KS"))))
    assert board.snapshot()[0] == []
    for i in range(8):
        board.add_alert(Alert(kind="note", text=str(i)), after=7)
    assert [n["text"] for n in board.snapshot()[1]] == ["3", "4", "5", "6", "7"]


def test_the_pin_guard() -> None:
    now = [0.0]
    guard = PinGuard("1357", clock=lambda: now[0])
    assert guard.check("1357", "a") is None
    assert guard.check(" 1357 ", "a") is None
    wrong: list[WrongPin] = []
    guard.on_wrong = wrong.append
    refusals = [guard.check("1111", f"10.0.0.{i}") for i in range(5)]
    assert all(r is not None and r.status == 403 for r in refusals)
    assert [w.recent for w in wrong] == [1, 2, 3, 4, 5] and wrong[-1].locked
    assert wrong[0].address == "10.0.0.0" and "10.0.0.0" in wrong[0].text()
    assert wrong[-1].addresses == tuple(f"10.0.0.{i}" for i in range(5))
    locked = guard.check("1357", "a")
    assert locked is not None and locked.status == 429
    # another address is locked out too: rotating addresses gains nothing
    assert guard.check("1357", "b") is not None
    assert guard.check("0000", "c") is not None and len(wrong) == 5  # no guess while locked
    now[0] = 61.0
    assert guard.check("1357", "a") is None
    pin = new_pin()
    assert len(pin) == 4 and pin.isdigit()


def _messages(chunks: object, count: int) -> list[bytes]:
    out = []
    for chunk in itertools.islice(chunks, 200):  # type: ignore[call-overload]
        if chunk.startswith(b"retry"):
            continue
        out.append(chunk)
        if len(out) == count:
            break
    return out


def test_a_stream_sends_the_present_state_at_once_then_each_change(
        app: Flask, client: FlaskClient, session: Session) -> None:
    events = [e for e, _ in moves()]
    session.submit(events[0])
    # the page's own thread takes the session's notice a moment after `submit` returns
    wait_for(lambda: web_table(app).live.latest.number == session.last_number)
    reply = client.get("/events", buffered=False)
    assert reply.mimetype == "text/event-stream"
    chunks = iter(reply.response)
    first = _messages(chunks, 1)[0]
    assert first.startswith(b"id: ") and b"event: state" in first
    data = json.loads(first.split(b"data: ", 1)[1])
    assert data["number"] == session.last_number == 1
    session.submit(events[1])
    later = next(m for m in _messages(chunks, 10) if m != HEARTBEAT)
    assert json.loads(later.split(b"data: ", 1)[1])["number"] == 2
    reply.close()


def test_a_phone_that_has_the_present_gets_heartbeats_only(
        app: Flask, client: FlaskClient, session: Session) -> None:
    live = web_table(app).live
    wait_for(lambda: live.latest.number == session.last_number)
    reply = client.get("/events", buffered=False, headers={"Last-Event-ID": live.latest.id})
    assert _messages(iter(reply.response), 3) == [HEARTBEAT] * 3
    reply.close()
    stale = client.get("/events?last=" + live.boot + "-0", buffered=False)
    assert b"event: state" in _messages(iter(stale.response), 1)[0]
    stale.close()


def test_streams_end_when_the_table_closes_and_are_counted(
        app: Flask, client: FlaskClient) -> None:
    table = web_table(app)
    reply = client.get("/events", buffered=False)
    chunks = iter(reply.response)
    assert _messages(chunks, 1)
    assert table.streams == 1
    done = threading.Event()

    def drain() -> None:
        for _ in chunks:
            pass
        done.set()
    threading.Thread(target=drain, daemon=True).start()
    table.close()
    assert done.wait(5)
    reply.close()
    assert table.streams == 0


def test_too_many_streams_are_turned_away(session: Session) -> None:
    app = create_app({"SESSION": session, "MAX_STREAMS": 1, "HEARTBEAT_S": 0.05})
    client = app.test_client()
    try:
        first = client.get("/events", buffered=False)
        second = client.get("/events")
        assert second.status_code == 503 and "too many" in second.get_json()["error"]
        first.close()
        third = client.get("/events", buffered=False)
        assert third.status_code == 200
        third.close()
    finally:
        web_table(app).close()


class FakeCamera:
    def __init__(self) -> None:
        self.frames = [b"\xff\xd8one\xff\xd9", b"\xff\xd8two\xff\xd9"]

    def jpeg(self) -> bytes | None:
        return self.frames[0]

    def status(self) -> dict[str, object]:
        return {"calibrated": True, "text": "4 markers found", "markers": 4}


def test_the_camera_view(session: Session) -> None:
    camera = FakeCamera()
    app = create_app({"SESSION": session, "CAMERA": camera, "CAMERA_FPS": 50})
    client = app.test_client()
    try:
        assert client.get("/api/camera").get_json()["text"] == "4 markers found"
        page = client.get("/setup").get_data(as_text=True)
        assert "camera.mjpg" in page and "4 markers found" in page
        reply = client.get("/camera.mjpg", buffered=False)
        assert reply.mimetype == "multipart/x-mixed-replace"
        part = next(iter(reply.response))
        assert part.startswith(f"--{BOUNDARY}".encode()) and part.endswith(
            camera.frames[0] + b"\r\n")
        reply.close()
    finally:
        web_table(app).close()
    no_camera = create_app({"SESSION": session})
    try:
        assert no_camera.test_client().get("/camera.mjpg").status_code == 404
        assert "without a camera" in no_camera.test_client().get("/setup").get_data(True)
    finally:
        web_table(no_camera).close()


def test_mjpeg_sends_changed_pictures_and_resends_now_and_then() -> None:
    frames = [b"a", b"a", b"b"]
    shown: list[bytes] = []
    now = [0.0]

    class Cam:
        def jpeg(self) -> bytes | None:
            return frames[min(len(shown_calls), len(frames) - 1)]

        def status(self) -> dict[str, object]:
            return {}

    shown_calls: list[int] = []

    def sleep(_: float) -> None:
        shown_calls.append(1)
        now[0] += 0.5

    for part in mjpeg(Cam(), 2.0, lambda: len(shown_calls) >= 8, sleep, lambda: now[0]):
        shown.append(part.rsplit(b"\r\n\r\n", 1)[1])
    # "a" once (the same picture again is not resent), "b" when it changes, "b" again after 2 s
    assert shown == [b"a\r\n", b"b\r\n", b"b\r\n"]

