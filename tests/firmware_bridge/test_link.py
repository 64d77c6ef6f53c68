"""The link: handshake, acknowledgements, resends, replays, reconnection, and fuzzing."""

from __future__ import annotations

import os

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.firmware import wire
from firmware_bridge.firmware.link import LINKED, Link


class Cable:
    """Two links joined in memory; what each writes waits in its queue until pumped."""

    def __init__(self) -> None:
        self.to_b: list[bytes] = []
        self.to_a: list[bytes] = []
        self.a = Link("aaaa", self.to_b.append, 0, os.urandom)
        self.b = Link("bbbb", self.to_a.append, 0, os.urandom)
        self.got_a: list[tuple[str, list[str]]] = []
        self.got_b: list[tuple[str, list[str]]] = []

    def pump(self, now: float, rounds: int = 10) -> None:
        for _ in range(rounds):
            if not self.to_a and not self.to_b:
                return
            to_b, self.to_b[:] = list(self.to_b), []
            to_a, self.to_a[:] = list(self.to_a), []
            for data in to_b:
                self.got_b += self.b.receive(data, now)
            for data in to_a:
                self.got_a += self.a.receive(data, now)

    def linked(self) -> Cable:
        self.a.restart(0)
        self.pump(0)
        assert self.a.confirmed and self.b.confirmed
        assert self.got_a == [(LINKED, ["bbbb"])] and self.got_b == [(LINKED, ["aaaa"])]
        self.got_a.clear()
        self.got_b.clear()
        return self


def presses(got: list[tuple[str, list[str]]]) -> list[str]:
    return [args[0] for kind, args in got if kind == "BTN"]


def test_handshake_then_each_message_once_in_order() -> None:
    c = Cable().linked()
    for n in range(5):
        c.b.send("BTN", [str(n)], 10)
    c.pump(10)
    assert presses(c.got_a) == ["0", "1", "2", "3", "4"]
    assert c.b.pending() == 0  # all acknowledged


def test_a_lost_acknowledgement_means_a_resend_recognised_as_a_replay() -> None:
    c = Cable().linked()
    c.b.send("BTN", ["x"], 10)
    c.got_a += c.a.receive(c.to_a.pop(), 10)
    c.to_b.clear()  # the ACK is lost on the way
    c.b.tick(400)   # past the resend time: sent again
    c.pump(400)
    assert presses(c.got_a) == ["x"]
    assert c.a.stats["replayed"] == 1
    assert c.b.pending() == 0


def test_a_lost_message_holds_back_the_next_until_both_come_in_order() -> None:
    c = Cable().linked()
    c.b.send("BTN", ["first"], 10)
    c.b.send("BTN", ["second"], 10)
    c.to_a.pop(0)  # "first" is lost
    c.pump(10)
    assert presses(c.got_a) == []
    assert c.a.stats["out-of-order"] == 1
    c.b.tick(400)
    c.pump(400)
    assert presses(c.got_a) == ["first", "second"]


def test_messages_sent_before_the_handshake_wait_for_it() -> None:
    c = Cable()
    c.b.send("BTN", ["early"], 0)
    assert c.to_a == []  # nothing goes out before the link is up
    c.a.restart(0)
    c.pump(0)
    assert presses(c.got_a) == ["early"]


def test_reconnecting_keeps_replays_out_and_drops_stale_state() -> None:
    c = Cable().linked()
    c.b.send("BTN", ["pressed"], 10)
    c.got_a += c.a.receive(c.to_a.pop(), 10)
    c.to_b.clear()  # the ACK dies with the cable
    c.a.send("LEDS", ["1", "0"], 20)
    c.to_b.clear()  # so does the light update
    # the Pi reopens the port: stale lights are dropped, the handshake runs again
    c.a.drop_outbox()
    c.a.restart(1000)
    c.a.send("LEDS", ["2", "0"], 1000)
    c.pump(1000)
    assert presses(c.got_a) == ["pressed"]  # the board's resend was a replay
    assert c.a.stats["replayed"] == 1
    assert [args for kind, args in c.got_b if kind == "LEDS"] == [["2", "0"]]
    assert c.b.stats.get("out-of-order", 0) == 0  # the HELLO told it to skip the dropped number


def test_a_restarted_board_is_a_new_peer_with_its_own_numbering() -> None:
    c = Cable().linked()
    c.b.send("BTN", ["before"], 10)
    c.pump(10)
    # the board rebooted: new nonce, counts from 1
    fresh = Link("cccc", c.to_a.append, 2000, os.urandom)
    c.b = fresh
    fresh.tick(2000)  # its HELLO
    c.pump(2000)
    fresh.send("BTN", ["after"], 2010)
    c.pump(2010)
    assert presses(c.got_a) == ["before", "after"]
    assert c.a.peer == "cccc"


def test_an_unknown_protocol_version_does_not_link() -> None:
    c = Cable()
    # a board with the firmware before the challenge (handshake 1), and a frame of a P2
    c.to_a.append(wire.encode(0, "HELLO", ["1", "zzzz", "1", "-", "pinochle-fw-1.0", "9"]))
    c.to_a.append(b"P2 1 BTN 0 BID TAP *1234\n")
    c.pump(0)
    assert c.a.peer is None and not c.a.confirmed
    assert c.a.stats[wire.UNKNOWN_VERSION] == 2
    assert c.a.refused is not None and "version 1, this one 2" in c.a.refused
    assert "flash the board" in c.a.refused


def test_heartbeats_keep_it_alive_and_silence_kills_it() -> None:
    c = Cable().linked()
    for t in range(0, 10_000, 500):
        c.a.tick(t)
        c.b.tick(t)
        c.pump(t)
    assert c.a.alive(10_000) and c.b.alive(10_000)
    assert not c.a.alive(10_000 + c.a.dead_ms + 1)


def test_noise_between_frames_is_counted_and_harmless() -> None:
    c = Cable().linked()
    c.b.send("BTN", ["ok"], 10)
    real = c.to_a.pop()
    noise = b"MicroPython v1.22.2\r\n>>> \r\n" + b"\x00\xff\xfe" + b"\n" + b"P1 9 BTN"
    c.got_a += c.a.receive(noise + b"\n" + real[:5], 10)
    c.got_a += c.a.receive(real[5:], 10)
    assert presses(c.got_a) == ["ok"]
    assert c.a.stats[wire.NOISE] == 2 and c.a.stats[wire.GARBAGE] == 1
    assert c.a.stats[wire.TORN] == 1


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=300), max_size=20))
def test_random_bytes_never_raise_and_never_invent_a_message(chunks: list[bytes]) -> None:
    c = Cable().linked()
    got: list[tuple[str, list[str]]] = []
    for i, chunk in enumerate(chunks):
        got += c.a.receive(chunk, i)
        c.a.tick(i * 100)
    assert got == []
    fresh = Link("ffff", lambda data: None, 0, os.urandom)
    for chunk in chunks:
        assert fresh.receive(chunk, 0) == []


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.binary(max_size=60), st.text("0123456789", min_size=1,
                                                          max_size=3)), max_size=25))
def test_garbage_between_real_frames_lets_exactly_the_frames_through(
        items: list[bytes | str]) -> None:
    c = Cable().linked()
    sent: list[str] = []
    stream = b""
    for item in items:
        if isinstance(item, str):  # a real message from the board
            c.b.send("BTN", [item], 0)
            stream += c.to_a.pop()
            sent.append(item)
        else:  # junk, ended by a newline so the next frame starts clean
            stream += item + b"\n"
    got: list[tuple[str, list[str]]] = []
    for i in range(0, len(stream), 7):  # torn into small reads, as a serial port delivers
        got += c.a.receive(stream[i:i + 7], 0)
    assert presses(got) == sent
