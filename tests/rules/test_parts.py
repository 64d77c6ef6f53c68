"""A position as values: the auction's facts read from its bids, the parts replaced by name, and
equality by value (not by the printed notation)."""

from __future__ import annotations

from table.rules import BidMade, Game, Passed, Phase, new_game, preset
from table.rules.auction import Auction

from .game_helpers import at, sim_hands


def test_the_auction_reads_the_high_bid_and_who_passed_from_its_bids() -> None:
    a = Auction().with_bid(1, 250).with_bid(2, None).with_bid(0, 260).with_bid(1, None)
    assert a.bids == ((1, 250), (2, None), (0, 260), (1, None))
    assert (a.high_bid, a.high_bidder) == (260, 0)
    assert a.passed == {1, 2} and a.spoke == {0, 1, 2} and a.amounts_bid == 2
    assert Auction().high_bid is None and Auction().high_bidder is None
    assert Auction().with_bid(2, None).passed == {2}


def test_parts_are_replaced_not_changed() -> None:
    g = new_game(preset("bison"))
    a = g.hand.auction
    b = a.with_bid(1, 250)
    assert a.bids == () and b.bids == ((1, 250),)
    moved = g.hand.replace(turn=2)
    assert moved.turn == 2 and g.hand.turn is None and moved.auction is g.hand.auction
    assert g.standing.replace(pot=5).pot == 5 and g.standing.pot == 0


def test_the_game_reads_its_facts_from_its_parts() -> None:
    g = at("bison Ann,Bob,Cy 0,0,0 d0 #0 : deal 1:250 2:p 0:260")
    assert g.phase is Phase.AUCTION and g.turn == 1
    assert (g.high_bid, g.high_bidder) == (260, 0) and g.passed == {2}
    assert g.bids == g.hand.auction.bids and g.high_bid == g.hand.auction.high_bid
    g = g.apply(Passed(seat=1))
    assert g.declarer == 0 and g.bid == 260 and g.contract.declarer == 0
    assert g.trick_leader is None and g.hand.play.trick_leader is None


def test_equal_positions_are_equal_values_wherever_their_moves_came_from() -> None:
    g = at("bison Ann,Bob,Cy 0,0,0 d0 #0 : deal 1:250")
    from_buttons = g.apply(BidMade(seat=2, amount=260, source="buttons", at=12.5))
    from_page = g.apply(BidMade(seat=2, amount=260, source="page"))
    assert from_buttons == from_page and hash(from_buttons) == hash(from_page)
    assert from_buttons != g.apply(BidMade(seat=2, amount=270, source="buttons"))
    assert from_buttons != g and g != g.position()


def test_a_position_read_back_from_its_notation_is_the_same_value() -> None:
    rules = preset("classic3")
    for i, (_, _, g) in enumerate(sim_hands(rules, seed=3, hands=3)):
        if i % 11 == 0:
            back = Game.parse(g.position())
            assert back == g and hash(back) == hash(g)
            assert back.standing == g.standing and back.hand.play == g.hand.play
            assert back.hand.melds == g.hand.melds and back.hand.contract == g.hand.contract


def test_the_hand_keeps_the_standing_it_was_dealt_from() -> None:
    rules = preset("bison")
    for *_, g in sim_hands(rules, seed=5, hands=3):
        if g.phase is Phase.PLAY:
            opening = g.hand.opening
            assert opening.hand_number == g.hand_number - 1
            assert opening.scores == g.start.scores and g.start.phase is Phase.DEAL
            assert g.start.hand.opening == opening
            assert g.position().startswith(g.start.position())
            break
    else:
        raise AssertionError("no hand was played")
