"""Thousands of seeded simulated games per preset (issue 3's property bar).

Every hand: no event of the simulated players is refused, a played-out hand's trick points add
up to the preset's total, the score change is the hand result and matches the independent
reckoning, and one injected illegal play is refused with the seat's name. On hidden tables an
injected renege is proven by the hand's end, every time.

PINOCHLE_MANY_GAMES sets the number of games per preset (default 2000).
"""

from __future__ import annotations

import os
import random

import pytest

from table.rules import (
    ALL_CARDS,
    PRESET_NAMES,
    CardPlayed,
    Game,
    IllegalAction,
    Phase,
    SimTable,
    new_game,
    preset,
)

from .reckoning import check_hand, proven_renege

MANY = int(os.environ.get("PINOCHLE_MANY_GAMES", "2000"))
ENDLESS = 12  # brooklyn has no end score: its games are twelve deals here


def _refuse_a_bad_card(g: Game, seat: int, rng: random.Random) -> None:
    """Play a card `seat` may not play now (a renege if it can, else a card it does not hold)
    and check it is refused by name."""
    hand = g.hand_of(seat)
    assert hand is not None
    legal = g.legal_plays
    bad = [c for c in hand if c not in legal] or [c for c in ALL_CARDS if c not in hand]
    card = rng.choice(bad)
    with pytest.raises(IllegalAction) as info:
        g.apply(CardPlayed(seat=seat, card=card))
    assert info.value.reason.startswith(g.names[seat]), info.value


@pytest.mark.slow
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_thousands_of_games_add_up_and_refuse_every_illegal_play(name: str) -> None:
    rules = preset(name)
    rng = random.Random(name)
    hands = refusals = 0
    for seed in range(MANY):
        g = new_game(rules)
        sim = SimTable(rules, random.Random(seed))
        bad_play_due = True
        while g.phase is not Phase.GAME_OVER and g.hand_number <= ENDLESS:
            e = sim.next_event(g)
            if isinstance(e, CardPlayed) and bad_play_due and rng.random() < 0.1:
                _refuse_a_bad_card(g, e.seat, rng)
                refusals += 1
                bad_play_due = False
            try:
                after = g.apply(e)
            except IllegalAction as exc:
                raise AssertionError(f"seed {seed}: a legal line was refused: {exc}") from None
            sim.observe(e, g)
            if after.result is not None and g.result is None:
                assert g.start is not None
                check_hand(after, g.start.scores)
                hands += 1
                bad_play_due = True
            g = after
    assert hands >= MANY
    assert refusals >= MANY


@pytest.mark.slow
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_injected_renege_is_proven_on_a_hidden_table(name: str) -> None:
    proven = 0
    for seed in range(MANY // 4):
        if proven_renege(name, seed) is not None:
            proven += 1
    assert proven >= MANY // 16
