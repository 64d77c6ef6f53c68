"""A game is the fold of its accepted events; undo and corrections are events too.

`Undone` takes back the last event still in effect; `Corrected(target=N, replacement=e)` puts
`e` in the place of event number N. Nothing is ever deleted: the journal keeps all of them, and
`replay` works out which are in effect and folds those.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .events import Corrected, Event, Undone
from .game import Game, IllegalAction, new_game
from .variants import Rules


def in_effect(events: Iterable[tuple[int, Event]]) -> list[tuple[int, Event]]:
    """The (number, event) pairs still in effect after undos and corrections, in order."""
    stack: list[tuple[int, Event]] = []
    for number, event in events:
        if isinstance(event, Undone):
            if not stack:
                raise IllegalAction("there is nothing to undo", "the start of the game")
            if event.target is not None and stack[-1][0] != event.target:
                raise IllegalAction(f"move #{event.target} is not the last move in effect "
                                    f"(#{stack[-1][0]} is), so it was already undone or "
                                    "another move came since", "the journal")
            stack.pop()
        elif isinstance(event, Corrected):
            for i, (n, _) in enumerate(stack):
                if n == event.target:
                    stack[i] = (n, event.replacement)
                    break
            else:
                raise IllegalAction(f"event {event.target} is not in effect, so it cannot be "
                                    f"corrected", "the journal")
            if isinstance(event.replacement, Corrected | Undone):
                raise IllegalAction("a correction must put a game event in place",
                                    "the journal")
        else:
            stack.append((number, event))
    return stack


def replay(rules: Rules, names: Sequence[str] | None, events: Iterable[tuple[int, Event]],
           first_dealer: int = 0) -> Game:
    """The game after the accepted `events` (each with its journal number)."""
    g = new_game(rules, names, first_dealer)
    for number, event in in_effect(events):
        try:
            g = g.apply(event)
        except IllegalAction as exc:
            raise IllegalAction(f"event {number} ({event.describe()}) no longer fits: "
                                f"{exc.reason}", exc.position) from None
    return g
