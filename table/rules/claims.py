"""Claims: a side says the rest of the hand is theirs, and play stops (001 pot version: "Once the
bidder has enough points to win, or acknowledges defeat, the play stops").

With the hands known, a claim of every remaining trick is proven by looking at every way the
others could play: the claiming side must have a line that wins each trick whatever they do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .cards import Card, Suit, index_of
from .tricks import legal_plays, trick_winner
from .variants import Rules

# Positions looked at before a claim is called too long to prove (play on a trick or two).
NODE_BUDGET = 60_000


class ClaimTooDeep(Exception):
    """Too many ways of playing the rest to look at them all."""


def takes_every_trick(hands: Sequence[tuple[Card, ...]], order: Sequence[int], leader: int,
                      ours: frozenset[int], trump: Suit | None, rules: Rules) -> bool:
    """Whether the seats `ours` (a side) can win every remaining trick against any
    play of the others, `leader` to lead (seats play in `order`, clockwise). `hands` is indexed
    by seat. Raises `ClaimTooDeep` past `NODE_BUDGET` positions."""
    nodes = [0]
    seen: dict[tuple[int, tuple[tuple[Card, ...], ...]], bool] = {}

    def trick(cards_by_seat: list[tuple[Card, ...]], first: int) -> bool:
        if not any(cards_by_seat[s] for s in order):
            return True
        key = (first, tuple(tuple(sorted(cards_by_seat[s])) for s in order))
        found = seen.get(key)
        if found is None:
            found = seen[key] = play(cards_by_seat, [], order.index(first))
        return found

    def play(cards_by_seat: list[tuple[Card, ...]], played: list[tuple[int, Card]],
             at: int) -> bool:
        nodes[0] += 1
        if nodes[0] > NODE_BUDGET:
            raise ClaimTooDeep
        if len(played) == len(order):
            win = played[trick_winner([c for _, c in played], trump)][0]
            return win in ours and trick(cards_by_seat, win)
        seat = order[at % len(order)]
        hand = cards_by_seat[seat]
        outcomes = (_after(cards_by_seat, seat, hand, card, played, at, play)
                    for card in legal_plays(hand, [c for _, c in played], trump, rules))
        return any(outcomes) if seat in ours else all(outcomes)

    return trick(list(hands), leader)


def _after(cards_by_seat: list[tuple[Card, ...]], seat: int, hand: tuple[Card, ...], card: Card,
           played: list[tuple[int, Card]], at: int,
           play: Callable[[list[tuple[Card, ...]], list[tuple[int, Card]], int], bool]) -> bool:
    i = index_of(hand, card)
    rest = list(cards_by_seat)
    rest[seat] = hand[:i] + hand[i + 1:]
    return play(rest, [*played, (seat, card)], at + 1)
