"""The button language against the real rules core (table.rules.game): pure, no threads."""

from __future__ import annotations

from typing import Any

import pytest

from firmware_bridge.firmware.buttons import HOLD, TAP
from firmware_bridge.language import (
    BID,
    PASS,
    UNDO,
    Action,
    ButtonLanguage,
    Press,
    Refuse,
    Submit,
    taps_to_bid,
)
from table.rules import (
    BidMade,
    Conceded,
    HandDealt,
    Passed,
    PushedToDealer,
    Suit,
    TrumpNamed,
    Undone,
    preset,
)
from table.rules.game import IllegalAction, new_game

WINDOW = 1.2


def dealt(variant: str = "brooklyn", seats: int | None = None) -> Any:
    rules = preset(variant)
    names = [f"P{i}" for i in range(seats or rules.table_seats)]
    return new_game(rules, names).apply(HandDealt(dealer=0))


def press(seat: int | None, button: str, gesture: str = TAP, at: float = 0.0) -> Press:
    return Press(seat, button, gesture, "gpio", at, 1_700_000_000.0 + at)


def events(actions: list[Action]) -> list[Any]:
    assert all(isinstance(a, Submit) for a in actions), actions
    return [a.event for a in actions if isinstance(a, Submit)]


def test_taps_raise_through_legal_bids_and_go_in_after_the_pause() -> None:
    game = dealt()
    lang = ButtonLanguage(WINDOW)
    seat = game.turn
    for k, want in enumerate((300, 310, 320, 330, 350)):  # 340 is forbidden in Brooklyn
        assert lang.press(press(seat, BID, at=k * 0.3), game) == []
        assert lang.pending[seat].bid == want
    assert lang.tick(1.2 + 1.1, 0) == []  # the window runs from the last tap
    (bid,) = events(lang.tick(1.2 + 1.2, 0))
    assert bid == BidMade(seat=seat, amount=350, source="gpio", at=0)  # stamped when it goes in
    assert lang.pending == {} and lang.deadline() is None
    game.apply(bid)  # legal


def test_a_long_press_puts_the_pending_bid_in_at_once() -> None:
    game = dealt()
    lang = ButtonLanguage(WINDOW)
    seat = game.turn
    lang.press(press(seat, BID), game)
    lang.press(press(seat, BID, at=0.2), game)
    (bid,) = events(lang.press(press(seat, BID, HOLD, at=0.9), game))
    assert bid.amount == 310 and lang.pending == {}


def test_a_long_press_with_nothing_pending_bids_the_next_legal_bid() -> None:
    game = dealt()
    game = game.apply(BidMade(seat=game.turn, amount=330))
    (bid,) = events(ButtonLanguage(WINDOW).press(press(game.turn, BID, HOLD), game))
    assert bid.amount == 350
    game.apply(bid)


def test_pass_takes_back_a_pending_raise_and_otherwise_passes() -> None:
    game = dealt()
    lang = ButtonLanguage(WINDOW)
    seat = game.turn
    lang.press(press(seat, BID), game)
    assert lang.press(press(seat, PASS, at=0.4), game) == []
    assert lang.pending == {} and lang.tick(10, 0) == []
    (passed,) = events(lang.press(press(seat, PASS, at=0.8), game))
    assert passed == Passed(seat=seat, source="gpio", at=passed.at)
    game.apply(passed)


@pytest.mark.parametrize("button", [BID, PASS])
def test_a_press_out_of_turn_is_sent_and_the_game_refuses_it(button: str) -> None:
    game = dealt()
    other = (game.turn + 1) % 3
    lang = ButtonLanguage(WINDOW)
    (event,) = events(lang.press(press(other, button), game))
    assert event.seat == other  # never applied to the seat whose turn it is
    assert lang.pending == {}
    with pytest.raises(IllegalAction, match="turn"):
        game.apply(event)


def won_auction(variant: str = "brooklyn") -> Any:
    game = dealt(variant)
    game = game.apply(BidMade(seat=game.turn, amount=350))
    game = game.apply(Passed(seat=game.turn))
    return game.apply(Passed(seat=game.turn))


def test_the_declarer_cycles_the_suits_and_a_long_press_names_trump() -> None:
    game = won_auction()
    assert str(game.phase.value) == "trump"
    lang = ButtonLanguage(WINDOW)
    seat = game.declarer
    shown = []
    for k in range(5):
        lang.press(press(seat, BID, at=k), game)
        shown.append(lang.pending[seat].suit)
    assert shown == [Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES]
    lang.press(press(seat, BID, at=6), game)
    assert lang.tick(100, 0) == []  # a suit being shown never goes in by itself
    (named,) = events(lang.press(press(seat, BID, HOLD, at=7), game))
    assert named == TrumpNamed(seat=seat, suit=Suit.HEARTS, source="gpio", at=named.at)
    assert game.apply(named).trump is Suit.HEARTS


def test_naming_trump_needs_a_suit_shown_first() -> None:
    game = won_auction()
    (refused,) = ButtonLanguage(WINDOW).press(press(game.declarer, BID, HOLD), game)
    assert isinstance(refused, Refuse) and "tap BID" in refused.reason


def test_a_long_pass_concedes_and_the_game_takes_the_voluntary_set() -> None:
    game = won_auction()
    lang = ButtonLanguage(WINDOW)
    assert isinstance(lang.press(press(game.declarer, PASS), game)[0], Refuse)
    (conceded,) = events(lang.press(press(game.declarer, PASS, HOLD), game))
    assert conceded == Conceded(seat=game.declarer, source="gpio", at=conceded.at)
    assert str(game.apply(conceded).phase.value) == "hand-over"


def pushable() -> Any:
    game = dealt()
    opener = game.turn
    game = game.apply(BidMade(seat=opener, amount=300))
    game = game.apply(Passed(seat=game.turn))
    game = game.apply(Passed(seat=game.turn))
    assert str(game.phase.value) == "push" and game.turn == opener
    return game


def test_brooklyn_pass_pushes_a_passed_out_300_to_the_dealer() -> None:
    game = pushable()
    (push,) = events(ButtonLanguage(WINDOW).press(press(game.turn, PASS), game))
    assert push == PushedToDealer(seat=game.turn, source="gpio", at=push.at)
    after = game.apply(push)
    assert after.declarer == after.dealer and str(after.phase.value) == "trump"


def test_brooklyn_choosing_trump_keeps_the_300() -> None:
    game = pushable()
    lang = ButtonLanguage(WINDOW)
    lang.press(press(game.turn, BID), game)
    (named,) = events(lang.press(press(game.turn, BID, HOLD, at=1), game))
    after = game.apply(named)
    assert after.declarer == game.turn and after.trump is Suit.SPADES


def test_undo_drops_every_pending_choice() -> None:
    game = dealt()
    lang = ButtonLanguage(WINDOW)
    lang.press(press(game.turn, BID), game)
    (undo,) = events(lang.press(press(None, UNDO), game))
    assert isinstance(undo, Undone) and undo.source == "gpio"
    assert lang.pending == {}


def test_a_forced_dealer_starts_at_the_forced_bid() -> None:
    game = dealt("classic3")
    game = game.apply(Passed(seat=game.turn))
    game = game.apply(Passed(seat=game.turn))
    assert game.turn == game.dealer
    lang = ButtonLanguage(WINDOW)
    lang.press(press(game.turn, BID), game)
    assert lang.pending[game.turn].bid == 299
    lang.press(press(game.turn, BID, at=0.1), game)
    assert lang.pending[game.turn].bid == 300


def test_presses_that_mean_nothing_now_are_answered_not_dropped() -> None:
    before_deal = new_game(preset("bison"), ["A", "B", "C"])
    lang = ButtonLanguage(WINDOW)
    for button in (BID, PASS):
        (answer,) = lang.press(press(0, button), before_deal)
        assert isinstance(answer, Refuse) and "deal" in answer.reason


def test_stale_choices_are_forgotten_when_the_turn_moves_on() -> None:
    game = dealt()
    lang = ButtonLanguage(WINDOW)
    lang.press(press(game.turn, BID), game)
    moved = game.apply(Passed(seat=game.turn))
    assert lang.forget_stale(moved) and lang.pending == {}


def test_taps_to_bid_counts_the_raises() -> None:
    game = dealt()
    seat = game.turn
    assert taps_to_bid(game, seat, 300) == 1
    assert taps_to_bid(game, seat, 350) == 5  # 300 310 320 330 350
    assert taps_to_bid(game, seat, 340) is None  # a forbidden ending is never reached
