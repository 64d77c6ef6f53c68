"""Property tests of the play rules over random deals, tricks and hands of every preset."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from table.rules import (
    ALL_CARDS,
    PRESET_NAMES,
    Beat,
    Card,
    Rules,
    Suit,
    card_points,
    is_legal_play,
    legal_plays,
    play_error,
    preset,
    trick_winner,
)

PRESETS = [preset(name) for name in PRESET_NAMES]
# every must-beat rule, with and without the first-lead-trump rule
PLAY_RULES = [replace(preset("bison"), beat=beat, first_lead_trump=first)
              for beat in Beat for first in (False, True)]
# the card-point totals the texts state: 250 (000-004), 25 (003), 48 counters + 10 (004 double deck)
STATED_TOTAL = {"family": 25, "family-alternate": 25, "double-deck": 490}


def deal(rules: Rules, rng: random.Random) -> tuple[list[list[Card]], list[Card], list[Card]]:
    """Hands, kitty and (two-hand) discards, dealt from the shuffled deck."""
    deck = rules.deck()
    rng.shuffle(deck)
    size = rules.hand_size
    hands = [deck[i * size:(i + 1) * size] for i in range(rules.players)]
    dealt = rules.players * size
    return hands, deck[dealt:dealt + rules.kitty_size], deck[dealt + rules.kitty_size:]


@settings(max_examples=60, deadline=None)
@given(rules=st.sampled_from(PRESETS), seed=st.integers(0, 2**32))
def test_every_deal_sums_to_the_trick_total(rules: Rules, seed: int) -> None:
    """The dealt parts hold all the card points: with the last trick, the total the texts state."""
    hands, kitty, rest = deal(rules, random.Random(seed))
    assert len(rest) == (rules.players * rules.hand_size if rules.draw_from_stock else 0)
    parts = [*hands, kitty, rest]
    total = sum(card_points(p, rules) for p in parts) + rules.points.last_trick
    assert total == rules.trick_total == STATED_TOTAL.get(rules.name, 250)


@settings(max_examples=60, deadline=None)
@given(rules=st.sampled_from(PRESETS), seed=st.integers(0, 2**32), trump=st.sampled_from(Suit))
def test_random_legal_play_of_a_whole_hand(rules: Rules, seed: int, trump: Suit) -> None:
    """Playing a dealt hand out with random legal cards: there is always a legal card, each is
    accepted by play_error, every trick goes to the suit led or a trump, and the points won
    plus the kitty (buried or discarded cards) and the last trick make the trick total."""
    rng = random.Random(seed)
    hands, kitty, rest = deal(rules, rng)
    won = [0] * rules.players
    leader = 0
    for number in range(rules.hand_size):
        trick: list[Card] = []
        for k in range(rules.players):
            hand = hands[(leader + k) % rules.players]
            first = number == 0 and not trick
            plays = legal_plays(hand, trick, trump, rules, first)
            assert plays
            card = rng.choice(plays)
            assert play_error(card, hand, trick, trump, rules, first) is None
            hand.remove(card)
            trick.append(card)
        w = trick_winner(trick, trump)
        assert trick[w].suit in (trick[0].suit, trump)
        leader = (leader + w) % rules.players
        won[leader] += card_points(trick, rules)
    assert not any(hands)
    total = sum(won) + card_points(kitty + rest, rules) + rules.points.last_trick
    assert total == rules.trick_total


DECK = preset("bison").deck()
Situation = tuple[list[Card], list[Card], Suit, Rules, bool]


@st.composite
def situations(draw: st.DrawFn) -> Situation:
    """(trick, hand, trump, rules, first lead): the trick from the whole deck, the hand from
    the rest in one to four suits, so voids, ruffs and overruffs are common."""
    deck = list(DECK)
    draw(st.randoms(use_true_random=False)).shuffle(deck)  # st.permutations stays near order
    trick = deck[:draw(st.integers(0, 3))]
    suits = draw(st.lists(st.sampled_from(Suit), min_size=1, max_size=4, unique=True))
    pool = [c for c in deck[len(trick):] if c.suit in suits]
    hand = pool[:draw(st.integers(1, 15))]
    trump = draw(st.sampled_from(Suit))
    return trick, hand, trump, draw(st.sampled_from(PLAY_RULES)), draw(st.booleans())


def may_play(card: Card, hand: list[Card], trick: list[Card], trump: Suit, rules: Rules,
             first: bool) -> bool:
    """The play rules restated card by card, in terms of "would this card take the trick"."""
    if not trick:
        holds_trump = any(c.suit is trump for c in hand)
        return not (first and rules.first_lead_trump and holds_trump) or card.suit is trump

    def wins(c: Card) -> bool:
        return trick_winner([*trick, c], trump) == len(trick)

    led = trick[0].suit
    if any(c.suit is led for c in hand):
        if card.suit is not led:
            return False
        must_beat = rules.beat in (Beat.ALWAYS, Beat.WIN) or led is trump
        return not (must_beat and any(wins(c) for c in hand if c.suit is led)) or wins(card)
    trumps = [c for c in hand if c.suit is trump]
    if not trumps:
        return True
    if rules.beat is Beat.WIN:
        return not any(wins(c) for c in trumps) or (card.suit is trump and wins(card))
    if card.suit is not trump:
        return False
    if rules.beat is Beat.TRUMP_LED:
        return True
    return not any(wins(c) for c in trumps) or wins(card)


@settings(max_examples=400, deadline=None)
@given(situations())
def test_legal_plays_follows_the_rules_card_by_card(
    situation: Situation,
) -> None:
    """legal_plays against the rules restated per card (see may_play)."""
    trick, hand, trump, rules, first = situation
    expected = [c for c in dict.fromkeys(hand) if may_play(c, hand, trick, trump, rules, first)]
    assert legal_plays(hand, trick, trump, rules, first) == expected


@settings(max_examples=400, deadline=None)
@given(situations())
def test_legal_plays_is_never_empty_and_agrees_with_play_error(
    situation: Situation,
) -> None:
    """A non-empty hand always has a legal card; legal_plays lists each face of the hand once,
    exactly those play_error accepts; each error names a legal card of the hand as witness."""
    trick, hand, trump, rules, first = situation
    plays = legal_plays(hand, trick, trump, rules, first)
    assert plays
    assert len(plays) == len(set(plays)) and set(plays) <= set(hand)
    for card in set(hand):
        err = play_error(card, hand, trick, trump, rules, first)
        assert (err is None) == (card in plays)
        assert is_legal_play(card, hand, trick, trump, rules, first) == (card in plays)
        if err is not None:
            assert err.witness in plays and err.text.startswith("must ")
    outsider = next(c for c in ALL_CARDS if c not in hand)
    err = play_error(outsider, hand, trick, trump, rules, first)
    assert err is not None and err.rule == "not in hand"


@settings(max_examples=400, deadline=None)
@given(situations(), st.integers(0, 10))
def test_a_renege_proven_on_part_of_a_hand_holds_for_the_whole_hand(
    situation: Situation, extra: int,
) -> None:
    """Monotone legality: if a card breaks a rule for some cards of a hand, it breaks one for
    any hand holding those cards (so a renege can be proven on a hidden hand)."""
    trick, hand, trump, rules, first = situation
    rest = [c for c in DECK if c not in trick and c not in hand]
    known = hand[:max(1, len(hand) - extra)]
    whole = known + hand[len(known):] + rest[:extra]
    for card in set(known):
        if play_error(card, known, trick, trump, rules, first) is not None:
            assert play_error(card, whole, trick, trump, rules, first) is not None


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=1, max_size=4), st.sampled_from(Suit))
def test_the_winner_is_the_highest_trump_or_card_of_the_suit_led(
    trick: list[Card], trump: Suit,
) -> None:
    """The winner is of the suit led or a trump: the highest trump if any was played, else the
    highest card of the suit led; of equal cards the first played."""
    w = trick_winner(trick, trump)
    assert trick[w].suit in (trick[0].suit, trump)
    trumps = [c for c in trick if c.suit is trump]
    pool = trumps or [c for c in trick if c.suit is trick[0].suit]
    best = max(pool, key=lambda c: c.rank)
    assert trick[w] is best and trick.index(best) == w
