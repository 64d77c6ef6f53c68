"""Cards, suits and ranks: every accepted spelling, printing, round trips and bad text."""

from __future__ import annotations

import pickle
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from table.rules import (
    ALL_CARDS,
    ALL_SUITS,
    Card,
    CardParseError,
    Rank,
    Suit,
    format_cards,
    parse_cards,
    pinochle_deck,
)

RANK_SPELLINGS = {
    Rank.NINE: ["9"], Rank.JACK: ["J", "j"], Rank.QUEEN: ["Q", "q"], Rank.KING: ["K", "k"],
    Rank.TEN: ["10", "T", "t"], Rank.ACE: ["A", "a"],
}
SUIT_LETTERS = {
    Suit.SPADES: ["S", "s", "♠", "♤"], Suit.HEARTS: ["H", "h", "♥", "♡"],
    Suit.CLUBS: ["C", "c", "♣", "♧"], Suit.DIAMONDS: ["D", "d", "♦", "♢"],
}
SUIT_WORDS = {
    Suit.SPADES: ["spades", "Spade", "SPADES"], Suit.HEARTS: ["hearts", "Heart", "HEARTS"],
    Suit.CLUBS: ["clubs", "Club", "CLUBS"], Suit.DIAMONDS: ["diamonds", "Diamond", "DIAMONDS"],
}


def test_every_card_spelling_parses() -> None:
    """Issue 2: "AS", "10S", "TS", "A♠", "10♠" and lower case, with spaces around."""
    for rank, rank_texts in RANK_SPELLINGS.items():
        for suit, suit_texts in SUIT_LETTERS.items():
            for r in rank_texts:
                for s in suit_texts:
                    assert Card.parse(f" {r}{s} ") is Card(suit, rank), r + s


def test_every_suit_and_rank_spelling_parses() -> None:
    for suit in Suit:
        for text in SUIT_LETTERS[suit] + SUIT_WORDS[suit]:
            assert Suit.parse(text) is suit, text
    for rank, texts in RANK_SPELLINGS.items():
        for text in texts:
            assert Rank.parse(text) is rank, text


def test_printing() -> None:
    assert [str(Card.parse(t)) for t in ("as", "t♠", "10h", "qd", "9c", "Jc")] == [
        "AS", "10S", "10H", "QD", "9C", "JC"]
    card = Card.parse("10H")
    assert (card.symbol, card.name) == ("10♥", "ten of hearts")
    assert (str(Suit.DIAMONDS), Suit.DIAMONDS.symbol, Suit.DIAMONDS.word) == ("D", "♦", "diamonds")
    assert str(Rank.TEN) == "10" and str(Rank.NINE) == "9"
    assert Suit.HEARTS.is_red and not Suit.CLUBS.is_red


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_each_card_round_trips(card: Card) -> None:
    """repr pastes back; str, the symbol and lower case parse back; pickling keeps identity."""
    namespace = {"Card": Card, "Suit": Suit, "Rank": Rank}
    assert eval(repr(card), namespace) is card
    assert eval(repr(card.suit), namespace) is card.suit
    assert eval(repr(card.rank), namespace) is card.rank
    for text in (str(card), card.symbol, str(card).lower()):
        assert Card.parse(text) is card
    assert pickle.loads(pickle.dumps(card)) is card
    assert Card.from_index(card.index) is card


@pytest.mark.parametrize("text", ["", " ", "A", "1S", "AX", "11S", "ASS", "S A", "10", "♠A",
                                  "8S", "AS,"])
def test_bad_card_text_is_refused_quoting_it(text: str) -> None:
    with pytest.raises(CardParseError) as info:
        Card.parse(text)
    assert isinstance(info.value, ValueError)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize(("parse", "text"), [
    (Suit.parse, "X"), (Suit.parse, ""), (Suit.parse, "spadez"),
    (Rank.parse, "8"), (Rank.parse, "1"), (Rank.parse, "AA"),
])
def test_bad_suit_or_rank_is_refused_quoting_it(parse: object, text: str) -> None:
    with pytest.raises(CardParseError, match=repr(text).replace("\\", "\\\\")):
        parse(text)  # type: ignore[operator]


def test_parse_and_format_card_lists() -> None:
    cards = parse_cards("AS 10S,KH  q♦")
    assert format_cards(cards) == "AS 10S KH QD"
    assert parse_cards(["AS", "TS"]) == [Card.parse("AS"), Card.parse("10S")]
    assert parse_cards("-") == [] and parse_cards("") == []
    assert format_cards([]) == "-"
    with pytest.raises(CardParseError, match="'XX'"):
        parse_cards("AS XX")


@given(st.lists(st.sampled_from(ALL_CARDS), max_size=20))
def test_formatted_cards_parse_back(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == cards


def test_cards_are_interned_and_immutable() -> None:
    assert Card(Suit.SPADES, Rank.ACE) is Card.parse("AS")
    assert len({Card.parse("KD"), Card.parse("kd"), Card.parse("K♦")}) == 1
    with pytest.raises(AttributeError):
        Card.parse("AS").rank = Rank.NINE
    assert [c.index for c in ALL_CARDS] == list(range(24))


def test_hand_sort_order() -> None:
    """Spades, hearts, clubs, diamonds; high to low within a suit (A 10 K Q J 9)."""
    hand = parse_cards("9D AS QH 10S 9S KC AH")
    assert format_cards(sorted(hand)) == "AS 10S 9S AH QH KC 9D"
    assert list(ALL_SUITS) == [Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS]
    assert sorted(Rank) == [Rank.NINE, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.TEN, Rank.ACE]


def test_the_decks() -> None:
    """000: 48 cards, two of each of 9 J Q K 10 A in four suits; 004: the double deck is 80,
    the 48 doubled with the nines removed."""
    single = Counter(pinochle_deck())
    assert sum(single.values()) == 48 and set(single.values()) == {2} and len(single) == 24
    double = Counter(pinochle_deck(copies=4, nines=False))
    assert sum(double.values()) == 80 and set(double.values()) == {4}
    assert all(c.rank is not Rank.NINE for c in double)
