"""The bid as it stands during play (`bid_standing`) and agreeing with a hand's result
(`agree_hands`, the `HandAgreed` event)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from table.rules import (
    PRESET_NAMES,
    Game,
    HandAgreed,
    HandDealt,
    OptionError,
    event_from_dict,
    preset,
    with_options,
)
from table.rules.game import Phase
from table.rules.scoring import bid_standing, meld_saved

from .game_helpers import hidden, refused, sim_hands

PLAYED = [n for n in PRESET_NAMES if n != "two-hand"]


@pytest.mark.parametrize("name", PLAYED)
@pytest.mark.parametrize("known", [True, False])
def test_needs_and_to_set_agree_with_the_result(name: str, known: bool) -> None:
    """Whenever the standing says the bid is made (needs 0) the hand is made, and whenever it
    says the other side has set it (to_set 0) it is set: on every position of the play."""
    rules = preset(name)
    checked = 0
    seen: list = []
    for _event, before, after in sim_hands(rules, seed=11, hands=6, known=known):
        if before.phase is Phase.PLAY:
            seen.append(bid_standing(before))
        if after.result is not None and before.result is None:
            result = after.result
            if result.declarer is not None and result.outcome in ("made", "set"):
                for standing in seen:
                    assert standing is not None
                    assert standing.declarer == result.declarer
                    if standing.made:
                        assert result.made, standing
                    if standing.to_set == 0:
                        assert not result.made, standing
                    checked += 1
            seen = []
    assert checked


def test_the_standing_adds_meld_taken_and_bury() -> None:
    rules = preset("bison")
    for _event, _before, after in sim_hands(rules, seed=3, hands=1):
        if after.phase is Phase.PLAY and len(after.tricks) == 5 and not after.trick_full:
            b = bid_standing(after)
            assert b is not None
            assert b.buried is not None  # known hands: the bury is known
            side = [s for s in after.active if s == after.declarer]
            assert b.meld == sum(after.melds[s].total for s in side if after.melds[s])
            assert b.taken == sum(after.taken[s] for s in side)
            assert b.needs == max(0, b.bid - b.meld - b.taken - b.buried)
            assert b.still_out == rules.trick_total - sum(after.taken) - b.buried
            return
    raise AssertionError("no play position reached")


@pytest.mark.parametrize("name", ["bison", "racehorse"])
def test_the_declarers_meld_counts_once_saved_where_the_rules_say(name: str) -> None:
    rules = preset(name)
    seen = set()
    for _event, _before, after in sim_hands(rules, seed=4, hands=4):
        b = bid_standing(after)
        if b is not None and after.phase is Phase.PLAY:
            expected = not rules.declarer_saves_meld or meld_saved(after, list(b.side))
            assert b.meld_saved == expected
            assert b.made == (b.needs == 0 and expected)
            seen.add(b.meld_saved)
    assert True in seen
    assert (False in seen) == rules.declarer_saves_meld


def test_a_face_down_bury_is_counted_at_the_end() -> None:
    rules = preset("bison")
    for _event, _before, after in sim_hands(rules, seed=3, hands=1, known=False):
        if after.phase is Phase.PLAY:
            b = bid_standing(after)
            assert b is not None and b.buried is None
            assert b.still_out == rules.trick_total - sum(after.taken)
            return
    raise AssertionError("no play position reached")


def test_stakes_name_what_each_pays() -> None:
    rules = preset("brooklyn")
    for _event, _before, after in sim_hands(rules, seed=5, hands=30):
        b = bid_standing(after)
        if b is not None and after.trump is not None:
            row = rules.stake_row(b.bid)
            mult = 2 if str(after.trump) == "S" else 1
            assert (b.win_each, b.set_each) == (row.win * mult, row.set * mult)
            return
    raise AssertionError("no contract reached")


def _scored(rules_text: dict[str, str], name: str = "bison") -> Game:
    rules = with_options(preset(name), rules_text)
    for _event, _before, after in sim_hands(rules, seed=7, hands=20):
        if after.phase in (Phase.HAND_OVER, Phase.GAME_OVER) and after.result is not None \
                and after.result.declarer is not None:
            return after
    raise AssertionError("no hand was scored")


def test_agree_hands_is_an_option_with_a_domain() -> None:
    assert with_options(preset("bison"), {"agree_hands": "1"}).agree_hands == 1
    with pytest.raises(OptionError, match="agree_hands must be one of 0, 1"):
        with_options(preset("bison"), {"agree_hands": "2"})


def test_the_next_deal_waits_for_the_other_side() -> None:
    g = _scored({"agree_hands": "1"})
    assert g.result is not None and g.result.declarer is not None
    d = g.result.declarer
    others = tuple(s for s in g.active if s != d)
    assert g.agreement_due == others and g.agreed_by is None
    deal = HandDealt(dealer=(g.dealer + 1) % 3)
    assert "waits for" in refused(g, deal)
    assert "took the bid" in refused(g, HandAgreed(seat=d))
    agreed = g.apply(HandAgreed(seat=others[0]))
    assert agreed.agreed_by == others[0] and agreed.agreement_due == ()
    assert "already agreed" in refused(agreed, HandAgreed(seat=others[1]))
    assert Game.parse(agreed.position()) == agreed  # the notation carries it
    assert f"{others[0]}:agreed" in agreed.position()
    assert agreed.apply(deal).phase is Phase.AUCTION


def test_without_the_option_nothing_waits() -> None:
    g = _scored({})
    assert g.agreement_due == ()
    assert "agree_hands=1" in refused(g, HandAgreed(seat=0))
    assert g.view()["agreement"] is None


def test_the_event_round_trips_through_json() -> None:
    e = HandAgreed(seat=2, source="web", at=1.5)
    assert event_from_dict(e.to_dict()) == e
    assert hidden(e, preset("bison")) == e
    assert replace(e, seat=1).seat == 1
