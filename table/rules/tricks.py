"""The play of the cards: which cards may be played, who wins a trick, what tricks are worth.

`Rules.beat` chooses the must-beat rule (VARIANTS.md section 6):
- ALWAYS (000, the older rule): follow suit and kill (beat the highest card so far) whenever
  you can; a card of the suit led cannot beat a trick already trumped. Void in the suit led:
  trump, killing with a trump if you can, else any trump. Void in both: any card.
- TRUMP_LED (000 newer rule, 001, 003): follow suit; beat the highest trump only when trump was
  led. Void in a plain suit led: any trump.
- TRUMP_LED_OVERRUFF (004): as TRUMP_LED, and ruffing after an earlier ruff, overruff if you can.
- WIN (002): follow suit; take the trick if you can, with a card of the suit led or a winning
  trump. Void in the suit led and unable to win: any card, even a losing trump.
`Rules.first_lead_trump` (003, 004): the first lead of the hand is a trump if the leader has one.

Of two identical cards the first played ranks higher, so a second copy never beats it.

Every requirement is about cards the hand holds, so a play that breaks the rules for some cards
of a hand breaks them for any hand holding those cards too: `play_error` on the part of a hidden
hand known from later plays proves a renege.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from .cards import Card, Suit
from .variants import Beat, Rules

PlayRule = Literal[
    "follow suit", "trump", "beat", "overtrump", "win", "lead trump", "not in hand",
]


@dataclass(frozen=True, slots=True)
class PlayError:
    """Why a card may not be played: the `rule` broken, a `witness` card of the hand the rule
    required instead, and a `text` to follow a seat's name ("must follow spades")."""

    rule: PlayRule
    witness: Card | None
    text: str

    def __str__(self) -> str:
        return self.text


_ALWAYS = Beat.ALWAYS
_WIN = Beat.WIN
_TRUMP_LED = Beat.TRUMP_LED


def trick_winner(trick: Sequence[Card], trump: Suit | None) -> int:
    """The index in `trick` of the winning card: the highest trump, else the highest card of the
    suit led; of two identical cards the first played. Other cards never win."""
    if not trick:
        raise ValueError("an empty trick has no winner")
    best = 0
    top = trick[0]
    for i in range(1, len(trick)):
        card = trick[i]
        if card.suit is top.suit:
            if card.rank > top.rank:
                best, top = i, card
        elif card.suit is trump:
            best, top = i, card
    return best


def _faces(cards: Iterable[Card]) -> list[Card]:
    return list(dict.fromkeys(cards))


def legal_plays(
    hand: Collection[Card], trick: Sequence[Card], trump: Suit | None, rules: Rules,
    first_lead: bool = False,
) -> list[Card]:
    """The distinct faces of `hand` that may be played to `trick` (the cards already played to
    it, in order; empty for a lead), in the order they first appear in `hand`.
    `first_lead` marks the first lead of the hand."""
    if not trick:
        if first_lead and rules.first_lead_trump:
            trumps = [c for c in hand if c.suit is trump]
            if trumps:
                return _faces(trumps)
        return _faces(hand)
    led = trick[0].suit
    top = trick[trick_winner(trick, trump)]
    beat = rules.beat
    follow = [c for c in hand if c.suit is led]
    if follow:
        if top.suit is led and (led is trump or beat is _ALWAYS or beat is _WIN):
            rank = top.rank
            higher = [c for c in follow if c.rank > rank]
            if higher:
                return _faces(higher)
        return _faces(follow)
    trumps = [c for c in hand if c.suit is trump]
    if not trumps:
        return _faces(hand)
    if beat is _TRUMP_LED:
        return _faces(trumps)
    if top.suit is trump:
        rank = top.rank
        higher = [c for c in trumps if c.rank > rank]
    else:
        higher = trumps
    if higher:
        return _faces(higher)
    return _faces(hand if beat is _WIN else trumps)


def is_legal_play(
    card: Card, hand: Collection[Card], trick: Sequence[Card], trump: Suit | None, rules: Rules,
    first_lead: bool = False,
) -> bool:
    """Whether `card`, which `hand` holds, may be played: `card in legal_plays(...)`, without
    listing the other cards (the game asks this for every card played)."""
    suit = card.suit
    if not trick:
        return not (first_lead and rules.first_lead_trump and suit is not trump
                    and any(c.suit is trump for c in hand))
    led = trick[0].suit
    top = trick[trick_winner(trick, trump)]
    beat = rules.beat
    if suit is led:
        if top.suit is led and card.rank <= top.rank and (
                led is trump or beat is _ALWAYS or beat is _WIN):
            rank = top.rank
            return not any(c.suit is led and c.rank > rank for c in hand)
        return True
    if any(c.suit is led for c in hand):
        return False
    if suit is trump:
        if beat is _TRUMP_LED or top.suit is not trump or card.rank > top.rank:
            return True
        rank = top.rank
        return not any(c.suit is trump and c.rank > rank for c in hand)
    if not any(c.suit is trump for c in hand):
        return True
    if beat is _TRUMP_LED or top.suit is not trump:
        return False  # must trump
    rank = top.rank
    # void in both the suit led and any trump that beats the top one: 002 allows any card
    return beat is _WIN and not any(c.suit is trump and c.rank > rank for c in hand)


def play_error(
    card: Card, hand: Collection[Card], trick: Sequence[Card], trump: Suit | None, rules: Rules,
    first_lead: bool = False,
) -> PlayError | None:
    """Why `card` may not be played from `hand` to `trick` (None if it may).

    `hand` includes `card`. Given only part of a hidden hand (plus the card played), an error
    here holds for every hand containing that part."""
    if card not in hand:
        return PlayError("not in hand", None, f"has no {card.name}")
    if is_legal_play(card, hand, trick, trump, rules, first_lead):
        return None
    legal = legal_plays(hand, trick, trump, rules, first_lead)
    witness = legal[0]  # every legal card meets the requirement `card` fails
    if not trick:
        return PlayError("lead trump", witness, "must lead trump")
    led = trick[0].suit
    top = trick[trick_winner(trick, trump)]
    if card.suit is not led and witness.suit is led:
        return PlayError("follow suit", witness, f"must follow {led.word}")
    if rules.beat is _WIN:
        return PlayError("win", witness, f"must take the trick by beating the {top.name}")
    if card.suit is not witness.suit:
        return PlayError("trump", witness, "must trump")
    if card.suit is led:
        return PlayError("beat", witness, f"must beat the {top.name}")
    return PlayError("overtrump", witness, f"must overtrump the {top.name}")


def card_points(cards: Iterable[Card], rules: Rules) -> int:
    """What the cards are worth in tricks (the last-trick bonus, `rules.points.last_trick`, is
    the game's to add)."""
    values = rules.points.by_rank()
    return sum(values[c.rank] for c in cards)
