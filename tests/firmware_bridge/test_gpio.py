"""Seat buttons on gpiozero's mock pins, through the panel, into a real session."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from firmware_bridge.config import Wiring, default_wiring
from firmware_bridge.gpio import GpioControls
from firmware_bridge.panel import ControlPanel
from table.rules import (
    BidMade,
    Conceded,
    Passed,
    PushedToDealer,
    Suit,
    TrumpNamed,
    Undone,
)
from table.session import Session

from .conftest import FakeClock, accepted, refused, settle, turn, wait_until


class Table:
    """Mock pins, a panel on a fake clock, and the session they feed."""

    def __init__(self, session: Session, factory: Any, wiring: Wiring) -> None:
        self.session = session
        self.clock = FakeClock()
        self.wiring = wiring
        self.factory = factory
        self.panel = ControlPanel(session, wiring.timing, clock=self.clock).start(timer=False)
        self.gpio = GpioControls(wiring, self.panel, pin_factory=factory)

    def pin(self, bcm: int) -> Any:
        return self.factory.pin(bcm)

    def button_pin(self, seat: int | None, button: str) -> Any:
        if seat is None:
            return self.pin(self.wiring.undo)
        pins = self.wiring.seats[seat]
        return self.pin(pins.bid if button == "BID" else pins.pass_)

    def tap(self, seat: int | None, button: str, hold: bool = False, bounce: int = 0) -> None:
        pin = self.button_pin(seat, button)
        for _ in range(bounce):  # chatter: 1 ms apart, well inside the debounce window
            pin.drive_low()
            self.clock.advance(0.001)
            pin.drive_high()
            self.clock.advance(0.001)
        pin.drive_low()  # pressed: the button joins the pin to ground
        self.clock.advance(0.1)
        if hold:
            self.clock.advance(self.wiring.timing.hold_ms / 1000)
            self.panel.tick()
        for _ in range(bounce):
            pin.drive_high()
            self.clock.advance(0.001)
            pin.drive_low()
            self.clock.advance(0.001)
        pin.drive_high()
        self.clock.advance(self.wiring.timing.debounce_ms / 1000 + 0.005)
        self.panel.tick()
        settle(self.session)

    def wait_out_the_raise(self) -> None:
        self.clock.advance(self.wiring.timing.raise_window_ms / 1000)
        self.panel.tick()
        settle(self.session)

    def light(self, seat: int) -> bool:
        return bool(self.pin(self.wiring.seats[seat].light).state)

    def suit_light(self, index: int) -> bool:
        pin = self.wiring.suit_lights[index]
        assert pin is not None
        return bool(self.pin(pin).state)

    def close(self) -> None:
        self.panel.stop()
        self.gpio.close()


@pytest.fixture
def table(open_session: Callable[..., Session], pin_factory: Any) -> Iterator[Callable[...,
                                                                                         Table]]:
    tables: list[Table] = []

    def make(variant: str = "brooklyn") -> Table:
        session = open_session(variant)
        t = Table(session, pin_factory, default_wiring(session.rules.table_seats))
        tables.append(t)
        return t

    yield make
    for t in tables:
        t.close()


def test_an_auction_trump_and_undo_all_from_the_buttons(table: Callable[..., Table]) -> None:
    t = table()
    first = turn(t.session)
    assert t.light(first) and not any(t.light(s) for s in range(3) if s != first)
    t.tap(first, "BID")
    t.tap(first, "BID")
    t.tap(first, "BID")
    t.tap(first, "BID")
    t.tap(first, "BID")  # 300 310 320 330 350: forties are not bid in Brooklyn
    assert accepted(t.session)[-1].__class__.__name__ == "HandDealt"  # still raising
    t.wait_out_the_raise()
    assert accepted(t.session)[-1] == BidMade(seat=first, amount=350, source="gpio",
                                              at=accepted(t.session)[-1].at)
    second = turn(t.session)
    assert t.light(second) and not t.light(first)
    t.tap(second, "PASS")
    t.tap(turn(t.session), "PASS")
    game = t.session.game
    assert str(game.phase.value) == "trump" and game.declarer == first
    t.tap(first, "BID")
    t.tap(first, "BID")
    assert t.suit_light(1) and not t.suit_light(0)  # hearts shown while choosing
    t.tap(first, "BID", hold=True)
    assert t.session.game.trump is Suit.HEARTS
    assert isinstance(accepted(t.session)[-1], TrumpNamed)
    t.tap(None, "UNDO")
    assert t.session.game.trump is None
    assert isinstance(accepted(t.session)[-1], Undone)
    t.tap(first, "PASS", hold=True)  # the voluntary set
    assert isinstance(accepted(t.session)[-1], Conceded)
    assert str(t.session.game.phase.value) == "hand-over"
    assert {e.source for e in accepted(t.session)[1:]} == {"gpio"}
    assert refused(t.session) == []


def test_a_long_bid_press_bids_at_once_and_lights_follow(table: Callable[..., Table]) -> None:
    t = table()
    first = turn(t.session)
    t.tap(first, "BID", hold=True)
    assert accepted(t.session)[-1] == BidMade(seat=first, amount=300, source="gpio",
                                              at=accepted(t.session)[-1].at)
    assert t.light(turn(t.session))


def test_chattering_contacts_make_one_press(table: Callable[..., Table]) -> None:
    t = table()
    first = turn(t.session)
    t.tap(first, "PASS", bounce=4)
    assert [type(e) for e in accepted(t.session)[1:]] == [Passed]
    assert refused(t.session) == []


def test_a_press_out_of_turn_is_refused_with_a_buzz(table: Callable[..., Table]) -> None:
    t = table()
    first = turn(t.session)
    other = (first + 1) % 3
    before = t.session.game
    t.tap(other, "BID")
    (record,) = refused(t.session)
    assert record.event == BidMade(seat=other, amount=300, source="gpio", at=record.event.at)
    assert "turn" in (record.reason or "")
    assert t.session.game == before
    buzzer = t.pin(t.wiring.buzzer or 0)
    assert wait_until(lambda: any(s.state for s in buzzer.states))
    assert t.panel.refusals and "turn" in t.panel.refusals[-1]


def test_a_pending_raise_blinks_the_seat_light(table: Callable[..., Table]) -> None:
    t = table()
    first = turn(t.session)
    pin = t.pin(t.wiring.seats[first].light)
    t.tap(first, "BID")
    assert wait_until(lambda: {s.state for s in pin.states[-4:]} == {True, False})
    t.tap(first, "PASS")  # takes the raise back; nothing was bid
    assert [type(e) for e in accepted(t.session)[1:]] == []
    assert wait_until(lambda: t.light(first))


def test_brooklyn_push_to_the_dealer_from_the_buttons(table: Callable[..., Table]) -> None:
    t = table()
    opener = turn(t.session)
    t.tap(opener, "BID", hold=True)  # 300
    t.tap(turn(t.session), "PASS")
    t.tap(turn(t.session), "PASS")
    assert str(t.session.game.phase.value) == "push"
    t.tap(opener, "PASS")
    assert isinstance(accepted(t.session)[-1], PushedToDealer)
    assert t.session.game.declarer == t.session.game.dealer
