"""Legal plays, play errors, trick winners and card points, from the rule texts."""

from __future__ import annotations

from dataclasses import replace

import pytest

from table.rules import (
    CLASSICAL,
    COUNTERS,
    COUNTERS_TENTHS,
    SIMPLIFIED,
    Beat,
    Card,
    PlayError,
    Rules,
    Suit,
    card_points,
    legal_plays,
    parse_cards,
    play_error,
    preset,
    trick_winner,
)

S, H, C, D = Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS
BISON = preset("bison")
BISON_NEWER = replace(BISON, beat=Beat.TRUMP_LED)
BROOKLYN = preset("brooklyn")
RACEHORSE = preset("racehorse")
FAMILY = preset("family")
CLASSIC3 = preset("classic3")


def legal(hand: str, trick: str, trump: Suit, rules: Rules, first_lead: bool = False) -> str:
    """The legal plays as text, in hand order."""
    plays = legal_plays(parse_cards(hand), parse_cards(trick), trump, rules, first_lead)
    return " ".join(str(c) for c in plays)


def error(card: str, hand: str, trick: str, trump: Suit, rules: Rules,
          first_lead: bool = False) -> PlayError | None:
    return play_error(Card.parse(card), parse_cards(hand), parse_cards(trick), trump, rules,
                      first_lead)


# -- 000_4a0caaf70a615e09.txt: the older rule (bison) ------------------------------------------

def test_bison_must_follow_suit_and_kill() -> None:
    """000: follow suit; kill (play higher than the cards already played) if you can."""
    assert legal("AS 9S KH 9C", "KS", H, BISON) == "AS"
    assert legal("AS 9S KH 9C", "QS 10S", H, BISON) == "AS"


def test_bison_follows_suit_when_it_cannot_kill() -> None:
    """000: if you cannot kill, you still have to follow suit."""
    assert legal("QS 9S KH 9C", "KS", H, BISON) == "QS 9S"
    err = error("KH", "QS 9S KH 9C", "KS", H, BISON)
    assert err is not None and err.rule == "follow suit" and err.text == "must follow spades"
    assert err.witness == Card.parse("QS")


def test_bison_a_follower_cannot_kill_a_trumped_trick() -> None:
    """000: a trick is won by a trump if any was played; a card of the suit led cannot head it."""
    assert legal("AS 9S KH", "KS 9H", H, BISON) == "AS 9S"


def test_bison_void_must_trump_even_a_lower_trump() -> None:
    """000: void in the suit led you must trump, even if your trumps are all lower than a trump
    already played; with a higher one you must kill with it."""
    assert legal("9H JH 9C", "KS AH", H, BISON) == "9H JH"
    assert legal("9H AH 9C", "KS JH", H, BISON) == "AH"
    err = error("9C", "9H JH 9C", "KS AH", H, BISON)
    assert err is not None and (err.rule, err.text) == ("trump", "must trump")
    err = error("9H", "9H AH 9C", "KS JH", H, BISON)
    assert err is not None and err.rule == "overtrump"
    assert err.text == "must overtrump the jack of hearts" and err.witness == Card.parse("AH")


def test_bison_void_in_both_may_slough_anything() -> None:
    """000: no card of the suit led and no trump: slough any card."""
    assert legal("9C KD 9C", "KS", H, BISON) == "9C KD"


def test_bison_must_kill_in_trump_led() -> None:
    """000: trump led, a higher trump must be played when held."""
    assert legal("9H AH KS", "10H", H, BISON) == "AH"
    err = error("9H", "9H AH KS", "10H", H, BISON)
    assert err is not None and (err.rule, err.text) == ("beat", "must beat the ten of hearts")


def test_a_second_identical_card_does_not_kill() -> None:
    """000: of two identical cards the first played ranks higher, so the second cannot kill."""
    assert legal("KS 9S", "KS", H, BISON) == "KS 9S"
    assert trick_winner(parse_cards("KS KS 9S"), H) == 0
    assert trick_winner(parse_cards("9S KS KS"), H) == 1


def test_a_slough_never_wins() -> None:
    """000: slough cards have no power: a trick is won only by the suit led or a trump."""
    assert trick_winner(parse_cards("9S AD AC"), H) == 0
    assert trick_winner(parse_cards("9S AD 9H"), H) == 2
    assert trick_winner(parse_cards("9S AH 10H"), H) == 1


def test_bison_newer_rule_beats_only_in_trump() -> None:
    """000 variation (the newer rule): follow with a lower card when a plain suit is led, and
    the third player is free to play a higher or lower trump than the second."""
    assert legal("AS 9S", "KS", H, BISON_NEWER) == "AS 9S"
    assert legal("9H AH 9C", "KS JH", H, BISON_NEWER) == "9H AH"
    assert legal("9H AH KS", "10H", H, BISON_NEWER) == "AH"


# -- 001_7d1bfbefdb2935db.txt (brooklyn) ------------------------------------------------------

def test_brooklyn_play_restrictions() -> None:
    """001: follow suit; void, play a trump; neither, any card; beat the highest trump only
    when trump was led; a third player trumping need not beat the second player's trump."""
    assert legal("AC 9C 10D", "KC", S, BROOKLYN) == "AC 9C"
    assert legal("QS 9D", "KC", S, BROOKLYN) == "QS"
    assert legal("9D 10D 9D", "KC", S, BROOKLYN) == "9D 10D"
    assert legal("9S AS 9D", "KC 10S", S, BROOKLYN) == "9S AS"
    assert legal("9S AS 9D", "KS", S, BROOKLYN) == "AS"
    assert legal("9S QS 9D", "KS AS", S, BROOKLYN) == "9S QS"


def test_brooklyn_identical_cards() -> None:
    """001: if two identical cards are played the first ranks higher."""
    assert trick_winner(parse_cards("AC AC"), S) == 0


# -- 002_8c758d5a15c0b8ad.txt (racehorse) -----------------------------------------------------

def test_racehorse_worked_example() -> None:
    """002: hearts trump, Q♦ led and J♥ played. With A♦ 10♥ J♥ 9♣ you must play the A♦
    (following comes before winning). Without diamonds you must take it with the 10♥. With
    only the J♥ (which cannot beat the first J♥) you may slough the 9♣. A heart lead takes
    the J♥."""
    trick = "Q♦ J♥"
    assert legal("A♦ 10♥ J♥ 9♣", trick, H, RACEHORSE) == "AD"
    err = error("10♥", "A♦ 10♥ J♥ 9♣", trick, H, RACEHORSE)
    assert err is not None and err.rule == "follow suit" and err.text == "must follow diamonds"
    assert legal("10♥ J♥ 9♣", trick, H, RACEHORSE) == "10H"
    err = error("9♣", "10♥ J♥ 9♣", trick, H, RACEHORSE)
    assert err is not None and err.rule == "win" and err.witness == Card.parse("10H")
    assert err.text == "must take the trick by beating the jack of hearts"
    assert legal("J♥ 9♣", trick, H, RACEHORSE) == "JH 9C"
    assert legal("J♥ 9♣", "Q♥", H, RACEHORSE) == "JH"


def test_racehorse_must_take_the_trick_in_suit() -> None:
    """002: you must take the trick if you can, with a card of the suit led."""
    assert legal("KD 9D AS", "QD", H, RACEHORSE) == "KD"
    assert legal("KD 9D AS", "QD AD", H, RACEHORSE) == "KD 9D"
    err = error("9D", "KD 9D AS", "QD", H, RACEHORSE)
    assert err is not None and err.rule == "win" and err.witness == Card.parse("KD")


def test_racehorse_void_in_trump_led_plays_anything() -> None:
    """002: void in a trump lead, no card can win: any card."""
    assert legal("KD 9S", "QH", H, RACEHORSE) == "KD 9S"


# -- 003_1722af295058f19b.txt (family) --------------------------------------------------------

def test_family_first_lead_must_be_trump() -> None:
    """003: the first card played must be in trump; later leads are free."""
    assert legal("AS 9H KD", "", H, FAMILY, first_lead=True) == "9H"
    err = error("AS", "AS 9H KD", "", H, FAMILY, first_lead=True)
    assert err is not None and (err.rule, err.text) == ("lead trump", "must lead trump")
    assert err.witness == Card.parse("9H")
    assert legal("AS 9H KD", "", H, FAMILY) == "AS 9H KD"


def test_family_first_lead_without_trump_is_free() -> None:
    """003: a leader without trump cannot lead one: any card (our reading)."""
    assert legal("AS KD", "", H, FAMILY, first_lead=True) == "AS KD"


def test_family_beat_only_when_trump_led() -> None:
    """003: out of the suit led, trump; out of both, any card; play to win only when trump is
    led, not when trumping tricks in other suits; the first of two equal high cards wins."""
    assert legal("9S AS", "KS", H, FAMILY) == "9S AS"
    assert legal("9H KD", "KS", H, FAMILY) == "9H"
    assert legal("9H AH", "KS 10H", H, FAMILY) == "9H AH"
    assert legal("9H AH", "10H", H, FAMILY) == "AH"
    assert legal("9D KD", "KS", H, FAMILY) == "9D KD"
    assert trick_winner(parse_cards("QS AS AS"), H) == 1


# -- 004_04ff5920939269dd.txt (classic3) -------------------------------------------------------

def test_general_first_lead_is_trump() -> None:
    """004: the high bidder makes the first lead, which must be a trump."""
    assert legal("AS 9D 10D", "", D, CLASSIC3, first_lead=True) == "9D 10D"


def test_general_trump_king_led_needs_ten_or_ace() -> None:
    """004: if the trump king is led you must play the ten or ace; with neither, any trump;
    out of trump, any card."""
    assert legal("AD 10D 9D QS", "KD", D, CLASSIC3) == "AD 10D"
    assert legal("QD 9D QS", "KD", D, CLASSIC3) == "QD 9D"
    assert legal("QS JC", "KD", D, CLASSIC3) == "QS JC"


def test_general_overruff() -> None:
    """004: A leads clubs, B and C have no clubs: both must ruff, and C must overruff B."""
    assert legal("9D AD AS", "KC QD", D, CLASSIC3) == "AD"
    err = error("9D", "9D AD AS", "KC QD", D, CLASSIC3)
    assert err is not None and err.rule == "overtrump" and err.witness == Card.parse("AD")
    assert legal("9D JD AS", "KC QD", D, CLASSIC3) == "9D JD"
    assert legal("9D AS", "KC", D, CLASSIC3) == "9D"
    assert legal("AC 9C 9D", "KC QD", D, CLASSIC3) == "AC 9C"


# -- play_error and the rest of the interface ---------------------------------------------------

def test_a_card_not_held_is_an_error() -> None:
    err = error("AS", "KS QS", "", H, BISON)
    assert err == PlayError("not in hand", None, "has no ace of spades")
    assert str(err) == "has no ace of spades"


def test_legal_plays_lists_each_face_once_in_hand_order() -> None:
    assert legal("KS 9D KS 9D", "", H, BISON) == "KS 9D"
    assert legal("9S KS 9S AS AS", "QS", H, BISON) == "KS AS"


def test_an_empty_trick_has_no_winner() -> None:
    with pytest.raises(ValueError, match="empty trick"):
        trick_winner([], H)


def test_card_point_schemes() -> None:
    """000/002/004 counters, 001 and 004 classical, 004 simplified, 003 counters/10."""
    cards = parse_cards("AS 10S KS QS JS 9S")
    expected = {COUNTERS: 30, CLASSICAL: 30, SIMPLIFIED: 30, COUNTERS_TENTHS: 3}
    for scheme, points in expected.items():
        assert card_points(cards, replace(BISON, points=scheme)) == points, scheme.name
    assert card_points(parse_cards("AS KD QH JC"), BROOKLYN) == 11 + 4 + 3 + 2
    assert card_points(parse_cards("KD QH"), replace(BISON, points=SIMPLIFIED)) == 10
    assert card_points(parse_cards("QS JD 9H"), BISON) == 0


def test_every_suit_holds_60_points_in_every_method() -> None:
    """004: in each method there are 60 points in each suit, plus 10 for last: 250."""
    for scheme in (COUNTERS, CLASSICAL, SIMPLIFIED):
        rules = replace(BISON, points=scheme)
        for suit in Suit:
            suit_cards = [c for c in rules.deck() if c.suit is suit]
            assert card_points(suit_cards, rules) == 60
        assert card_points(rules.deck(), rules) + rules.points.last_trick == 250
