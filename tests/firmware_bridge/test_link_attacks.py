"""Issue 19 item 11: a forged HELLO with a far resume number, and presses the wiring does not
have. Bounded, in memory: the link and the Pi-side board connection, no port."""

from __future__ import annotations

from firmware_bridge.config import BoardPlace
from firmware_bridge.firmware import wire
from firmware_bridge.firmware.board import BUTTON
from firmware_bridge.firmware.link import HELLO, MAX_SKIP
from firmware_bridge.serial_board import BoardConnection

from .test_link import Cable, presses


def _hello(nonce: str, resume: int, answer: str = "-", challenge: str = "0badc0de") -> bytes:
    return wire.encode(0, HELLO, [str(wire.VERSION), nonce, str(resume), challenge, answer])


def test_a_forged_hello_with_a_far_resume_number_drops_no_later_press() -> None:
    c = Cable().linked()
    for n in range(3):
        c.b.send("BTN", [str(n)], 10)
    c.pump(10)
    # the board's own nonce, a resume number far ahead: before the fix every later press was
    # taken for a replay and dropped, across replugging
    for forged in (10**6, 4 + MAX_SKIP + 1, 2**31):
        assert c.a.receive(_hello("bbbb", forged, c.a.challenge), 20) == []
    assert c.a.stats["far-resume"] == 3
    for n in range(3, 6):
        c.b.send("BTN", [str(n)], 30)
    c.pump(30)
    assert presses(c.got_a) == ["0", "1", "2", "3", "4", "5"]
    # and after a replug (both ends hand-shake again, keeping their nonces)
    c.a.restart(40)
    c.b.restart(40)
    c.pump(40)
    c.b.send("BTN", ["6"], 50)
    c.pump(50)
    assert presses(c.got_a)[-1] == "6" and c.a.stats.get("replayed", 0) == 0


def test_a_new_board_must_start_its_numbers_near_one() -> None:
    c = Cable().linked()
    # a stranger's nonce with a far number is ignored; a board that restarted (new nonce,
    # numbers from 1) is taken
    assert c.a.receive(_hello("evil", 5000, c.a.challenge), 10) == []
    assert c.a.peer == "bbbb" and c.a.stats["far-resume"] == 1
    assert c.a.receive(_hello("b2b2", 1), 20) == []  # not linked before it answers
    assert c.a.peer == "bbbb"
    c.a.receive(_hello("b2b2", 1, c.a.challenge), 20)
    assert c.a.peer == "b2b2"


def test_a_near_skip_is_still_taken() -> None:
    """A board whose outbox overflowed while unplugged resumes a little ahead: that holds."""
    c = Cable().linked()
    c.a.receive(_hello("bbbb", 1 + MAX_SKIP, c.a.challenge), 10)
    assert c.a.stats.get("far-resume", 0) == 0 and c.a.stats["skipped"] == MAX_SKIP


def test_presses_are_checked_against_the_wiring() -> None:
    got: list[tuple[int | None, str, str]] = []
    alerts: list[str] = []
    board = BoardConnection(BoardPlace(port="/nonexistent", usb_id=None),
                            on_gesture=lambda src, seat, button, g: got.append((seat, button, g)),
                            on_alert=lambda text, src, kind: alerts.append(kind), seats=3)
    for where, button in (("99", "UNDO"), ("0", "UNDO"), ("3", "BID"), ("²", "BID"),
                          ("T", "BID"), ("-1", "PASS"), ("007", "BID")):
        board._obey(BUTTON, [where, button, "TAP"])
    assert got == [] and board.unknown == 7
    for where, button in (("T", "UNDO"), ("0", "BID"), ("2", "PASS")):
        board._obey(BUTTON, [where, button, "TAP"])
    assert got == [(None, "UNDO", "TAP"), (0, "BID", "TAP"), (2, "PASS", "TAP")]
    # a far resume seen by the link is told to the players once
    board._link.stats["far-resume"] = 2
    board._tell_far_resume()
    board._tell_far_resume()
    assert alerts == ["device-garbled"]


def test_a_board_with_firmware_before_the_challenge_is_told_once() -> None:
    alerts: list[tuple[str, str]] = []
    board = BoardConnection(BoardPlace(port="/nonexistent", usb_id=None),
                            on_alert=lambda text, src, kind: alerts.append((kind, text)))
    old = wire.encode(0, HELLO, ["1", "b0a4d001", "1", "-", "pinochle-fw-1.0", "9"])
    for now in (0, 500, 1000):  # it says HELLO again and again, and never links
        assert board._link.receive(old, now) == []
        board._tell_refused()
    assert not board._link.confirmed and board._link.stats[wire.UNKNOWN_VERSION] == 3
    assert alerts == [("device-garbled", "The button board's link: the other end speaks "
                       "handshake version 1, this one 2: put the same program on both (flash "
                       "the board).")]
