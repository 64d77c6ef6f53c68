"""The state machine, step by step, on scripted positions (notation in table/rules/notation.py).

Seats: South 0, West 1, East 2 (North 2 and East 3 with four). With South dealing, West speaks
first. Citations are to the rule texts in ../shared/rules/.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from table.rules import (
    BidMade,
    Buried,
    Card,
    CardPlayed,
    Conceded,
    Game,
    HandDealt,
    KittyShown,
    MeldShown,
    Passed,
    Phase,
    PushedToDealer,
    SimTable,
    Suit,
    TrickGathered,
    TrumpNamed,
    legal_plays,
    new_game,
    parse_cards,
    play_error,
    preset,
)

from .game_helpers import at, refused, sim_hands

B3 = "South,West,East 0,0,0 d0 #0"
B4 = "South,West,North,East 0,0,0,0 d0 #0"


def test_a_new_game_waits_for_the_deal() -> None:
    g = new_game(preset("bison"), ["Ann", "Bob", "Cy"])
    assert g.phase is Phase.DEAL
    assert g.position() == "bison Ann,Bob,Cy 0,0,0 d0 #0 :"
    g = g.apply(HandDealt(dealer=0))
    assert (g.phase, g.turn) == (Phase.AUCTION, 1)


def test_the_wrong_dealer_is_refused() -> None:
    assert refused(new_game(preset("bison")), HandDealt(dealer=2)) == \
        "it is South's deal, not East's"


# -- the auction (000, 001, 002, 003, 004) --------------------------------------------------

def test_out_of_turn_bid_is_refused_and_names_both_seats() -> None:
    g = at(f"bison {B3} : deal")
    assert refused(g, BidMade(seat=2, amount=250)) == "it is West's turn to bid, not East's"


@pytest.mark.parametrize("amount, reason", [
    (240, "the minimum bid is 250"),
    (255, "bids go up in steps of 10"),
])
def test_bison_bids_are_multiples_of_ten_from_250(amount: int, reason: str) -> None:
    g = at(f"bison {B3} : deal")
    assert refused(g, BidMade(seat=1, amount=amount)) == f"West cannot bid {amount}: {reason}"


def test_bison_jump_bids_are_allowed_but_must_go_higher() -> None:
    g = at(f"bison {B3} : deal 1:300")
    assert refused(g, BidMade(seat=2, amount=300)).endswith("a bid must be higher than 300")
    assert g.apply(BidMade(seat=2, amount=450)).high_bid == 450


def test_brooklyn_opens_at_300_and_forbids_bids_ending_in_40_or_90() -> None:
    g = at(f"brooklyn {B3} : deal")
    assert "minimum bid is 300" in refused(g, BidMade(seat=1, amount=250))
    g = g.apply(BidMade(seat=1, amount=300))
    assert "no bid may end in 40 or 90" in refused(g, BidMade(seat=2, amount=340))
    assert "no bid may end in 40 or 90" in refused(g, BidMade(seat=2, amount=390))
    assert g.rules.next_bid(330) == 350
    variation = replace(preset("brooklyn"), forbidden_endings=())
    assert variation.next_bid(330) == 340


def test_a_pass_is_final() -> None:
    g = at(f"bison {B3} : deal 1:250 2:p 0:260")
    assert g.turn == 1
    assert refused(g, BidMade(seat=2, amount=270)) == "it is West's turn to bid, not East's"
    g = g.apply(Passed(seat=1))
    assert (g.phase, g.declarer, g.bid) == (Phase.TRUMP, 0, 260)


def test_bison_all_pass_throws_the_hand_in_and_the_deal_moves_left() -> None:
    g = at(f"bison {B3} : deal 1:p 2:p 0:p")
    assert g.phase is Phase.HAND_OVER
    assert g.result is not None and g.result.outcome == "thrown in"
    assert g.scores == (0, 0, 0)
    assert refused(g, HandDealt(dealer=0)) == "it is West's deal, not South's"
    assert g.apply(HandDealt(dealer=1)).turn == 2


def test_racehorse_dealer_must_bid_when_the_others_pass() -> None:
    """002: 'If nobody else bids, then the dealer is required to bid at least the minimum.'"""
    g = at(f"racehorse {B4} : deal 1:p 2:p 3:p")
    assert refused(g, Passed(seat=0)) == "South may not pass: must bid at least 250"
    assert g.apply(BidMade(seat=0, amount=250)).declarer == 0


def test_family_is_one_round_and_the_dealer_takes_it_at_20() -> None:
    """003: single round of bidding; 'if neither of the first two players bids, the dealer
    must take the bid for 20'."""
    g = at(f"family {B3} : deal 1:p 2:p")
    assert refused(g, Passed(seat=0)) == "South may not pass: must bid at least 20"
    g = at(f"family {B3} : deal 1:21 2:25 0:p")
    assert (g.phase, g.declarer, g.bid) == (Phase.TRUMP, 2, 25)  # West never speaks again
    g = at(f"family {B3} : deal 1:21 2:p")
    assert g.apply(BidMade(seat=0, amount=22)).declarer == 0


def test_004_dealer_names_trump_one_below_the_minimum() -> None:
    """004: 'If all players other than the dealer pass, the dealer names trump at a price
    usually one less than the minimum bid.'"""
    g = at(f"partnership4 {B4} : deal 1:p 2:p 3:p")
    assert g.must_bid(0) == 149
    assert g.apply(BidMade(seat=0, amount=149)).bid == 149


def test_bison_variation_dealers_left_must_open() -> None:
    rules = replace(preset("bison"), all_pass=preset("bison").all_pass.OPENER_FORCED)
    g = new_game(rules).apply(HandDealt(dealer=0))
    assert "may not pass: must bid at least 250" in refused(g, Passed(seat=1))


def test_brooklyn_300_passed_out_may_be_pushed_to_the_dealer_at_250() -> None:
    """001: 'If after an initial bid of 300 the other two players pass, the original bidder
    can either take on the 300 bid or require the dealer to take over the bid for 250.'"""
    g = at(f"brooklyn {B3} : deal 1:300 2:p 0:p")
    assert (g.phase, g.turn) == (Phase.PUSH, 1)
    pushed = g.apply(PushedToDealer(seat=1))
    assert (pushed.phase, pushed.declarer, pushed.bid) == (Phase.TRUMP, 0, 250)
    kept = g.apply(KittyShown(cards=tuple(parse_cards("AS 9H QD"))))
    assert (kept.declarer, kept.bid, kept.kitty_shown) == (1, 300, True)
    assert at(f"brooklyn {B3} : deal 1:300 2:310 0:p 1:p").phase is Phase.TRUMP


def test_brooklyn_fourth_player_sits_out_on_the_dealers_right() -> None:
    rules = replace(preset("brooklyn"), seats_at_table=4)
    g = new_game(rules).apply(HandDealt(dealer=0))
    assert g.active == (1, 2, 0)  # East (3), on South's right, sits out
    assert refused(g, BidMade(seat=3, amount=300)) == "East sits out this hand"
    dealer_out = replace(rules, sit_out=rules.sit_out.DEALER)
    assert new_game(dealer_out).apply(HandDealt(dealer=0)).active == (1, 2, 3)


def test_004_a_player_holding_meld_must_open() -> None:
    rules = preset("classic3")
    for seed in range(50):
        sim = SimTable(rules, random.Random(seed))
        g = new_game(rules).apply(sim.deal(0, (1, 2, 0)))
        if g.must_bid(1) == 300:
            assert refused(g, Passed(seat=1)) == "West may not pass: must bid at least 300"
            return
    raise AssertionError("no deal gave West meld")


# -- kitty, trump, bury, meld ---------------------------------------------------------------

KITTY = f"bison {B3} : deal 1:250 2:p 0:p kitty=AS.9H.QD"


def test_only_the_declarer_names_trump() -> None:
    g = at(KITTY)
    assert refused(g, TrumpNamed(seat=2, suit=Suit.SPADES)) == \
        "it is West's turn to name trump, not East's"
    assert g.apply(TrumpNamed(seat=1, suit=Suit.SPADES)).trump is Suit.SPADES


def test_bury_exactly_three_and_not_twice() -> None:
    g = at(KITTY + " 1:trump=S")
    assert refused(g, Buried(seat=1, cards=tuple(parse_cards("AS 9H")))) == \
        "bury exactly 3 cards, not 2"
    g = g.apply(Buried(seat=1))
    assert g.phase is Phase.MELD
    assert refused(g, Buried(seat=1)) == "the declarer has already buried"


def test_brooklyn_opponents_do_not_meld() -> None:
    g = at(f"brooklyn {B3} : deal 1:300 2:310 0:p 1:p kitty=AS.9H.QD 2:trump=H 2:bury=?")
    assert refused(g, MeldShown(seat=0, cards=tuple(parse_cards("KS QS")))) == \
        "only the declarer melds in brooklyn"


def test_meld_is_scored_by_the_rules_core() -> None:
    g = at(KITTY + " 1:trump=S 1:bury=? 1:meld=AS.10S.KS.QS.JS 2:meld=QS.QH.QC.QD.JD")
    assert g.melds[1] is not None and g.melds[1].total == 150
    assert g.melds[2] is not None and g.melds[2].total == 100  # 000: 60 queens + pinochle


def test_a_face_seen_a_third_time_is_refused_as_a_misread() -> None:
    g = at(KITTY + " 1:trump=S 1:bury=? 1:meld=AS.10S.KS.QS.JS 2:meld=AS.AH.AC.AD")
    reason = refused(g, MeldShown(seat=0, cards=tuple(parse_cards("AS AH AC AD"))))
    assert reason == ("the ace of spades has now been seen 3 times, and the deck has 2: "
                      "was it misread?")


def test_family_declarer_may_meld_before_burying_but_not_bury_meld() -> None:
    """003: bury 'prior to showing meld - or while the meld is still on the table'."""
    base = f"family {B3} : deal 1:20 2:p 0:p kitty=AS.9H.QD 1:trump=S 1:meld=AS.10S.KS.QS.JS"
    g = at(base)
    assert g.phase is Phase.MELD and not g.bury_done
    g = g.apply(Buried(seat=1, cards=tuple(parse_cards("9H QD 9C"))))
    assert g.bury_done
    for e, before, _ in sim_hands(preset("family"), seed=5, hands=6):
        d = before.declarer
        if isinstance(e, Buried) and d is not None and before.melds[d] is not None \
                and before.meld_cards[d]:
            meld_card = before.meld_cards[d][0]
            spare = [c for c in e.cards or () if c is not meld_card][:2]
            reason = refused(before, Buried(seat=d, cards=(meld_card, *spare)))
            assert reason == "buried cards cannot be melded: take them out of the meld"
            return
    raise AssertionError("the simulated declarer never melded before burying")


def test_bison_bury_before_meld() -> None:
    """000: the bidder discards, then names trump and melds."""
    g = at(KITTY + " 1:trump=S")
    assert refused(g, MeldShown(seat=1, cards=tuple(parse_cards("KS QS")))) == \
        "West must bury 3 cards before showing meld"
    assert at(KITTY + " 1:bury=? 1:trump=S").phase is Phase.MELD  # either order


# -- the play ---------------------------------------------------------------------------------

def test_the_declarer_leads_first() -> None:
    g = at(KITTY + " 1:trump=S 1:bury=?")
    assert refused(g, CardPlayed(seat=2, card=Card.parse("AH"))) == "West leads the first trick"


def test_a_finished_trick_is_won_and_gathered() -> None:
    g = at(KITTY + " 1:trump=S 1:bury=? 1:AS 2:9S 0:JS")
    assert g.trick_full and g.turn == 1 and g.taken[1] == 10
    assert refused(g.apply(TrickGathered()), TrickGathered()) == \
        "there is no finished trick to gather"
    assert g.apply(CardPlayed(seat=1, card=Card.parse("AH"))).trick == (
        (1, Card.parse("AH")),)  # leading again gathers the trick


def test_of_two_identical_cards_the_first_wins() -> None:
    g = at(KITTY + " 1:trump=S 1:bury=? 1:KS 2:10S 0:10S")
    assert g.turn == 2


def test_an_illegal_play_with_known_hands_is_refused_naming_the_rule() -> None:
    for rules in (preset("bison"), preset("racehorse"), preset("family"), preset("classic3")):
        found = False
        for e, before, _ in sim_hands(rules, seed=7, hands=3):
            if not isinstance(e, CardPlayed) or before.trick_full:
                continue
            hand = before.hand_of(e.seat)
            assert hand is not None
            trick = [c for _, c in before.trick]
            first = not before.tricks and not before.trick
            legal = legal_plays(hand, trick, before.trump, rules, first)
            bad = [c for c in hand if c not in legal]
            if bad:
                err = play_error(bad[0], hand, trick, before.trump, rules, first)
                assert err is not None
                reason = refused(before, CardPlayed(seat=e.seat, card=bad[0]))
                assert reason == f"{before.name(e.seat)} {err.text}"
                found = True
                break
        assert found, rules.name


def test_family_first_lead_must_be_trump_with_known_hands() -> None:
    rules = preset("family")
    for e, before, _ in sim_hands(rules, seed=3, hands=4):
        if isinstance(e, CardPlayed) and not before.tricks and not before.trick:
            hand = before.hand_of(e.seat)
            assert hand is not None and before.trump is not None
            assert e.card.suit is before.trump or all(c.suit is not before.trump for c in hand)
            off = [c for c in hand if c.suit is not before.trump]
            if off and any(c.suit is before.trump for c in hand):
                # the declarer's first lead is still pending in `before`
                g = before if before.phase is Phase.PLAY or before.phase is Phase.MELD else None
                assert g is not None
                assert refused(g, CardPlayed(seat=e.seat, card=off[0])).endswith(
                    "must lead trump")
                return
    raise AssertionError("no first lead found")


# -- conceding (000, 001, 002, 003, 004) --------------------------------------------------

def test_bison_bidder_gives_up_after_the_meld() -> None:
    """000: 'the amount of the bid is subtracted from the bidder's score, and the other two
    players score for their meld.'"""
    g = at(KITTY + " 1:trump=S 1:bury=? 1:meld=KS.QS 2:meld=KH.QH 0:meld=9S")
    g = g.apply(Conceded(seat=1))
    assert g.phase is Phase.HAND_OVER and g.result is not None
    assert g.result.outcome == "conceded"
    assert g.scores == (10, -250, 20)


def test_004_concede_without_seeing_the_widow() -> None:
    """004: 'A player forced to take the bid for 300 points may choose to concede without
    viewing the widow. His score is lowered by 300 points, and the opponents score nothing.'"""
    g = at(f"classic3 {B3} : deal 1:300 2:p 0:p 1:concede")
    assert g.scores == (0, -300, 0)
    assert g.result is not None and g.result.outcome == "conceded unseen"


def test_004_concede_after_the_widow_still_names_trump() -> None:
    g = at(f"classic3 {B3} : deal 1:300 2:p 0:p kitty=AS.9H.QD")
    assert refused(g, Conceded(seat=1)) == "name trump first: the others score their meld"


def test_004_a_bid_above_meld_plus_250_must_be_conceded() -> None:
    g = at(f"classic3 {B3} : deal 1:400 2:p 0:p kitty=AS.9H.QD 1:trump=S 1:bury=? "
           f"1:meld=KS.QS")
    assert refused(g, CardPlayed(seat=1, card=Card.parse("AS"))) == \
        "West must concede: the bid 400 is more than meld 40 + 250"


def test_brooklyn_voluntary_set_pays_the_win_amount_without_the_spade_double() -> None:
    """001: the declarer 'pays only the same amount that would have been won'; 'the declarer
    does not have to name a trump suit, so there is no double for spades'."""
    g = at(f"brooklyn {B3} : deal 1:350 2:p 0:p kitty=AS.9H.QD 1:concede")
    assert g.result is not None and g.result.outcome == "voluntary set"
    assert g.ledger == (2, -4, 2)
    four = replace(preset("brooklyn"), seats_at_table=4)
    g = new_game(four).apply(HandDealt(dealer=0))
    for e in (BidMade(seat=1, amount=350), Passed(seat=2), Passed(seat=0),
              KittyShown(cards=tuple(parse_cards("AS 9H QD"))), Conceded(seat=1)):
        g = g.apply(e)
    assert g.ledger == (2, -6, 2, 2)  # the player sitting out collects too
    assert refused(at(f"brooklyn{{voluntary_set_after_trump=no}} {B3} : deal 1:350 2:p 0:p "
                      f"kitty=AS.9H.QD 1:trump=S"),
                   Conceded(seat=1)) == "a voluntary set is taken before naming trump"


def test_racehorse_throw_in_only_when_meld_is_more_than_250_below_the_bid() -> None:
    """002: throw in if the side's meld is more than 250 below the bid; otherwise play."""
    base = f"racehorse {B4} : deal 1:280 2:p 3:p 0:p 1:trump=S 3:pass1=? 1:meld=KS.QS"
    g = at(base)
    assert "play it out" in refused(g, Conceded(seat=1))
    g = at(f"racehorse {B4} : deal 1:400 2:p 3:p 0:p 1:trump=S 3:pass1=? 1:meld=KS.QS")
    g = g.apply(Conceded(seat=1))
    assert g.scores == (0, -400, 0, -400)


def test_family_alternate_declarer_may_throw_in() -> None:
    g = at(f"family-alternate {B3} : deal 1:20 2:p 0:p kitty=AS.9H.QD 1:trump=S 1:bury=? "
           f"1:concede")
    assert g.scores == (1, -1, 1)


def test_family_option_a_kitty_card_is_turned_up_after_each_round() -> None:
    """003: 'auction bidding where, after each successive round of bids, one of the three
    cards in the kitty is revealed.'"""
    rules = replace(preset("family"), single_round=False, kitty_reveal_auction=True)
    g = new_game(rules).apply(HandDealt(dealer=0)).apply(BidMade(seat=1, amount=20))
    one = KittyShown(cards=tuple(parse_cards("AS")))
    assert refused(g, one) == "a kitty card is turned up after each full round of bidding"
    g = g.apply(BidMade(seat=2, amount=21)).apply(BidMade(seat=0, amount=22)).apply(one)
    assert g.revealed == tuple(parse_cards("AS")) and g.phase is Phase.AUCTION
    assert refused(g, KittyShown(cards=tuple(parse_cards("AS 9H")))) == \
        "a kitty card is turned up after each full round of bidding"
    g = g.apply(BidMade(seat=1, amount=23))
    assert refused(g, KittyShown(cards=tuple(parse_cards("9H")))) == \
        "turn up one more kitty card at a time"


def test_the_page_copy_of_a_position_hides_the_deal_and_face_down_cards() -> None:
    rules = preset("bison")
    for e, _, g in sim_hands(rules, seed=2, hands=6):
        if isinstance(e, Buried):
            public = g.view()["position"]
            assert "deal[" not in public and ":bury=?" in public
            assert "deal[" in g.position()
            hidden_game = at(public)
            assert hidden_game.view()["position"] == public
            return
    raise AssertionError("no bury in the hand")


def test_option_no_double_meld_bonuses() -> None:
    """000 variation: 'Some play with no special score for some or all of the double melds,
    so that for example a double rope may be worth only 300.'"""
    double_run = parse_cards("AS AS 10S 10S KS KS QS QS JS JS")
    from table.rules import best_meld, with_options
    assert best_meld(double_run, Suit.SPADES, preset("bison")).total == 1500
    plain = with_options(preset("bison"), {"double_bonuses": "no"})
    assert best_meld(double_run, Suit.SPADES, plain).total == 300


def test_every_kind_of_option_round_trips_through_text_and_the_notation() -> None:
    from table.rules import OptionError, options_of, with_options
    text = {"nine_throw_ins": "5-nines-no-meld+7-nines", "stakes": "250:1:2+350:2:4",
            "points": "classical", "meld.roundhouse": "240", "meld.roundhouse_with_run": "390",
            "beat": "trump-led", "min_bid": "300", "spades_double": "no",
            "checks.game": "10", "forbidden_endings": "40+90", "negative_limit": "-1000"}
    rules = with_options(preset("bison"), text)
    assert options_of(rules) == text
    g = new_game(rules, ["Ann Marie", "Bo,b", "Cy"])
    assert Game.parse(g.position()).rules == rules
    assert Game.parse(g.position()).names == ("Ann Marie", "Bo,b", "Cy")
    with pytest.raises(OptionError, match="unknown option 'min_bids'; known: players"):
        with_options(preset("bison"), {"min_bids": "300"})
    with pytest.raises(OptionError, match="bad value 'lots' for min_bid"):
        with_options(preset("bison"), {"min_bid": "lots"})
    with pytest.raises(OptionError, match="one of always, trump-led"):
        with_options(preset("bison"), {"beat": "sometimes"})


def test_the_position_says_which_cards_may_be_played_when_hands_are_known() -> None:
    checked = 0
    for e, before, _ in sim_hands(preset("bison"), seed=4, hands=3):
        if isinstance(e, CardPlayed):
            assert e.card in before.legal_plays
            hand = before.hand_of(e.seat)
            assert hand is not None and set(before.legal_plays) <= set(hand)
            checked += 1
    assert checked > 40
    assert at(f"bison {B3} : deal 1:250 2:p 0:p").legal_plays == ()  # hidden hands
