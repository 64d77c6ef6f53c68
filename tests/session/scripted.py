"""Scripted games for the session tests: the rules core's simulated players (seeded, known
hands) play legally, and refused events, misreads corrected and undos are mixed in on purpose.

Each step is one event and the verdict the session must give it (every event makes exactly one
journal entry, so step i is journal entry i + 1).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from table.rules import (
    CardPlayed,
    Corrected,
    Event,
    Game,
    IllegalAction,
    Passed,
    Phase,
    Rules,
    SimTable,
    Undone,
    legal_plays,
    new_game,
    replay,
)


@dataclass(frozen=True)
class Step:
    event: Event
    accepted: bool


def scripted_game(rules: Rules, names: Sequence[str], seed: int, hands: int = 1,
                  mischief: float = 0.1) -> list[Step]:
    """Steps that play `hands` hands out (deals everyone passed do not count; fewer if the
    game ends first).

    With probability `mischief` per move the script first adds an event the rules must refuse
    (a card from the wrong seat), plays a wrong card and corrects it, or makes a move, undoes it
    and makes it again.
    """
    rng = random.Random(seed)
    players = SimTable(rules, random.Random(seed))
    steps: list[Step] = []
    accepted: list[tuple[int, Event]] = []
    game = new_game(rules, names)

    def record(event: Event) -> None:
        nonlocal game
        number = len(steps) + 1
        try:
            if isinstance(event, Corrected | Undone):
                after = replay(rules, names, [*accepted, (number, event)])
            else:
                after = game.apply(event)
        except IllegalAction:
            steps.append(Step(event, False))
            return
        steps.append(Step(event, True))
        accepted.append((number, event))
        game = after

    while game.phase is not Phase.GAME_OVER and _played(game) < hands:
        before = game
        move = players.next_event(game)
        roll = rng.random()
        if roll < mischief / 3:
            record(_out_of_turn(game, move))
        elif roll < 2 * mischief / 3 and isinstance(move, CardPlayed):
            wrong = _wrong_card(game, move, rng)
            if wrong is not None:
                record(wrong)
                record(Corrected(target=len(steps), replacement=move, source="web"))
                players.observe(move, before)
                continue
        elif roll < mischief:
            record(move)
            record(Undone(source="web"))
        record(move)
        assert steps[-1].accepted, f"the players' own move was refused: {move.describe()}"
        players.observe(move, before)
    return steps


def _played(g: Game) -> int:
    """Hands bid and scored so far."""
    results = [*g.history, g.result] if g.phase is Phase.HAND_OVER else list(g.history)
    return sum(1 for r in results if r is not None and r.declarer is not None)


def _out_of_turn(g: Game, move: Event) -> Event:
    """The same kind of move by a seat that may not make it now."""
    seat = g.turn if g.turn is not None else 0
    wrong = (seat + 1) % g.rules.table_seats
    if isinstance(move, CardPlayed):
        return CardPlayed(seat=wrong, card=move.card, source="camera")
    return Passed(seat=wrong, source="gpio")


def _wrong_card(g: Game, move: CardPlayed, rng: random.Random) -> CardPlayed | None:
    """Another legal card the camera might have misread for `move`'s."""
    hands = g.hands
    assert hands is not None
    trick = [c for _, c in g.trick]
    first = not g.tricks and not g.trick
    others = [c for c in legal_plays(hands[move.seat], trick, g.trump, g.rules, first)
              if c != move.card]
    if not others:
        return None
    return CardPlayed(seat=move.seat, card=rng.choice(others), source="camera")
