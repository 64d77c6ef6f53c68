"""Ending the game (VARIANTS.md section 9), money and checks, throw-ins, undo and corrections."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from table.rules import (
    BidMade,
    CardPlayed,
    Corrected,
    Game,
    HandDealt,
    IllegalAction,
    NineThrowIn,
    Phase,
    SimTable,
    ThrownIn,
    TieBreak,
    Undone,
    in_effect,
    new_game,
    parse_cards,
    preset,
    replay,
)

from .game_helpers import at, refused, sim_hands

W = "deal 1:250 2:p 0:p kitty=AS.9H.JC 1:trump=S 1:bury=?"  # West declares at 250


def test_two_non_bidders_out_together_the_higher_wins() -> None:
    """000: 'If two players score over 1500 points and neither of these players has the bid,
    the one with the higher score wins the game.'"""
    g = at(f"bison South,West,East 1450,0,1460 d0 #5 : {W} 1:meld=KS.QS 2:meld=KH.QH.KC.QC "
           f"0:meld=QS.QH.QC.QD.JD 1:concede")
    assert g.scores == (1550, -250, 1500)
    assert (g.phase, g.winner) == (Phase.GAME_OVER, 0)
    assert refused(g, HandDealt(dealer=1)) == "the game is over"


def test_two_non_bidders_tied_play_another_hand() -> None:
    g = at(f"bison South,West,East 1440,0,1490 d0 #5 : {W} 2:meld=KH.QH.KC.QC.KD.QD "
           f"0:meld=QS.QH.QC.QD.JD.9S 1:concede")
    assert g.scores == (1550, -250, 1550)
    assert g.winner is None and g.phase is Phase.HAND_OVER


@pytest.mark.parametrize("tie_break", list(TieBreak))
def test_the_bidder_goes_out_first_and_other_tie_breaks(tie_break: TieBreak) -> None:
    """000/003 bidder out; 004 method 1 (higher score, tie: another hand) and method 2
    (overtime to 1250, then 1500)."""
    rules = replace(preset("classic3"), tie_break=tie_break)
    seen = set()
    for seed in range(60):
        start = at("classic3 South,West,East 950,950,950 d0 #4 :")
        start = Game.parse(start.position().replace("classic3 ", "classic3{tie_break="
                                                    + tie_break.value + "} ", 1))
        assert start.rules == rules
        *_, (_, _, g) = sim_hands(rules, seed, hands=1, start=start)
        res = g.result
        if res is None or res.declarer is None:
            continue
        reached = [s for s in range(3) if g.scores[s] >= 1000]
        if len(reached) < 2:
            continue
        top = max(g.scores[s] for s in reached)
        leaders = [s for s in reached if g.scores[s] == top]
        if tie_break is TieBreak.OVERTIME:
            assert (g.winner, g.target) == (None, 1250)
            seen.add("overtime")
        elif tie_break is TieBreak.BIDDER_OUT and res.declarer in reached:
            assert g.winner == res.declarer
            seen.add("bidder")
        elif len(leaders) == 1:
            assert g.winner == leaders[0]
            seen.add("higher")
        else:
            assert g.winner is None
    assert seen


def test_negative_limit_ends_the_game_when_someone_is_positive() -> None:
    """000 variation: 'if any player's negative score goes beyond some agreed value, for
    example -1000, while at least one player has a positive score, the game ends'."""
    g = at("bison{negative_limit=-1000} South,West,East -990,500,0 d2 #3 : "
           "deal 0:250 1:p 2:p kitty=AS.9H.QD 0:trump=S 0:bury=? 0:concede")
    assert g.scores == (-1240, 500, 0)
    assert g.winner == 1
    g = at("bison{negative_limit=-1000} South,West,East -990,-5,-10 d2 #3 : "
           "deal 0:250 1:p 2:p kitty=AS.9H.QD 0:trump=S 0:bury=? 0:concede")
    assert g.winner is None  # all negative: play on


def test_a_fixed_number_of_deals() -> None:
    rules = replace(preset("bison"), deals=2)
    *_, (_, _, g) = sim_hands(rules, seed=1, hands=2)
    assert g.phase is Phase.GAME_OVER or g.winner is None  # a tie plays another hand
    if g.winner is not None:
        assert g.scores[g.winner] == max(g.scores)


def test_family_alternate_tie_break_hand_only_the_tied_may_bid() -> None:
    """003: 'For the tiebreaker round, only the two players who are tied may bid.'"""
    g = at("family-alternate South,West,East 14,10,14 d0 #3 : deal 1:20 2:p 0:p "
           "kitty=AS.9H.QD 1:trump=S 1:bury=? 1:concede")
    assert g.scores == (15, 9, 15) and g.winner is None
    g = g.apply(HandDealt(dealer=1)).apply(BidMade(seat=2, amount=20))
    g = g.apply(BidMade(seat=0, amount=21))
    assert refused(g, BidMade(seat=1, amount=22)) == \
        "only the tied players may bid in this tie-break hand"


def test_pot_single_set_pays_each_player_and_the_pot() -> None:
    """001 pot: a bid of 330 is worth 30 cents; given up without play, the bidder pays that to
    each player and to the pot."""
    g = new_game(preset("brooklyn-pot"))
    assert (g.pot, g.ledger) == (75, (-25, -25, -25))
    g = at(g.position() + " deal 1:330 2:p 0:p kitty=AS.9H.QD 1:concede")
    assert g.ledger == (5, -115, 5) and g.pot == 105


def test_pot_and_stakes_money_is_conserved_over_whole_games() -> None:
    for name in ("brooklyn", "brooklyn-pot"):
        rules = preset(name)
        *_, (_, _, g) = sim_hands(rules, seed=5, hands=25)
        assert sum(g.ledger) + g.pot == 0
        assert any(g.ledger)


def test_bison_money_option_game_and_set_stakes() -> None:
    """000: each opponent pays the winner the game stake and a set stake per set (two for a
    double set, one for a hand thrown in)."""
    rules = replace(preset("bison"), game_stake=2, set_stake=2, target=300)
    g = at("bison{game_stake=2,set_stake=2,target=300} South,West,East 0,0,290 d0 #1 : "
           f"{W} 2:meld=KH.QH 1:concede")
    assert g.rules == rules
    assert g.sets == (0, 1, 0) and g.winner == 2
    assert g.ledger == (-2, -4, 6)


def test_check_pinochle_checks_for_meld_and_losing() -> None:
    """004: run +1, aces +1, roundtable +2; looking at the talon and losing -1 (conceded
    before the others' meld, which they lay down after)."""
    g = at("check South,West,East 0,0,0 d0 #0 : deal 1:300 2:p 0:p kitty=AS.9H.QD 1:trump=S "
           "1:bury=? 1:meld=AS.10S.KS.QS.JS 1:concede 2:meld=AS.AH.AC.AD "
           "0:meld=KS.QS.KH.QH.KC.QC.KD.QD")
    assert g.checks == (2, 0, 1)  # West: +1 run -1 lost; East +1 aces; South +2 roundtable
    assert g.scores == (240, -300, 100)


def test_seven_nines_throw_in_is_checked_on_a_known_hand() -> None:
    rules = replace(preset("bison"), nine_throw_ins=frozenset({NineThrowIn.SEVEN_ANY}))
    nines = parse_cards("9S 9S 9H 9H 9C 9C 9D")
    for seed in range(400):
        sim = SimTable(rules, random.Random(seed))
        deal = sim.deal(0, (1, 2, 0))
        assert deal.hands is not None
        g = new_game(rules).apply(deal)
        for seat in (1, 2, 0):
            n = sum(1 for c in deal.hands[seat] if c in nines)
            if seat != g.turn:
                continue
            if n >= 7:
                after = g.apply(ThrownIn(seat=seat, reason="nines"))
                assert after.phase is Phase.HAND_OVER
                assert after.apply(HandDealt(dealer=0)).hand_number == 2  # same dealer
                return
            assert "does not qualify" in refused(g, ThrownIn(seat=seat, reason="nines"))
    assert "plays every deal" in refused(at("bison South,West,East 0,0,0 d0 #0 : deal"),
                                         ThrownIn(seat=1, reason="nines"))


# -- undo and corrections -----------------------------------------------------------------------

def _numbered(position: str) -> list[tuple[int, object]]:
    g = Game.parse(position)
    return list(enumerate(g.events, start=1))


def test_undo_takes_back_the_last_event_in_effect() -> None:
    g = at(f"bison South,West,East 0,0,0 d0 #0 : {W} 1:AS 2:9S")
    events = list(enumerate(g.events, start=1))
    events.append((len(events) + 1, Undone()))
    back = replay(g.rules, g.names, events)
    assert back == at(f"bison South,West,East 0,0,0 d0 #0 : {W} 1:AS")
    with pytest.raises(IllegalAction, match="nothing to undo"):
        in_effect([(1, Undone())])


def test_a_misread_card_is_corrected_as_if_the_right_card_had_come() -> None:
    g = at(f"bison South,West,East 0,0,0 d0 #0 : {W} 1:AS 2:9S 0:JS")
    events = list(enumerate(g.events, start=1))
    wrong = next(n for n, e in events if isinstance(e, CardPlayed) and e.seat == 2)
    fix = Corrected(target=wrong, replacement=CardPlayed(seat=2, card=parse_cards("10S")[0]))
    fixed = replay(g.rules, g.names, [*events, (len(events) + 1, fix)])
    assert fixed == at(f"bison South,West,East 0,0,0 d0 #0 : {W} 1:AS 2:10S 0:JS")
    bad = Corrected(target=wrong, replacement=CardPlayed(seat=0, card=parse_cards("10S")[0]))
    with pytest.raises(IllegalAction, match=f"event {wrong} .* no longer fits"):
        replay(g.rules, g.names, [*events, (len(events) + 1, bad)])
