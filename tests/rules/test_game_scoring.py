"""Simulated games of every preset, checked against the rule texts by the independent
reckoning of reckoning.py: trick points, buried counters, meld saving, made and set, stakes,
the pot, the alternate score and checks.

Set PINOCHLE_GAMES to play more games per preset here; test_game_many.py plays thousands.
"""

from __future__ import annotations

import os
import random

import pytest

from table.rules import (
    PRESET_NAMES,
    Game,
    IllegalAction,
    SimTable,
    new_game,
    preset,
)

from .game_helpers import hidden, sim_hands
from .reckoning import check_hand, proven_renege

GAMES = int(os.environ.get("PINOCHLE_GAMES", "8"))


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_hand_of_simulated_games_scores_as_the_rule_text_says(name: str) -> None:
    rules = preset(name)
    hands = 0
    for seed in range(GAMES):
        before = (0,) * rules.table_seats
        for i, (_, prev, g) in enumerate(sim_hands(rules, seed, hands=6)):
            if prev.phase.value in ("hand-over", "deal"):
                before = prev.scores
            if g.result is not None and prev.result is None:
                check_hand(g, before)
                hands += 1
            if i % 17 == 0:  # the notation round-trips (parsing replays the hand: sample it)
                assert Game.parse(g.position()) == g
    assert hands >= GAMES


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_hidden_hands_reach_the_same_scores_as_known_hands(name: str) -> None:
    """A real table sees no hands; the same events without them must score the same."""
    rules = preset(name)
    for seed in range(max(2, GAMES // 4)):
        shadow = new_game(rules)
        for e, _, g in sim_hands(rules, seed, hands=4):
            shadow = shadow.apply(hidden(e, rules))
            assert shadow.scores == g.scores and shadow.phase is g.phase
        assert not shadow.reneges


@pytest.mark.parametrize("name", ["bison", "brooklyn", "racehorse", "family", "classic3",
                                  "partnership4", "double-deck"])
def test_an_injected_renege_is_refused_when_known_and_proven_when_hidden(name: str) -> None:
    found = 0
    for seed in range(40):
        out = proven_renege(name, seed)
        if out is None:
            continue
        g, proof = out
        assert f"at trick {proof.trick} but held {proof.witness}" in proof.text
        assert g.result is not None and g.result.outcome == "renege"
        found += 1
        if found >= 3:
            return
    assert found, "no renege could be injected"


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_no_legal_line_is_ever_refused(name: str) -> None:
    """Many seeded deals per preset, played by the simulated players: every event they make is
    legal, every played-out hand adds up to the preset's trick total, and the score changes
    are exactly the hand results."""
    rules = preset(name)
    for seed in range(100, 100 + GAMES * 4):
        g = new_game(rules)
        sim = SimTable(rules, random.Random(seed))
        while g.phase.value != "game-over" and g.hand_number < 4:
            e = sim.next_event(g)
            try:
                after = g.apply(e)
            except IllegalAction as exc:
                raise AssertionError(f"seed {seed}: {exc}") from None
            sim.observe(e, g)
            if after.result is not None and g.result is None:
                res = after.result
                before = g.start.scores if g.start is not None else g.scores
                assert tuple(a - b for a, b in zip(after.scores, before, strict=True)) == \
                    res.score_change
                if len(after.tricks) == rules.hand_size and not after.conceded:
                    assert sum(res.tricks) == rules.trick_total
            g = after
