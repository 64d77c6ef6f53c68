"""The board's program on CPython: buttons to frames, frames to lights and buzzer."""

from __future__ import annotations

import os

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.firmware.board import Board
from firmware_bridge.firmware.link import Link

BUTTONS = [("0", "BID"), ("0", "PASS"), ("1", "BID"), ("1", "PASS"), ("T", "UNDO")]


class Bench:
    """A board and a Pi-side link on one in-memory cable."""

    def __init__(self) -> None:
        self.to_pi: list[bytes] = []
        self.to_board: list[bytes] = []
        self.board = Board(BUTTONS, self.to_pi.append, 0, "b0a2d", os.urandom,
                           debounce_ms=20, hold_ms=500)
        self.pi = Link("91", self.to_board.append, 0, os.urandom)
        self.got: list[tuple[str, list[str]]] = []
        self.levels = [False] * len(BUTTONS)
        self.pi.restart(0)
        self.pump(0)

    def pump(self, now: float) -> None:
        for _ in range(10):
            if not self.to_pi and not self.to_board:
                return
            for data in self.to_board[:]:
                self.to_board.remove(data)
                self.board.receive(data, now)
            for data in self.to_pi[:]:
                self.to_pi.remove(data)
                self.got += self.pi.receive(data, now)

    def hold(self, i: int, down: float, up: float, step: float = 5) -> None:
        t = down
        while t <= up:
            self.levels[i] = t < up
            self.board.scan(self.levels, t)
            self.pump(t)
            t += step


def gestures(bench: Bench) -> list[list[str]]:
    return [args for kind, args in bench.got if kind == "BTN"]


def test_taps_and_holds_of_each_button_reach_the_pi() -> None:
    b = Bench()
    b.hold(0, 0, 100)          # seat 0 BID tap
    b.hold(3, 200, 900)        # seat 1 PASS long press
    b.hold(4, 1000, 1060)      # UNDO tap
    assert gestures(b) == [["0", "BID", "TAP"], ["1", "PASS", "HOLD"], ["T", "UNDO", "TAP"]]


def test_lights_and_buzzer_follow_the_pi() -> None:
    b = Bench()
    b.pi.send("LEDS", ["22", "1"], 10)  # seat 1 lit, hearts lit, seat 0 blinking
    b.pi.send("BUZZ", ["100", "50", "2"], 10)
    b.pump(10)
    levels = b.board.light_levels(10)
    assert levels[1] and levels[5] and not levels[2] and not levels[4]
    assert b.board.light_levels(10)[0] != b.board.light_levels(10 + b.board.blink_ms)[0]
    assert [b.board.buzzing(t) for t in (10, 109, 111, 170, 260, 400)] == [
        True, True, False, True, False, False]


def test_bad_orders_are_rejected_and_change_nothing() -> None:
    b = Bench()
    b.pi.send("LEDS", ["3", "0"], 10)
    b.pi.send("LEDS", ["zz", "0"], 10)
    b.pi.send("BUZZ", ["99999", "0", "1"], 10)
    b.pi.send("DANCE", [], 10)
    b.pump(10)
    assert b.board.lit == 3 and not b.board.buzzing(11)
    assert b.board.rejected == 3


def test_a_silent_pi_makes_the_seat_lights_pulse_together() -> None:
    b = Bench()
    b.pi.send("LEDS", ["20", "0"], 10)
    b.pump(10)
    assert b.board.light_levels(100)[5]
    late = 100 + b.board.link.dead_ms
    pulses = {tuple(b.board.light_levels(late + k * 1000)) for k in range(2)}
    assert pulses == {(True,) * 4 + (False,) * 4, (False,) * 8}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=200), max_size=10))
def test_the_board_shrugs_off_random_bytes(chunks: list[bytes]) -> None:
    b = Bench()
    b.pi.send("LEDS", ["5", "0"], 10)
    b.pump(10)
    for i, chunk in enumerate(chunks):
        b.board.receive(chunk, 20 + i)
        b.board.tick(20 + i)
    assert (b.board.lit, b.board.blink) == (5, 0) and not b.board.buzzing(30)
    assert b.board.rejected == 0
