"""The serial board through a real pty and pyserial: the simulated board runs the firmware's
own logic; the Pi side is the real connection, panel and session."""

from __future__ import annotations

import contextlib
import os
import tty
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import serial

from firmware_bridge.config import BoardPlace, Timing
from firmware_bridge.firmware import wire
from firmware_bridge.panel import ControlPanel
from firmware_bridge.serial_board import BoardConnection, find_board
from firmware_bridge.simboard import SimulatedBoard
from table.rules import BidMade, Conceded, Event, Passed, Suit, TrumpNamed, Undone
from table.session import Session

from .conftest import accepted, refused, settle, turn, wait_until

TIMING = Timing(debounce_ms=25, hold_ms=300, raise_window_ms=300)


class Rig:
    def __init__(self, session: Session, path: Path) -> None:
        self.session = session
        self.board = SimulatedBoard(session.rules.table_seats, path, TIMING.debounce_ms,
                                    TIMING.hold_ms).start()
        self.panel = ControlPanel(session, TIMING).start()
        self.link = BoardConnection(BoardPlace(port=str(path), usb_id=None), self.panel,
                                    backoff=(0.02, 0.2)).start()
        assert self.link.wait_linked(5), self.link.status

    def events(self, n: int) -> list[Event]:
        """The accepted events after the deal, once there are `n` of them."""
        assert wait_until(lambda: len(accepted(self.session)) - 1 >= n), accepted(self.session)
        settle(self.session)
        return accepted(self.session)[1:]

    def shows_turn(self) -> bool:
        turn = self.session.game.turn
        return wait_until(lambda: [i for i, on in enumerate(self.board.lights()[:4]) if on]
                          == [turn])

    def close(self) -> None:
        self.link.stop()
        self.panel.stop()
        self.board.stop()


@pytest.fixture
def rig(open_session: Callable[..., Session], tmp_path: Path) -> Iterator[Callable[..., Rig]]:
    rigs: list[Rig] = []

    def make(variant: str = "brooklyn") -> Rig:
        r = Rig(open_session(variant), tmp_path / f"pinochle-board-{len(rigs)}")
        rigs.append(r)
        return r

    yield make
    for r in rigs:
        r.close()


def test_every_button_function_over_the_serial_board(rig: Callable[..., Rig]) -> None:
    r = rig()
    first = turn(r.session)
    assert r.shows_turn()
    r.board.press(first, "BID")
    r.board.press(first, "BID", bounce=3)  # chatter on the board's contacts: still one tap
    (bid,) = r.events(1)
    assert bid == BidMade(seat=first, amount=310, source="serial", at=bid.at)
    assert r.shows_turn()
    r.board.press(turn(r.session), "PASS")
    r.board.press((first + 2) % 3, "PASS")
    r.events(3)
    assert r.session.game.declarer == first
    r.board.press(first, "BID")
    r.board.press(first, "BID")
    r.board.press(first, "BID")
    assert wait_until(lambda: r.board.lights()[4 + 2])  # clubs shown on the board
    r.board.press(first, "BID", hold=True)
    assert isinstance(r.events(4)[-1], TrumpNamed) and r.session.game.trump is Suit.CLUBS
    r.board.press(None, "UNDO")
    assert isinstance(r.events(5)[-1], Undone) and r.session.game.trump is None
    r.board.press(first, "PASS", hold=True)
    assert isinstance(r.events(6)[-1], Conceded)
    assert {e.source for e in accepted(r.session)[1:]} == {"serial"}
    assert refused(r.session) == []


def test_a_press_out_of_turn_is_refused_and_the_board_buzzes(rig: Callable[..., Rig]) -> None:
    r = rig()
    other = (turn(r.session) + 1) % 3
    r.board.press(other, "PASS")
    assert wait_until(lambda: len(refused(r.session)) == 1)
    assert refused(r.session)[0].event == Passed(seat=other, source="serial",
                                                 at=refused(r.session)[0].event.at)
    assert wait_until(r.board.buzzing)
    assert len(accepted(r.session)) == 1  # only the deal


def test_unplug_and_replug_mid_auction_loses_and_doubles_nothing(
        rig: Callable[..., Rig]) -> None:
    r = rig()
    first = turn(r.session)
    r.board.press(first, "BID", hold=True)
    r.events(1)
    # the acknowledgement of the next press never reaches the board, then the cable is pulled
    r.board.deaf = True
    second = turn(r.session)
    r.board.press(second, "PASS")
    r.events(2)
    r.board.unplug()
    assert wait_until(lambda: not r.link.linked)
    r.board.deaf = False
    # a press while unplugged waits on the board
    third = (second + 1) % 3
    r.board.press(third, "PASS")
    r.board.replug()
    assert r.link.wait_linked(5)
    events = r.events(3)
    settle(r.session)
    assert [type(e) for e in events] == [BidMade, Passed, Passed]
    assert [getattr(e, "seat", None) for e in events] == [first, second, third]
    assert r.link.stats()["replayed"] >= 1   # the unacknowledged press came again, dropped
    assert r.session.game.declarer == first
    assert r.shows_turn()  # the lights were restored after the reconnection
    kinds = [a.alert.kind for a in r.session.journal.alerts(r.session.game_id)]
    assert "device-unplugged" in kinds and "device-connected" in kinds


def test_a_board_that_lost_power_gets_its_lights_back(rig: Callable[..., Rig]) -> None:
    r = rig()
    r.board.press(turn(r.session), "BID", hold=True)
    r.events(1)
    assert r.shows_turn()
    r.board.unplug(power_off=True)
    assert wait_until(lambda: not r.link.linked)
    r.board.replug()
    assert r.link.wait_linked(5)
    assert r.shows_turn()
    r.board.press(turn(r.session), "PASS")  # a fresh board's numbering is accepted
    assert [type(e) for e in r.events(2)] == [BidMade, Passed]


def test_noise_and_forgeries_are_counted_and_dropped(rig: Callable[..., Rig]) -> None:
    r = rig()
    seat = turn(r.session)
    r.board.press(seat, "BID", hold=True)  # the board's message number 1
    r.events(1)
    again = wire.encode(1, "BTN", [str(seat), "BID", "HOLD"])
    r.board.inject(b"MicroPython v1.22.2 on 2024-02-22; Raspberry Pi Pico with RP2040\r\n"
                   b"Type \"help()\" for more information.\r\n>>> \r\n"
                   b"\x00\xff\x13garbage\n"
                   b"P2 5 BTN 0 BID TAP *0000\n"
                   + again[:-8] + b"\n"    # torn
                   + again)                # number 1 again: a replay
    assert wait_until(lambda: r.link.stats().get("replayed", 0) >= 1)
    stats = r.link.stats()
    assert stats[wire.NOISE] >= 3 and stats[wire.GARBAGE] >= 1
    assert stats[wire.UNKNOWN_VERSION] == 1 and stats[wire.TORN] >= 1
    settle(r.session)
    assert [type(e) for e in accepted(r.session)[1:]] == [BidMade]
    assert refused(r.session) == []
    assert r.link.linked


def test_the_port_is_opened_exclusively(rig: Callable[..., Rig]) -> None:
    r = rig()
    with pytest.raises(serial.SerialException):
        serial.Serial(r.board.path, exclusive=True)


def test_find_board_by_path_or_usb_id(tmp_path: Path) -> None:
    assert find_board(BoardPlace(port=str(tmp_path / "absent"), usb_id=None)) is None
    assert find_board(BoardPlace(port=None, usb_id="ffff:fffe")) is None
    there = tmp_path / "ttyFAKE"
    there.touch()
    assert find_board(BoardPlace(port=str(there))) == str(there)


def test_a_device_that_never_answers_is_reported_and_retried(tmp_path: Path) -> None:
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    heard = bytearray()

    def hears_hello() -> bool:
        with contextlib.suppress(BlockingIOError):
            heard.extend(os.read(master, 4096))
        return b" HELLO " in heard

    os.write(master, b"MicroPython v1.22.2 on 2024-02-22\r\n>>> ")  # a Pico at its prompt
    alerts: list[str] = []
    link = BoardConnection(BoardPlace(port=os.ttyname(slave), usb_id=None),
                           on_alert=lambda text, source, kind: alerts.append(kind),
                           backoff=(0.02, 0.05), dead_ms=300).start()
    try:
        assert wait_until(lambda: "stopped answering" in link.status)
        assert wait_until(hears_hello)  # the Pi did try to shake hands
        assert not link.linked and alerts == []  # never linked: nothing to say unplugged
        assert link.stats()["reconnects"] == 0
    finally:
        link.stop()
        os.close(master)
        os.close(slave)


class RecordingBoard(SimulatedBoard):
    """The simulated board, keeping every line it sends (what a snooper on the cable sees)."""

    sent: list[bytes]

    def _send(self, data: bytes) -> None:
        self.__dict__.setdefault("sent", []).append(data)
        super()._send(data)


def test_a_replayed_or_forged_hello_is_refused_and_nothing_is_lost(
        open_session: Callable[..., Session], tmp_path: Path) -> None:
    session = open_session("brooklyn")
    path = tmp_path / "pinochle-board"
    board = RecordingBoard(3, path, TIMING.debounce_ms, TIMING.hold_ms).start()
    panel = ControlPanel(session, TIMING).start()
    alerts: list[tuple[str, str]] = []
    link = BoardConnection(BoardPlace(port=str(path), usb_id=None), panel, backoff=(0.02, 0.2),
                           on_alert=lambda text, source, kind: alerts.append((kind, text)))
    link.start()
    try:
        assert link.wait_linked(5), link.status
        assert "pinochle-fw-1.1, 7 buttons" in link.status
        hellos = [line for line in board.sent if wire.decode(line.strip())[2] == "HELLO"
                  and wire.decode(line.strip())[3][4] != "-"]
        assert hellos  # the board's answer to the Pi's challenge
        first = turn(session)
        board.press(first, "PASS")
        assert wait_until(lambda: len(accepted(session)) == 2)
        # a new connection (the cable out and in again, the board kept power): a new challenge
        board.unplug()
        assert wait_until(lambda: not link.linked)
        board.replug()
        assert link.wait_linked(5)
        board.inject(hellos[0])  # the answer recorded on the first connection, replayed
        assert wait_until(lambda: link.stats().get("stale-answer", 0) == 1), link.stats()
        forged = wire.encode(0, "HELLO", [str(wire.VERSION), "0badbeef", "1", "c0ffee",
                                          "0123456789abcdef", "pinochle-fw-1.1", "7", "-"])
        board.inject(forged + wire.encode(1, "BTN", [str(turn(session)), "BID", "HOLD"]))
        assert wait_until(lambda: link.stats().get("wrong-answer", 0) == 1), link.stats()

        def told(words: str) -> bool:   # the reader thread tells it just after its stats count it
            return any(words in text for kind, text in alerts if kind == "device-garbled")

        assert wait_until(lambda: told("earlier connection (a replayed message?)")), alerts
        assert wait_until(lambda: told("never sent (a forged message?)")), alerts
        settle(session)
        assert [type(e) for e in accepted(session)[1:]] == [Passed]  # the forgery pressed nothing
        # still linked to the real board, whose presses go on as before
        assert link.linked
        board.press(turn(session), "PASS")
        assert wait_until(lambda: len(accepted(session)) == 3)
        assert [e.source for e in accepted(session)[1:]] == ["serial", "serial"]
    finally:
        link.stop()
        panel.stop()
        board.stop()
