"""`Game.expected()` agrees with the game: every move the simulated players make in seeded
games (known and hidden hands, every preset) is one the query said was expected."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from table.rules import (
    PRESET_NAMES,
    BidMade,
    Buried,
    CardPlayed,
    CardsPassed,
    HandDealt,
    KittyShown,
    MeldShown,
    Passed,
    Phase,
    PushedToDealer,
    SimTable,
    StockDrawn,
    TrickGathered,
    TrumpNamed,
    new_game,
    preset,
)
from table.rules.expected import Buttons

from .game_helpers import at


def _check_games(name: str, known: bool, games: int = 3) -> set[str]:
    """Play seeded games; return the kinds of move checked against the query."""
    rules = preset(name)
    seen: set[str] = set()
    for seed in range(games):
        g = new_game(rules)
        sim = SimTable(rules, random.Random(seed), known=known)
        while g.phase is not Phase.GAME_OVER and g.hand_number < 6:
            x = g.expected()
            e = sim.next_event(g)
            assert x.phase is g.phase and x.turn == g.turn
            kind = type(e).__name__
            if isinstance(e, HandDealt):
                assert e.dealer == x.dealer
            elif isinstance(e, BidMade | Passed):
                assert x.buttons is Buttons.BID and e.seat == x.turn
                assert isinstance(e, Passed) or e.amount >= x.bids[0] or e.amount == x.forced_bid
                assert isinstance(e, BidMade) or x.forced_bid is None
            elif isinstance(e, PushedToDealer):
                assert x.push is not None and x.push.seat == e.seat
            elif isinstance(e, KittyShown) and g.phase is not Phase.AUCTION:
                assert x.kitty is not None and x.kitty.count == len(e.cards)
            elif isinstance(e, TrumpNamed):
                assert x.buttons in (Buttons.TRUMP, Buttons.PUSH) and e.seat == g.declarer
            elif isinstance(e, Buried) and not rules.draw_from_stock:
                assert x.bury is not None and x.bury.seat == e.seat
                if not known and g.phase is Phase.BURY:
                    assert x.face_down == replace(e, cards=None, source="")
            elif isinstance(e, Buried):
                assert e.seat in x.piles
            elif isinstance(e, CardsPassed):
                assert x.passing is not None
                assert (x.passing.seat, x.passing.to_seat) == (e.seat, e.to_seat)
                assert x.face_down == (None if known else replace(e, cards=None, source=""))
            elif isinstance(e, MeldShown):
                assert e.seat in x.meld
            elif isinstance(e, CardPlayed):
                assert x.play == e.seat and x.lead == (not g.trick or g.trick_full)
            elif isinstance(e, TrickGathered):
                assert x.gather
            elif isinstance(e, StockDrawn):
                assert x.draw is not None and x.draw.seat == e.seat
            seen.add(kind)
            after = g.apply(e)
            sim.observe(e, g)
            g = after
    return seen


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_simulated_move_was_expected(name: str) -> None:
    seen = _check_games(name, known=True) | _check_games(name, known=False)
    assert {"HandDealt", "CardPlayed", "TrickGathered"} <= seen


def test_the_next_dealer_moves_left_after_a_hand_unless_it_is_redealt() -> None:
    rules = preset("bison")
    g = new_game(rules, first_dealer=2)
    assert g.expected().dealer == 2 and g.next_dealer == 2
    sim = SimTable(rules, random.Random(4))
    while g.phase is not Phase.HAND_OVER:
        e = sim.next_event(g)
        g, before = g.apply(e), g
        sim.observe(e, before)
        if g.phase is not Phase.HAND_OVER:
            assert g.expected().dealer is None
    assert g.result is not None
    assert g.expected().dealer == (2 if g.result.redeal else 0)


def test_a_hidden_racehorse_hand_owes_both_passes_face_down() -> None:
    g = at("racehorse Ann,Bob,Cy,Di 0,0,0,0 d3 #0 : deal 0:250 1:p 2:p 3:p 0:trump=S")
    x = g.expected()
    assert x.passing is not None and (x.passing.seat, x.passing.to_seat) == (2, 0)
    assert x.face_down == CardsPassed(seat=2, to_seat=0, cards=None)
    assert x.buttons is Buttons.CONCEDE and x.meld == (0,)
    g = g.apply(CardsPassed(seat=2, to_seat=0, cards=None))
    assert g.expected().face_down == CardsPassed(seat=0, to_seat=2, cards=None)
