"""Helpers for the game tests: scripted positions and simulated games."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

from table.rules import (
    Buried,
    CardsPassed,
    Event,
    Game,
    HandDealt,
    IllegalAction,
    Rules,
    SimTable,
    StockDrawn,
    new_game,
)


def at(text: str) -> Game:
    """A position from its notation."""
    return Game.parse(text)


def refused(g: Game, event: Event) -> str:
    """The reason `event` is refused in `g` (fails the test if it is accepted)."""
    try:
        g.apply(event)
    except IllegalAction as exc:
        assert exc.position == g.position()
        return exc.reason
    raise AssertionError(f"{event.describe()} was accepted in {g.position()}")


def hidden(e: Event, rules: Rules) -> Event:
    """What a real table sees of an event: no dealt hands, buried and passed cards face down
    (two-handed discard piles are shown to be counted)."""
    if isinstance(e, HandDealt):
        return replace(e, hands=None, kitty=None)
    if isinstance(e, Buried) and not rules.draw_from_stock:
        return replace(e, cards=None)
    if isinstance(e, CardsPassed):
        return replace(e, cards=None)
    if isinstance(e, StockDrawn):
        return replace(e, kept=None, discarded=None)
    return e


def sim_hands(rules: Rules, seed: int, hands: int, known: bool = True,
              start: Game | None = None) -> Iterator[tuple[Event, Game, Game]]:
    """(event, before, after) for `hands` simulated hands."""
    g = start if start is not None else new_game(rules)
    sim = SimTable(rules, random.Random(seed), known=known)
    done = 0
    while g.phase.value != "game-over":
        if g.phase.value == "hand-over":
            done += 1
            if done >= hands:
                return
        e = sim.next_event(g)
        after = g.apply(e)
        sim.observe(e, g)
        yield e, g, after
        g = after
