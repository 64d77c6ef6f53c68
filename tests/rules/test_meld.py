"""best_meld: the worked cases of the rule texts, the options, and an exhaustive cross-check."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from table.rules import (
    Card,
    MeldClass,
    MeldResult,
    Rank,
    Rules,
    Suit,
    best_meld,
    parse_cards,
    pinochle_deck,
    preset,
)

S, H, C, D = Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS


def meld(text: str, trump: Suit | None, rules: Rules) -> MeldResult:
    result = best_meld(parse_cards(text), trump, rules)
    assert result.total == sum(m.points for m in result.melds)
    return result


def names(result: MeldResult) -> list[str]:
    return [m.name for m in result.melds]


def roundhouse_option(rules: Rules, with_run: int) -> Rules:
    return replace(rules, meld=replace(rules.meld, roundhouse=240, roundhouse_with_run=with_run))


def st_joseph(rules: Rules) -> Rules:
    return replace(rules, meld=replace(rules.meld, double_royal_marriage=240,
                                       double_royal_with_run=390))


BISON = preset("bison")
BROOKLYN = preset("brooklyn")
RACEHORSE = preset("racehorse")
FAMILY = preset("family")
CLASSIC3 = preset("classic3")
DOUBLE_DECK = preset("double-deck")

RUN_H = "AH 10H KH QH JH"
ROUNDHOUSE_REST = "KS QS KC QC KD QD"


# -- 000_4a0caaf70a615e09.txt (bison) ---------------------------------------------------------

def test_sixty_queens_and_a_pinochle_make_100() -> None:
    """000: 60 queens and a jack of diamonds: the queen of spades serves in class II and III."""
    result = meld("QS QH QC QD JD", H, BISON)
    assert result.total == 100
    assert names(result) == ["pinochle", "queens around"]
    assert [m.meld_class for m in result.melds] == [MeldClass.PINOCHLES, MeldClass.AROUNDS]
    assert sorted(result.cards) == sorted(parse_cards("QS QH QC QD JD"))


def test_a_rope_and_100_aces_make_250() -> None:
    """000: the trump ace of the rope is also the fourth ace of 100 aces."""
    result = meld(f"{RUN_H} AS AC AD", H, BISON)
    assert result.total == 250
    assert names(result) == ["run", "aces around"]


def test_two_kings_and_a_queen_are_one_marriage() -> None:
    """000: 2 kings and 1 queen of a suit are not 2 marriages, nor are 2 queens and 1 king;
    004: K♥ K♥ Q♥ only counts as one marriage."""
    assert meld("KH KH QH", S, BISON).total == 20
    assert meld("KH QH QH", S, BISON).total == 20
    assert meld("K♥ K♥ Q♥", S, CLASSIC3).total == 20
    assert names(meld("KH KH QH", H, BISON)) == ["royal marriage"]


def test_a_run_and_a_royal_marriage_need_a_second_king_and_queen() -> None:
    """000 and 002: run + royal marriage is 190 only with an extra K and Q of trump; an extra K
    or Q alone adds nothing."""
    assert meld(RUN_H, H, BISON).total == 150
    assert meld(f"{RUN_H} KH", H, BISON).total == 150
    assert meld(f"{RUN_H} QH", H, BISON).total == 150
    result = meld(f"{RUN_H} KH QH", H, BISON)
    assert result.total == 190
    assert names(result) == ["run", "royal marriage"]


def test_a_roundhouse_is_240_as_the_sum_of_its_parts() -> None:
    """000: 80 kings + 60 queens + 40 trump marriage + 3 x 20 marriages = 240."""
    result = meld(f"KH QH {ROUNDHOUSE_REST}", H, BISON)
    assert result.total == 240
    assert "roundhouse" not in names(result)


def test_a_run_and_a_roundhouse_sharing_the_royal_pair_make_350() -> None:
    """000: a roundhouse and a rope sharing the king and queen of trumps make only 350."""
    hand = f"{RUN_H} {ROUNDHOUSE_REST}"
    assert meld(hand, H, BISON).total == 350
    assert meld(hand, H, roundhouse_option(BISON, 350)).total == 350


def test_the_roundhouse_option_scores_it_as_a_meld() -> None:
    """000 variation: a roundhouse as its own meld of 240; some score 390 with a rope."""
    alone = meld(f"KH QH {ROUNDHOUSE_REST}", H, roundhouse_option(BISON, 390))
    assert (alone.total, names(alone)) == (240, ["roundhouse"])
    assert alone.melds[0].meld_class is MeldClass.ROUNDHOUSE
    with_run = meld(f"{RUN_H} {ROUNDHOUSE_REST}", H, roundhouse_option(BISON, 390))
    assert (with_run.total, names(with_run)) == (390, ["run with roundhouse"])
    assert sorted(with_run.cards) == sorted(parse_cards(f"{RUN_H} {ROUNDHOUSE_REST}"))


def test_a_roundhouse_beside_a_run_with_its_own_royal_pair_is_390_anyway() -> None:
    """000: with a second K-Q of trump nothing is shared, so run 150 + roundhouse 240."""
    hand = f"{RUN_H} KH QH {ROUNDHOUSE_REST}"
    assert meld(hand, H, BISON).total == 390
    result = meld(hand, H, roundhouse_option(BISON, 350))
    assert (result.total, names(result)) == (390, ["run", "roundhouse"])


def test_the_roundhouse_option_does_not_spoil_double_queens() -> None:
    """000: "difficulties arise" with a roundhouse beside double queens around: the best
    reading scores the 600 for the queens rather than breaking them up for the roundhouse."""
    hand = f"KH QH {ROUNDHOUSE_REST} QS QH QC QD"
    parts = meld(hand, H, BISON)
    option = meld(hand, H, roundhouse_option(BISON, 390))
    assert parts.total == option.total == 600 + 80 + 40 + 60
    assert "double queens around" in names(option)


def test_st_joseph_double_royal_marriage() -> None:
    """000 variation (St Joseph, Missouri): a double marriage in trumps 240, with a rope 390."""
    assert meld("KH KH QH QH", H, BISON).total == 80
    assert meld("KH KH QH QH", H, st_joseph(BISON)).total == 240
    assert names(meld("KH KH QH QH", H, st_joseph(BISON))) == ["double royal marriage"]
    assert meld(f"{RUN_H} KH QH", H, BISON).total == 190
    result = meld(f"{RUN_H} KH QH", H, st_joseph(BISON))
    assert (result.total, names(result)) == (390, ["run with double royal marriage"])
    assert meld("KS KS QS QS", H, st_joseph(BISON)).total == 40  # only in trumps


def test_bison_singles_and_doubles() -> None:
    """000's table: single and double values of each meld."""
    cases = [
        (RUN_H, 150), ("AH AH 10H 10H KH KH QH QH JH JH", 1500),
        ("KS QS", 20), ("KS KS QS QS", 40), ("KH QH", 40), ("KH KH QH QH", 80),
        ("9H", 10), ("9H 9H", 20), ("QS JD", 40), ("QS QS JD JD", 300),
        ("AS AH AC AD", 100), ("AS AS AH AH AC AC AD AD", 1000),
        ("KS KH KC KD", 80), ("KS KS KH KH KC KC KD KD", 800),
        ("QS QH QC QD", 60), ("QS QS QH QH QC QC QD QD", 600),
        ("JS JH JC JD", 40), ("JS JS JH JH JC JC JD JD", 400),
    ]
    for text, total in cases:
        assert meld(text, H, BISON).total == total, text


def test_double_pinochle_beside_double_jacks_and_queens() -> None:
    """000: a card serves once per class: both JD and both QS count in classes II and III."""
    hand = "QS QS QH QH QC QC QD QD JS JS JH JH JC JC JD JD"
    result = meld(hand, C, BISON)
    assert result.total == 300 + 600 + 400
    assert names(result) == ["double pinochle", "double queens around", "double jacks around"]


def test_no_double_bonuses_option() -> None:
    """000 variation: with no special score for doubles a double rope is worth only 300."""
    plain = replace(BISON, meld=BISON.meld.without_double_bonuses())
    result = meld("AH AH 10H 10H KH KH QH QH JH JH", H, plain)
    assert (result.total, names(result)) == (300, ["run", "run"])
    assert meld("AS AS AH AH AC AC AD AD", H, plain).total == 200


def test_tens_score_only_in_a_run() -> None:
    """000: tens have no value in meld except in a rope; 004: there is no tens around."""
    assert meld("10S 10H 10C 10D 10S 10H 10C 10D", H, BISON).total == 0
    assert meld("10S 10H 10C 10D", H, CLASSIC3).melds == ()


def test_scores_divided_by_ten() -> None:
    """000 variation: some divide all the scores by 10, so a rope scores 15."""
    assert meld(RUN_H, H, BISON.scaled(10)).total == 15


# -- 001_7d1bfbefdb2935db.txt (brooklyn) ------------------------------------------------------

def test_brooklyn_has_no_double_bonuses() -> None:
    """001: eight kings form two kings around for 160; two pinochles are just 80."""
    kings = meld("KS KS KH KH KC KC KD KD", C, BROOKLYN)
    assert (kings.total, names(kings)) == (160, ["kings around", "kings around"])
    pins = meld("QS QS JD JD", C, BROOKLYN)
    assert (pins.total, names(pins)) == (80, ["pinochle", "pinochle"])


def test_a_card_in_a_marriage_is_not_also_in_the_run() -> None:
    """001: the queen of hearts in a hearts marriage can be in queens around too, but not also
    in the run when hearts are trump."""
    result = meld(f"{RUN_H} QS QC QD", H, BROOKLYN)
    assert result.total == 150 + 60
    assert names(result) == ["run", "queens around"]


def test_brooklyn_roundhouse_variation() -> None:
    """001 variation: a roundhouse with a run sharing the trump K-Q is 390 or 350."""
    hand = f"{RUN_H} {ROUNDHOUSE_REST}"
    assert meld(hand, H, BROOKLYN).total == 350
    assert meld(hand, H, roundhouse_option(BROOKLYN, 390)).total == 390
    assert meld(hand, H, roundhouse_option(BROOKLYN, 350)).total == 350


def test_two_runs_without_double_bonus() -> None:
    """VARIANTS.md for 001: two runs are 300."""
    assert meld("AH AH 10H 10H KH KH QH QH JH JH", H, BROOKLYN).total == 300


# -- 002_8c758d5a15c0b8ad.txt (racehorse) -----------------------------------------------------

def test_racehorse_worked_example_is_300() -> None:
    """002: diamonds trump, A 10 K K Q J 9 of diamonds, K Q of spades, K of hearts, K of clubs:
    run 150, spade marriage 20, the nine 10, pinochle 40, kings around 80."""
    result = meld("AD 10D KD KD QD JD 9D KS QS KH KC", D, RACEHORSE)
    assert result.total == 300
    assert names(result) == ["run", "marriage in spades", "dix", "pinochle", "kings around"]
    dix = result.melds[2]
    assert dix.meld_class is MeldClass.NINE and dix.cards == (Card.parse("9D"),)


def test_racehorse_extra_king_and_queen_make_a_royal_marriage() -> None:
    """002: with both the extra K and Q of diamonds you score 40 for a royal marriage."""
    assert meld("AD 10D KD KD QD QD JD 9D KS QS KH KC", D, RACEHORSE).total == 340


def test_racehorse_each_nine_of_trump_scores() -> None:
    """002: a nine in the trump suit, 10 points each."""
    result = meld("9D 9D", D, RACEHORSE)
    assert (result.total, names(result)) == (20, ["dix", "dix"])


def test_racehorse_doubles() -> None:
    """002: double run 1500, doubled pinochle 300, a double around 10x the single."""
    assert meld("AH AH 10H 10H KH KH QH QH JH JH", H, RACEHORSE).total == 1500
    assert meld("QS QS JD JD", H, RACEHORSE).total == 300
    assert meld("JS JS JH JH JC JC JD JD", C, RACEHORSE).total == 400


def test_around_the_horn_is_not_a_meld_of_its_own() -> None:
    """002: "around the horn" (a marriage in each suit) is just the parts: 240."""
    result = meld(f"KH QH {ROUNDHOUSE_REST}", H, RACEHORSE)
    assert result.total == 240
    assert names(result) == ["royal marriage", "marriage in spades", "marriage in clubs",
                             "marriage in diamonds", "kings around", "queens around"]


# -- 003_1722af295058f19b.txt (family) --------------------------------------------------------

def test_family_values_are_scaled_by_ten() -> None:
    """003: run 15, trump marriage 4, marriage 2, pinochle 4, arounds 10/8/6/4, nine of trump 1."""
    cases = [(RUN_H, 15), ("KH QH", 4), ("KS QS", 2), ("QS JD", 4), ("AS AH AC AD", 10),
             ("KS KH KC KD", 8), ("QS QH QC QD", 6), ("JS JH JC JD", 4), ("9H", 1)]
    for text, total in cases:
        assert meld(text, H, FAMILY).total == total, text
    assert meld(f"{RUN_H} AS AC AD", H, FAMILY).total == 25


def test_family_lists_no_double_melds() -> None:
    """003 names no double melds: two pinochles are two singles."""
    assert meld("QS QS JD JD", H, FAMILY).total == 8


# -- 004_04ff5920939269dd.txt (classic3 and the rest) ------------------------------------------

def test_general_arounds_need_four_different_suits() -> None:
    """004: A♠ A♥ A♥ A♣ is not aces around; all eight aces are a double around worth 10x."""
    assert meld("A♠ A♥ A♥ A♣", H, CLASSIC3).total == 0
    assert meld("AS AS AH AH AC AC AD AD", H, CLASSIC3).total == 1000
    assert meld("KS KS KH KH KC KC KD KD", C, CLASSIC3).total == 800


def test_general_marriage_and_pinochle_share_the_queen() -> None:
    """004: K♠ Q♠ J♦ counts as both a marriage and a pinochle; double pinochle 300."""
    assert meld("K♠ Q♠ J♦", H, CLASSIC3).total == 60
    assert meld("Q♠ Q♠ J♦ J♦", H, CLASSIC3).total == 300


def test_general_roundtable_is_240() -> None:
    """004: a marriage in each suit is worth 240 in all."""
    assert meld(f"KH QH {ROUNDHOUSE_REST}", H, CLASSIC3).total == 240


def test_general_game_names_no_double_run() -> None:
    """004 gives no double run: two runs score 150 each."""
    assert meld("AH AH 10H 10H KH KH QH QH JH JH", H, CLASSIC3).total == 300


def test_double_deck_reading_pairs_score_as_doubles() -> None:
    """004 gives the double deck no values beyond doubles: here pairs of like melds score as
    doubles and an odd one as a single (the reading documented in table/rules/meld.py)."""
    twelve_aces = " ".join(["AS AH AC AD"] * 3)
    sixteen_aces = " ".join(["AS AH AC AD"] * 4)
    assert meld(twelve_aces, H, DOUBLE_DECK).total == 1000 + 100
    assert names(meld(sixteen_aces, H, DOUBLE_DECK)) == ["double aces around"] * 2
    assert meld(sixteen_aces, H, DOUBLE_DECK).total == 2000
    assert meld("QS QS QS JD JD JD", H, DOUBLE_DECK).total == 300 + 40
    assert meld("QS QS QS QS JD JD JD JD", H, DOUBLE_DECK).total == 600
    four_runs = " ".join([RUN_H] * 4)
    assert meld(four_runs, H, DOUBLE_DECK).total == 600  # 004 has no double run
    assert meld(" ".join(["KS QS"] * 4), H, DOUBLE_DECK).total == 80


# -- the interface ----------------------------------------------------------------------------

def test_buried_cards_are_simply_not_passed() -> None:
    """000/001: buried cards cannot be melded: burying the jack of trumps breaks the run and
    leaves the royal marriage."""
    eighteen = parse_cards(f"{RUN_H} AS AC AD 9S 9C 9D 10S 10C 10D JS JC")
    buried = parse_cards("JH 9S 9C")
    kept = list(eighteen)
    for card in buried:
        kept.remove(card)
    assert best_meld(eighteen, H, BISON).total == 250
    assert best_meld(kept, H, BISON).total == 40 + 100


def test_no_trump_named_makes_every_marriage_plain() -> None:
    result = meld(f"{RUN_H} 9H KS QS", None, BISON)
    assert (result.total, names(result)) == (40, ["marriage in spades", "marriage in hearts"])


def test_melds_come_in_a_stable_readable_order() -> None:
    hand = f"{RUN_H} KH QH 9H KS QS KC QC KD QD JD AS AC AD QS"
    result = meld(hand, H, BISON)
    assert names(result) == [
        "run", "royal marriage", "marriage in spades", "marriage in clubs",
        "marriage in diamonds", "dix", "pinochle", "aces around", "kings around",
        "queens around",
    ]
    assert best_meld(reversed(parse_cards(hand)), H, BISON) == result
    assert str(result).endswith(f"= {result.total}")
    assert str(meld("9S", H, BISON)) == "no meld"


def test_shown_cards_count_a_shared_card_once_per_use() -> None:
    """The cards a meld needs: the queen of spades in a pinochle and queens around once; two
    copies when a double uses both."""
    assert Counter(meld("QS QS QH QC QD JD JD", H, BISON).cards) == Counter(
        parse_cards("QS QS QH QC QD JD JD"))
    hand = f"{RUN_H} {ROUNDHOUSE_REST} AS AC AD QS JD"
    result = meld(hand, H, roundhouse_option(BISON, 390))
    assert names(result) == ["run with roundhouse", "pinochle", "aces around"]
    assert Counter(result.cards) == Counter(parse_cards(hand)) - Counter(parse_cards("QS"))


# -- an exhaustive cross-check ------------------------------------------------------------------

def _pairs(count: int, single: int, double: int | None) -> int:
    return count * single if double is None else (count // 2) * double + (count % 2) * single


Kind = tuple[Counter[Card], int, "int | None"]  # cards, single value, double value


def _most(kinds: list[Kind], have: Counter[Card]) -> int:
    """Brute force within one class: every count of every meld that fits in `have`."""
    if not kinds:
        return 0
    (need, single, double), rest = kinds[0], kinds[1:]
    best, count, used = 0, 0, Counter[Card]()
    while not used - have:
        best = max(best, _pairs(count, single, double) + _most(rest, have - used))
        used, count = used + need, count + 1
    return best


def reference_best(cards: list[Card], trump: Suit, rules: Rules) -> int:
    """The best meld by brute force, class by class (a card serves once per class); the
    roundhouse option spans classes I and III, so its count is tried outermost."""
    mv = rules.meld
    have = Counter(cards)
    t = str(trump)

    def c(text: str) -> Counter[Card]:
        return Counter(parse_cards(text))

    class_one: list[Kind] = [
        (c(f"A{t} 10{t} K{t} Q{t} J{t}"), mv.run, mv.double_run),
        (c(f"K{t} Q{t}"), mv.royal_marriage, mv.double_royal_marriage),
        (c(f"9{t}"), mv.dix, None),
        *[(c(f"K{s} Q{s}"), mv.marriage, None) for s in "SHCD" if s != t],
    ]
    if mv.double_royal_with_run is not None:
        class_one.append((c(f"A{t} 10{t} K{t} K{t} Q{t} Q{t} J{t}"), mv.double_royal_with_run,
                          None))
    class_two: list[Kind] = [(c("QS JD"), mv.pinochle, mv.double_pinochle)]
    class_three: list[Kind] = [
        (Counter(Card(s, r) for s in Suit), v, d)
        for r, v, d in zip((Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK),
                           (mv.aces, mv.kings, mv.queens, mv.jacks),
                           (mv.double_aces, mv.double_kings, mv.double_queens, mv.double_jacks),
                           strict=True)
    ]
    kq = c("KS QS KH QH KC QC KD QD")
    run_rest = c(f"A{t} 10{t} J{t}")
    best = 0
    for houses in range(5 if mv.roundhouse is not None else 1):
        for shared in range(houses + 1):
            one = Counter({card: n * houses for card, n in kq.items()})
            three = +one
            one.update({card: n * shared for card, n in run_rest.items()})
            if one - have or three - have:
                continue
            points = ((houses - shared) * (mv.roundhouse or 0) + shared * mv.roundhouse_with_run
                      + _most(class_one, have - one) + _most(class_two, have)
                      + _most(class_three, have - three))
            best = max(best, points)
    return best


# Faces that meld, hearts in full for runs; hands drawn as a count per face, mostly 1 or 2.
MELD_FACES = [Card(s, r) for s in Suit for r in Rank if s is Suit.HEARTS or r is not Rank.TEN]
VARIANTS = [
    BISON, BROOKLYN, RACEHORSE, FAMILY, CLASSIC3, roundhouse_option(BISON, 390),
    roundhouse_option(BROOKLYN, 350), st_joseph(BISON), st_joseph(roundhouse_option(BISON, 350)),
]


def meld_hands(most: int) -> st.SearchStrategy[list[Card]]:
    """A count of each face in MELD_FACES: any count, or (half the time) at least one."""
    def hands(counts: st.SearchStrategy[int]) -> st.SearchStrategy[list[Card]]:
        return st.lists(counts, min_size=len(MELD_FACES), max_size=len(MELD_FACES)).map(
            lambda ns: [card for card, n in zip(MELD_FACES, ns, strict=True) for _ in range(n)])
    return st.one_of(hands(st.integers(0, most)), hands(st.integers(1, most)))


@settings(max_examples=300, deadline=None)
@given(rules=st.sampled_from(VARIANTS), hand=meld_hands(2), trump=st.sampled_from([H, H, S]))
def test_best_meld_is_the_exhaustive_maximum(rules: Rules, hand: list[Card], trump: Suit) -> None:
    """On meld-rich hands best_meld equals a brute-force search, and its melds fit the hand
    with each card once per class."""
    result = best_meld(hand, trump, rules)
    assert result.total == reference_best(hand, trump, rules)
    assert result.total == sum(m.points for m in result.melds)
    assert not Counter(result.cards) - Counter(hand)


@settings(max_examples=100, deadline=None)
@given(hand=meld_hands(4), trump=st.sampled_from([H, S]))
def test_double_deck_hands_match_the_exhaustive_maximum(hand: list[Card], trump: Suit) -> None:
    """Up to four copies of a face (the 80-card deck), against the brute force."""
    result = best_meld(hand, trump, DOUBLE_DECK)
    assert result.total == reference_best(hand, trump, DOUBLE_DECK)
    assert not Counter(result.cards) - Counter(hand)


@settings(max_examples=50, deadline=None)
@given(rng=st.randoms(use_true_random=False), trump=st.sampled_from(list(Suit)))
def test_dealt_double_deck_hands_match_the_exhaustive_maximum(
    rng: random.Random, trump: Suit,
) -> None:
    """Twenty cards dealt from the shuffled 80-card deck, against the brute force."""
    hand = rng.sample(pinochle_deck(4, nines=False), 20)
    assert best_meld(hand, trump, DOUBLE_DECK).total == reference_best(hand, trump, DOUBLE_DECK)
