"""Cards, suits, ranks and the pinochle decks.

Cards are interned values: there are 24 faces, and `Card(suit, rank)` always returns the same
object for the same face, so comparisons and hashing are cheap. Two physical copies of a face
are the same `Card`; a hand is a list (a multiset) of cards.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from typing import ClassVar, TypeVar

from mypy_extensions import mypyc_attr


class CardParseError(ValueError):
    """Text that does not name a card, suit or rank."""


class Suit(enum.Enum):
    """The four suits, in the order a hand is sorted: spades, hearts, clubs, diamonds."""

    SPADES = "S"
    HEARTS = "H"
    CLUBS = "C"
    DIAMONDS = "D"

    @property
    def index(self) -> int:
        return _SUIT_INDEX[self]

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOL[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def word(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Suit:
        """`Suit.parse("S")`, `"s"`, `"♠"`, `"spades"` -> `Suit.SPADES`."""
        key = text.strip().upper()
        suit = _SUIT_TEXT.get(key)
        if suit is None:
            raise CardParseError(f"not a suit: {text!r} (use S, H, C, D or ♠ ♥ ♣ ♦)")
        return suit

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Suit.parse({self.value!r})"

    __hash__ = object.__hash__  # suits are singletons; Enum's own hash runs Python code


class Rank(enum.IntEnum):
    """Ranks in trick-taking order, low to high: 9 J Q K 10 A."""

    NINE = 0
    JACK = 1
    QUEEN = 2
    KING = 3
    TEN = 4
    ACE = 5

    @property
    def text(self) -> str:
        return _RANK_TEXT[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """`Rank.parse("10")`, `"T"`, `"a"` ... ; raises `CardParseError`."""
        rank = _RANK_BY_TEXT.get(text.strip().upper())
        if rank is None:
            raise CardParseError(f"not a rank: {text!r} (use A, 10 or T, K, Q, J, 9)")
        return rank

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Rank.parse({self.text!r})"


_SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
_SUIT_INDEX = {s: i for i, s in enumerate(_SUIT_ORDER)}
_SUIT_SYMBOL = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.CLUBS: "♣", Suit.DIAMONDS: "♦"}
_SUIT_TEXT: dict[str, Suit] = {}
for _s in _SUIT_ORDER:
    _SUIT_TEXT[_s.value] = _s
    _SUIT_TEXT[_s.name] = _s
    _SUIT_TEXT[_s.name[:-1]] = _s  # "SPADE"
    _SUIT_TEXT[_SUIT_SYMBOL[_s]] = _s
for _sym, _s in (("♤", Suit.SPADES), ("♡", Suit.HEARTS), ("♧", Suit.CLUBS), ("♢", Suit.DIAMONDS)):
    _SUIT_TEXT[_sym] = _s

_RANK_TEXT = {
    Rank.NINE: "9", Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K", Rank.TEN: "10", Rank.ACE: "A",
}
_RANK_BY_TEXT = {v: k for k, v in _RANK_TEXT.items()} | {"T": Rank.TEN}


@mypyc_attr(native_class=False)  # interned in __new__, which a native class may not be
class Card:
    """One face of the pinochle deck: `Card.parse("AS")`, `str(card) == "AS"`.

    `card.index` is 0..23 (suit-major), handy for counting arrays.
    """

    __slots__ = ("index", "rank", "suit")
    suit: Suit
    rank: Rank
    index: int
    _all: ClassVar[tuple[Card, ...]]

    def __new__(cls, suit: Suit, rank: Rank) -> Card:
        return cls._all[_SUIT_INDEX[suit] * 6 + int(rank)]

    @classmethod
    def _make(cls, suit: Suit, rank: Rank) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "index", _SUIT_INDEX[suit] * 6 + int(rank))
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[Suit, Rank]]:
        return (Card, (self.suit, self.rank))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse "AS", "10S", "TS", "A♠", "10♠", "qd" ...; raises `CardParseError`."""
        t = text.strip()
        if len(t) < 2:
            raise CardParseError(f"not a card: {text!r} (write rank then suit, e.g. 'AS', '10H')")
        try:
            rank = Rank.parse(t[:-1])
            suit = Suit.parse(t[-1])
        except CardParseError:
            raise CardParseError(
                f"not a card: {text!r} (write rank then suit, e.g. 'AS', '10H', 'Q♠')"
            ) from None
        return cls._all[_SUIT_INDEX[suit] * 6 + int(rank)]

    @classmethod
    def from_index(cls, index: int) -> Card:
        return cls._all[index]

    @property
    def symbol(self) -> str:
        """'A♠', '10♥' ..."""
        return f"{self.rank.text}{self.suit.symbol}"

    @property
    def name(self) -> str:
        """'ace of spades'."""
        return f"{_RANK_WORD[self.rank]} of {self.suit.word}"

    def __str__(self) -> str:
        return f"{self.rank.text}{self.suit.value}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    __hash__ = object.__hash__  # cards are interned: identity is equality, and C-fast

    def __lt__(self, other: Card) -> bool:
        """Sort order of a hand: by suit (S H C D), then high to low within a suit."""
        return (self.suit.index, -self.rank) < (other.suit.index, -other.rank)


_RANK_WORD = {
    Rank.NINE: "nine", Rank.JACK: "jack", Rank.QUEEN: "queen",
    Rank.KING: "king", Rank.TEN: "ten", Rank.ACE: "ace",
}

Card._all = tuple(Card._make(s, r) for s in _SUIT_ORDER for r in Rank)
ALL_SUITS: tuple[Suit, ...] = _SUIT_ORDER
ALL_CARDS: tuple[Card, ...] = Card._all

T = TypeVar("T")


def index_of(cards: Sequence[Card], card: Card) -> int:
    """Where `card` first is in `cards`, or -1. The same as `cards.index(card)`, since cards are
    interned, but by identity: `==` on cards goes through Python (`Card.__lt__` makes the type
    compare in Python), so `index`, `in` and `remove` on a hand are slow in the hot paths."""
    for i, c in enumerate(cards):
        if c is card:
            return i
    return -1


def multiset_union(a: Iterable[T], b: Iterable[T]) -> list[T]:
    """Each item as often as the larger of its counts in `a` and `b`, `a`'s first (the same
    physical card may be in both: two meld classes, a play and a meld)."""
    out = list(a)
    pool = list(out)
    for item in b:
        if item in pool:
            pool.remove(item)
        else:
            out.append(item)
    return out


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """`parse_cards("AS 10S KH")` or `parse_cards(["AS", "10S"])`; "-" or "" is no cards."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(t) for t in items if t != "-"]


def format_cards(cards: Iterable[Card]) -> str:
    """Space-separated, in the given order; "-" for none (so it parses back)."""
    out = " ".join(str(c) for c in cards)
    return out or "-"


def pinochle_deck(copies: int = 2, nines: bool = True) -> list[Card]:
    """The 48-card deck (two copies of 9..A in four suits), or the 80-card double deck
    (`copies=4, nines=False`), in a fixed order: shuffle with a `random.Random`."""
    one = [c for c in ALL_CARDS if nines or c.rank is not Rank.NINE]
    return one * copies
