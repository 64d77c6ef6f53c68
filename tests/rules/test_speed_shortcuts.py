"""The shortcuts taken for speed give what the plain definitions give.

`meld_total` is `best_meld(...).total`, `MeldResult.cards` is the per-class multiset union,
`trick_winner` is the first copy of the winning face, `index_of` is `list.index` by identity,
`playable` is the hand's cards whose face `legal_plays` lists.
"""

from __future__ import annotations

import random

import pytest

from table.rules import (
    ALL_CARDS,
    PRESET_NAMES,
    Card,
    MeldClass,
    MeldResult,
    Rank,
    Rules,
    Suit,
    best_meld,
    preset,
    trick_winner,
    with_options,
)
from table.rules.cards import index_of
from table.rules.meld import card_counts, meld_total
from table.rules.tricks import legal_plays, playable

RULES = [preset(name) for name in PRESET_NAMES] + [
    with_options(preset("bison"), {"meld.roundhouse": "240"}),
]


def _reference_cards(result: MeldResult) -> list[Card]:
    """Each face as often as the class that needs it most (a roundhouse's kings and queens
    count in class III too)."""
    per_class: dict[MeldClass, list[int]] = {}
    for meld in result.melds:
        parts = [(meld.meld_class, meld.cards)]
        if meld.meld_class is MeldClass.ROUNDHOUSE:
            kq = tuple(c for c in meld.cards if c.rank in (Rank.KING, Rank.QUEEN))
            parts = [(MeldClass.MARRIAGES, meld.cards), (MeldClass.AROUNDS, kq)]
        for cls, cards in parts:
            counts = per_class.setdefault(cls, [0] * 24)
            for c in cards:
                counts[c.index] += 1
    need = [max(col) for col in zip(*per_class.values(), strict=True)] if per_class else []
    return [Card.from_index(i) for i, n in enumerate(need) for _ in range(n)]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
def test_meld_total_and_cards_match_the_plain_definitions(rules: Rules) -> None:
    rng = random.Random(rules.name)
    deck = rules.deck()
    rich = [c for c in deck if c.rank in (Rank.KING, Rank.QUEEN, Rank.ACE, Rank.JACK)]
    for _ in range(150):
        hand = rng.sample(rich if rng.random() < 0.5 else deck, rules.hand_size)
        for trump in (*Suit, None):
            result = best_meld(hand, trump, rules)
            assert meld_total(card_counts(hand), trump, rules) == result.total
            assert list(result.cards) == _reference_cards(result)


def test_trick_winner_is_the_first_copy_of_the_winning_face() -> None:
    rng = random.Random(3)
    for _ in range(2000):
        trick = [rng.choice(ALL_CARDS) for _ in range(rng.randint(1, 4))]
        trump = rng.choice((*Suit, None))
        best = 0
        for i, card in enumerate(trick):  # the rule, card by card
            top = trick[best]
            if (card.suit is top.suit and card.rank > top.rank) or (
                    card.suit is trump and top.suit is not trump):
                best = i
        assert trick_winner(trick, trump) == best


def test_index_of_finds_the_first_copy_or_minus_one() -> None:
    rng = random.Random(4)
    for _ in range(500):
        hand = [rng.choice(ALL_CARDS) for _ in range(rng.randint(0, 12))]
        card = rng.choice(ALL_CARDS)
        assert index_of(hand, card) == (hand.index(card) if card in hand else -1)


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
def test_playable_is_the_hand_less_what_legal_plays_leaves_out(rules: Rules) -> None:
    rng = random.Random(rules.name + "playable")
    deck = rules.deck()
    for _ in range(300):
        rng.shuffle(deck)
        hand = deck[:rules.hand_size]
        trick = deck[rules.hand_size:rules.hand_size + rng.randint(0, rules.players - 1)]
        trump = rng.choice((*Suit, None))
        first = not trick and rng.random() < 0.5
        legal = legal_plays(hand, trick, trump, rules, first)
        cards = playable(hand, trick, trump, rules, first)
        assert cards == [c for c in hand if c in legal]  # in hand order, repeats kept
        assert list(dict.fromkeys(cards)) == legal
