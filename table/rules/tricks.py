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
from typing import Final, Literal

from .cards import ALL_CARDS, Card, Suit, index_of
from .variants import Beat, CardPoints, Rules

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


_ALWAYS: Final = Beat.ALWAYS
_WIN: Final = Beat.WIN
_TRUMP_LED: Final = Beat.TRUMP_LED

# Set lookups run in C, so the hot checks below test a hand against these rather than looping
# over it: the faces of each suit (none for no trump), and the faces of a card's suit above it.
_OF_SUIT: Final[dict[Suit | None, frozenset[Card]]] = {
    s: frozenset(c for c in ALL_CARDS if c.suit is s) for s in Suit}
_OF_SUIT[None] = frozenset()
_ABOVE: Final[dict[Card, frozenset[Card]]] = {
    card: frozenset(c for c in ALL_CARDS if c.suit is card.suit and c.rank > card.rank)
    for card in ALL_CARDS}


def trick_winner(trick: Sequence[Card], trump: Suit | None) -> int:
    """The index in `trick` of the winning card: the highest trump, else the highest card of the
    suit led; of two identical cards the first played. Other cards never win."""
    if not trick:
        raise ValueError("an empty trick has no winner")
    # only a strictly higher card takes the lead, so the winner is its face's first copy
    return index_of(trick, winning_card(trick, trump))


def winning_card(trick: Sequence[Card], trump: Suit | None) -> Card:
    """The card winning `trick` (not empty): a card of the top card's suit and higher rank,
    or a trump on a plain card, takes over."""
    top = trick[0]
    for card in trick:
        if card.suit is top.suit:
            if card.rank > top.rank:
                top = card
        elif card.suit is trump:
            top = card
    return top


def legal_plays(
    hand: Collection[Card], trick: Sequence[Card], trump: Suit | None, rules: Rules,
    first_lead: bool = False,
) -> list[Card]:
    """The distinct faces of `hand` that may be played to `trick` (the cards already played to
    it, in order; empty for a lead), in the order they first appear in `hand`.
    `first_lead` marks the first lead of the hand."""
    return list(dict.fromkeys(playable(hand, trick, trump, rules, first_lead)))


def playable(
    hand: Collection[Card], trick: Sequence[Card], trump: Suit | None, rules: Rules,
    first_lead: bool = False,
) -> list[Card]:
    """The cards of `hand` that may be played, in hand order, both copies of a face where it
    holds two: `legal_plays` without taking out the repeats (a player choosing the first best
    card gets the same card from either)."""
    if not trick:
        if first_lead and rules.first_lead_trump:
            trumps = list(filter(_OF_SUIT[trump].__contains__, hand))
            if trumps:
                return trumps
        return list(hand)
    top = trick[0]
    led = top.suit
    if len(trick) > 1:
        top = winning_card(trick, trump)
    beat = rules.beat
    follow = list(filter(_OF_SUIT[led].__contains__, hand))
    if follow:
        if top.suit is led and (led is trump or beat is _ALWAYS or beat is _WIN):
            higher = list(filter(_ABOVE[top].__contains__, follow))
            if higher:
                return higher
        return follow
    trumps = list(filter(_OF_SUIT[trump].__contains__, hand))
    if not trumps:
        return list(hand)
    if beat is _TRUMP_LED:
        return trumps
    higher = list(filter(_ABOVE[top].__contains__, trumps)) if top.suit is trump else trumps
    if higher:
        return higher
    return list(hand) if beat is _WIN else trumps


def is_legal_play(
    card: Card, hand: Collection[Card], trick: Sequence[Card], trump: Suit | None, rules: Rules,
    first_lead: bool = False,
) -> bool:
    """Whether `card`, which `hand` holds, may be played: `card in legal_plays(...)`, without
    listing the other cards (the game asks this for every card played)."""
    suit = card.suit
    if not trick:
        return not (first_lead and rules.first_lead_trump and suit is not trump
                    and not _OF_SUIT[trump].isdisjoint(hand))
    top = trick[0]
    led = top.suit
    if len(trick) > 1:
        top = winning_card(trick, trump)
    beat = rules.beat
    if suit is led:
        if top.suit is led and card.rank <= top.rank and (
                led is trump or beat is _ALWAYS or beat is _WIN):
            return _ABOVE[top].isdisjoint(hand)
        return True
    if not _OF_SUIT[led].isdisjoint(hand):
        return False
    if suit is trump:
        if beat is _TRUMP_LED or top.suit is not trump or card.rank > top.rank:
            return True
        return _ABOVE[top].isdisjoint(hand)
    if _OF_SUIT[trump].isdisjoint(hand):
        return True
    if beat is _TRUMP_LED or top.suit is not trump:
        return False  # must trump
    # void in both the suit led and any trump that beats the top one: 002 allows any card
    return beat is _WIN and _ABOVE[top].isdisjoint(hand)


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
    values = points_by_index(rules.points)
    return sum([values[c.index] for c in cards])


def points_by_index(points: CardPoints) -> tuple[int, ...]:
    """What each face is worth in tricks, indexed by `Card.index` (worked out once a scheme)."""
    # kept by the scheme's identity: hashing its fields would cost more than adding a trick up
    # (the entry holds the scheme, so its id is not reused while it is there)
    found = _POINTS.get(id(points))
    if found is None or found[0] is not points:
        if len(_POINTS) > 256:
            _POINTS.clear()
        by_rank = points.by_rank()
        found = _POINTS[id(points)] = (points, tuple(by_rank[c.rank] for c in ALL_CARDS))
    return found[1]


_POINTS: Final[dict[int, tuple[CardPoints, tuple[int, ...]]]] = {}
