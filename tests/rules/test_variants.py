"""Every preset against ../shared/rules/VARIANTS.md and the rule texts (where they disagree the
text wins); unknown names; options switched with dataclasses.replace; bids and stakes."""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

import pytest

from table.rules import (
    CLASSICAL,
    COUNTERS,
    COUNTERS_TENTHS,
    PRESET_NAMES,
    PRESETS,
    SIMPLIFIED,
    AllPass,
    Beat,
    MeldSaving,
    MeldValues,
    NineThrowIn,
    Rules,
    Scoring,
    SitOut,
    Suit,
    TieBreak,
    UnknownPresetError,
    WhoMelds,
    best_meld,
    parse_cards,
    preset,
)

# VARIANTS.md section 1 (cards and deal), per preset: players, partnerships, copies, nines,
# cards each, kitty, cards buried, cards passed, hands drawn from the stock.
DEAL = {
    "bison": (3, False, 2, True, 15, 3, 3, 0, False),
    "brooklyn": (3, False, 2, True, 15, 3, 3, 0, False),
    "brooklyn-pot": (3, False, 2, True, 15, 3, 3, 0, False),
    "racehorse": (4, True, 2, True, 12, 0, 0, 3, False),
    "family": (3, False, 2, True, 15, 3, 3, 0, False),
    "family-alternate": (3, False, 2, True, 15, 3, 3, 0, False),
    "classic3": (3, False, 2, True, 15, 3, 3, 0, False),
    "check": (3, False, 2, True, 15, 3, 3, 0, False),
    "partnership4": (4, True, 2, True, 12, 0, 0, 0, False),
    "two-hand": (2, False, 2, True, 12, 0, 0, 0, True),
    "double-deck": (4, True, 4, False, 20, 0, 0, 0, False),
}

# Section 2 (card points) and 3 (bidding): scheme, minimum bid, step, endings not allowed,
# nobody bids, one round only, must open holding meld.
BIDDING = {
    "bison": (COUNTERS, 250, 10, (), AllPass.THROW_IN, False, False),
    "brooklyn": (CLASSICAL, 300, 10, (40, 90), AllPass.THROW_IN, False, False),
    # 001 pot version: minimum 250, the dealer must bid if the first two pass
    "brooklyn-pot": (CLASSICAL, 250, 10, (), AllPass.DEALER_FORCED, False, False),
    "racehorse": (COUNTERS, 250, 10, (), AllPass.DEALER_FORCED, False, False),
    "family": (COUNTERS_TENTHS, 20, 1, (), AllPass.DEALER_FORCED, True, False),
    "family-alternate": (COUNTERS_TENTHS, 20, 1, (), AllPass.DEALER_FORCED, True, False),
    # 004: "if all players other than the dealer pass, the dealer names trump"
    "classic3": (COUNTERS, 300, 10, (), AllPass.DEALER_FORCED, False, True),
    "check": (COUNTERS, 300, 10, (), AllPass.DEALER_FORCED, False, True),
    "partnership4": (COUNTERS, 150, 10, (), AllPass.DEALER_FORCED, False, True),
    "two-hand": (COUNTERS, 150, 10, (), AllPass.DEALER_FORCED, False, False),
    "double-deck": (COUNTERS, 500, 10, (), AllPass.DEALER_FORCED, False, True),
}

# Sections 5, 6, 8 and 9: who melds, meld saving, first lead trump, must-beat rule, scoring,
# target, several-reach-the-target rule.
PLAY = {
    "bison": (WhoMelds.ALL, MeldSaving.COUNTER, False, Beat.ALWAYS, Scoring.POINTS, 1500,
              TieBreak.BIDDER_OUT),
    "brooklyn": (WhoMelds.DECLARER, MeldSaving.NONE, False, Beat.TRUMP_LED, Scoring.STAKES,
                 0, TieBreak.BIDDER_OUT),
    "brooklyn-pot": (WhoMelds.DECLARER, MeldSaving.NONE, False, Beat.TRUMP_LED, Scoring.POT,
                     0, TieBreak.BIDDER_OUT),
    "racehorse": (WhoMelds.ALL, MeldSaving.COUNTER_OR_LAST, False, Beat.WIN, Scoring.POINTS,
                  1500, TieBreak.BIDDER_OUT),
    "family": (WhoMelds.ALL, MeldSaving.POINT, True, Beat.TRUMP_LED, Scoring.POINTS, 120,
               TieBreak.BIDDER_OUT),
    "family-alternate": (WhoMelds.DECLARER, MeldSaving.POINT, True, Beat.TRUMP_LED,
                         Scoring.ALTERNATE, 15, TieBreak.BIDDER_OUT),
    "classic3": (WhoMelds.ALL, MeldSaving.TRICK, True, Beat.TRUMP_LED_OVERRUFF, Scoring.POINTS,
                 1000, TieBreak.BIDDER_OUT),
    "check": (WhoMelds.ALL, MeldSaving.TRICK, True, Beat.TRUMP_LED_OVERRUFF, Scoring.CHECKS,
              1000, TieBreak.BIDDER_OUT),
    "partnership4": (WhoMelds.ALL, MeldSaving.TRICK, True, Beat.TRUMP_LED_OVERRUFF,
                     Scoring.POINTS, 1000, TieBreak.BIDDER_OUT),
    "two-hand": (WhoMelds.ALL, MeldSaving.TRICK, True, Beat.TRUMP_LED_OVERRUFF, Scoring.POINTS,
                 1000, TieBreak.BIDDER_OUT),
    "double-deck": (WhoMelds.ALL, MeldSaving.TRICK, True, Beat.TRUMP_LED_OVERRUFF,
                    Scoring.POINTS, 1000, TieBreak.BIDDER_OUT),
}

# Section 5: each meld's single / double value (None: a double is two singles).
MELD: dict[str, dict[str, tuple[int, int | None]]] = {
    # 000's table
    "bison": dict(run=(150, 1500), royal_marriage=(40, None), marriage=(20, None),
                  dix=(10, None), pinochle=(40, 300), aces=(100, 1000), kings=(80, 800),
                  queens=(60, 600), jacks=(40, 400)),
    # 001: no extra score for double melds
    "brooklyn": dict(run=(150, None), royal_marriage=(40, None), marriage=(20, None),
                     dix=(10, None), pinochle=(40, None), aces=(100, None), kings=(80, None),
                     queens=(60, None), jacks=(40, None)),
    # 002: double run 1500, doubled pinochle 300, double around 10x
    "racehorse": dict(run=(150, 1500), royal_marriage=(40, None), marriage=(20, None),
                      dix=(10, None), pinochle=(40, 300), aces=(100, 1000), kings=(80, 800),
                      queens=(60, 600), jacks=(40, 400)),
    # 003: run 15, marriages 4 and 2, pinochle 4, arounds 10/8/6/4, nine of trump 1
    "family": dict(run=(15, None), royal_marriage=(4, None), marriage=(2, None), dix=(1, None),
                   pinochle=(4, None), aces=(10, None), kings=(8, None), queens=(6, None),
                   jacks=(4, None)),
    # 004: double pinochle 300, double arounds 10x, no double run
    "classic3": dict(run=(150, None), royal_marriage=(40, None), marriage=(20, None),
                     dix=(10, None), pinochle=(40, 300), aces=(100, 1000), kings=(80, 800),
                     queens=(60, 600), jacks=(40, 400)),
}
MELD["brooklyn-pot"] = MELD["brooklyn"]
MELD["family-alternate"] = MELD["family"]
for _name in ("check", "partnership4", "two-hand", "double-deck"):
    MELD[_name] = MELD["classic3"]

DOUBLE_FIELD = {"run": "double_run", "pinochle": "double_pinochle", "aces": "double_aces",
                "kings": "double_kings", "queens": "double_queens", "jacks": "double_jacks",
                "royal_marriage": "double_royal_marriage"}


def test_the_preset_names() -> None:
    """rules/README.md maps each text to these names."""
    assert set(PRESET_NAMES) == {
        "bison", "brooklyn", "brooklyn-pot", "racehorse", "family", "family-alternate",
        "classic3", "partnership4", "two-hand", "check", "double-deck"}
    assert set(PRESETS) == set(DEAL) == set(BIDDING) == set(PLAY) == set(MELD)
    for name in PRESET_NAMES:
        assert preset(name).name == name
        assert preset(name).source.split("_")[0] in {"000", "001", "002", "003", "004"}


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_cards_and_deal(name: str) -> None:
    r = preset(name)
    got = (r.players, r.partnerships, r.copies, r.nines, r.hand_size, r.kitty_size, r.bury,
           r.pass_cards, r.draw_from_stock)
    assert got == DEAL[name]
    assert r.deck_size == len(r.deck()) == (80 if name == "double-deck" else 48)
    held = r.players * r.hand_size * (2 if r.draw_from_stock else 1)
    assert held + r.kitty_size == r.deck_size


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_card_points_and_bidding(name: str) -> None:
    r = preset(name)
    got = (r.points, r.min_bid, r.bid_step, r.forbidden_endings, r.all_pass, r.single_round,
           r.must_open_with_meld)
    assert got == BIDDING[name]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_meld_play_scoring_and_target(name: str) -> None:
    r = preset(name)
    got = (r.who_melds, r.meld_saving, r.first_lead_trump, r.beat, r.scoring, r.target,
           r.tie_break)
    assert got == PLAY[name]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_meld_table(name: str) -> None:
    mv = preset(name).meld
    for meld, (single, double) in MELD[name].items():
        assert getattr(mv, meld) == single, meld
        if meld in DOUBLE_FIELD:
            assert getattr(mv, DOUBLE_FIELD[meld]) == double, meld
    # options off by default: roundhouse as a meld, St Joseph double royal marriage
    assert mv.roundhouse is None and mv.double_royal_with_run is None
    assert mv.dix_own_class is (name == "racehorse")


def test_card_point_schemes() -> None:
    """VARIANTS.md section 2: A 10 K Q J 9 and last trick of each scheme."""
    assert COUNTERS.by_rank()[::-1] == (10, 10, 10, 0, 0, 0) and COUNTERS.last_trick == 10
    assert CLASSICAL.by_rank()[::-1] == (11, 10, 4, 3, 2, 0) and CLASSICAL.last_trick == 10
    assert SIMPLIFIED.by_rank()[::-1] == (10, 10, 5, 5, 0, 0) and SIMPLIFIED.last_trick == 10
    assert COUNTERS_TENTHS.by_rank()[::-1] == (1, 1, 1, 0, 0, 0)
    assert COUNTERS_TENTHS.last_trick == 1


def test_special_rules_of_the_texts() -> None:
    """Sections 1, 3, 4, 7, 8 of VARIANTS.md, each from its text."""
    bison, brooklyn, pot = preset("bison"), preset("brooklyn"), preset("brooklyn-pot")
    racehorse, family, alternate = preset("racehorse"), preset("family"), preset("family-alternate")
    classic3, partnership4, check = preset("classic3"), preset("partnership4"), preset("check")
    # 000: after the melds the bidder may give up; nine-count throw-ins are options
    assert bison.concede_after_meld and bison.nine_throw_ins == frozenset()
    assert len(NineThrowIn) == 5
    # 001: a fourth player sits out (dealer's right); 300 passed out may be pushed at 250;
    # a voluntary set after seeing the kitty; spades double
    assert brooklyn.sit_out is SitOut.DEALER_RIGHT
    assert (brooklyn.push_from_bid, brooklyn.push_to_dealer) == (300, 250)
    assert brooklyn.voluntary_set and brooklyn.spades_double and not brooklyn.hearts_triple
    assert [(s.min_bid, s.win, s.set) for s in brooklyn.stakes] == [
        (250, 1, 2), (350, 2, 4), (400, 4, 8), (450, 8, 16), (500, 16, 32), (550, 32, 64)]
    assert pot.pot_min_bid == 400 and pot.push_to_dealer == 0
    # 002: a side more than 250 below its bid may throw in
    assert racehorse.concede_margin == 250 and racehorse.forced_bid == 250
    # 003: the declarer may meld first and bury from the rest; dealer takes it at 20;
    # alternate scoring made +2, set -1 and each opponent +1; the declarer may throw in
    assert family.meld_before_bury and family.forced_bid == 20
    assert (alternate.alternate_made, alternate.alternate_set,
            alternate.alternate_opponent) == (2, -1, 1)
    assert alternate.concede_after_meld
    # 004: conceding names trump and the others score meld; a bid above meld + 250 must be
    # conceded; a forced bidder may concede unseen; the dealer's price is one less (four-handed)
    assert classic3.concede_names_trump and classic3.forced_concede_margin == 250
    assert classic3.concede_unseen
    assert partnership4.forced_bid == 149
    # 004 check pinochle: flush +1, aces +1, roundtable +2, looked and lost -1, game +5
    c = check.checks
    assert (c.run, c.aces_around, c.roundtable, c.looked_and_lost, c.game) == (1, 1, 2, -1, 5)


def test_every_preset_has_every_parameter() -> None:
    """Every preset is one Rules value: same fields, all frozen."""
    names = {f.name for f in fields(Rules)}
    for name in PRESET_NAMES:
        r = preset(name)
        assert {f.name for f in fields(r)} == names
        with pytest.raises(AttributeError):
            r.min_bid = 1  # type: ignore[misc]


@pytest.mark.parametrize("text", ["canasta", "", "bison2", "racehorse pinochle"])
def test_an_unknown_preset_lists_the_known_ones(text: str) -> None:
    with pytest.raises(UnknownPresetError) as info:
        preset(text)
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    assert repr(text) in message
    assert all(name in message for name in PRESET_NAMES)


def test_preset_names_ignore_case_and_spaces() -> None:
    assert preset(" Bison ") is preset("bison")


# -- options switched with dataclasses.replace ------------------------------------------------

def test_bidding_options() -> None:
    """000: bids are multiples of 10 from 250, jumps allowed; variation minimum 300.
    001: no bids ending in 40 or 90 (variation: allowed). 003: one point steps from 20."""
    bison = preset("bison")
    assert bison.bid_error(250, None) is None and bison.bid_error(300, 250) is None
    assert bison.bid_error(240, None) == "the minimum bid is 250"
    assert bison.bid_error(250, 250) == "a bid must be higher than 250"
    assert bison.bid_error(255, None) == "bids go up in steps of 10"
    assert replace(bison, min_bid=300).bid_error(250, None) == "the minimum bid is 300"
    brooklyn = preset("brooklyn")
    assert brooklyn.bid_error(340, 330) == "no bid may end in 40 or 90"
    assert [brooklyn.next_bid(h) for h in (None, 330, 380, 430)] == [300, 350, 400, 450]
    assert replace(brooklyn, forbidden_endings=()).next_bid(330) == 340
    assert preset("family").next_bid(20) == 21


def test_dealer_forced_option() -> None:
    """000 variation: the dealer must take the minimum if the first two pass."""
    forced = replace(preset("bison"), all_pass=AllPass.DEALER_FORCED)
    assert forced.all_pass is AllPass.DEALER_FORCED and forced.forced_bid == 250


def test_meld_options_change_the_meld() -> None:
    """000: no double bonuses; roundhouse with 390 or 350 beside a run; St Joseph."""
    bison = preset("bison")
    double_run = parse_cards("AH AH 10H 10H KH KH QH QH JH JH")
    plain = replace(bison, meld=bison.meld.without_double_bonuses())
    assert best_meld(double_run, Suit.HEARTS, plain).total == 300
    round_run = parse_cards("AH 10H KH QH JH KS QS KC QC KD QD")
    for with_run in (350, 390):
        option = replace(bison, meld=replace(bison.meld, roundhouse=240,
                                             roundhouse_with_run=with_run))
        assert best_meld(round_run, Suit.HEARTS, option).total == with_run
    joseph = replace(bison, meld=replace(bison.meld, double_royal_marriage=240,
                                         double_royal_with_run=390))
    assert best_meld(parse_cards("KH KH QH QH"), Suit.HEARTS, joseph).total == 240


def test_other_options_are_fields() -> None:
    """Issue 2's list of variations: each is a field switched with replace."""
    changes: dict[str, Any] = dict(
        min_bid=200, forbidden_endings=(), all_pass=AllPass.OPENER_FORCED,
        beat=Beat.TRUMP_LED, points=SIMPLIFIED, target=2500, negative_limit=-1000,
        nine_throw_ins=frozenset({NineThrowIn.SEVEN_ANY}), deals=10, sit_out=SitOut.DEALER,
        hearts_triple=True, kitty_reveal_auction=True, single_round=False,
        dealer_forced_needs_meld=True, tie_break=TieBreak.OVERTIME,
    )
    changed = replace(preset("bison"), **changes)
    for name, value in changes.items():
        assert getattr(changed, name) == value


def test_scaled_by_ten() -> None:
    """000: some divide all scores by 10: counters 1, a rope 15, a 1500 target becomes 150."""
    scaled = preset("bison").scaled(10)
    assert scaled.points.by_rank() == (0, 0, 0, 1, 1, 1) and scaled.trick_total == 25
    assert (scaled.meld.run, scaled.min_bid, scaled.target) == (15, 25, 150)
    assert isinstance(scaled.meld, MeldValues) and scaled.meld.dix_own_class is False
