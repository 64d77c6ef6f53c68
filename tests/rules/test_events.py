"""Table events: to_dict / event_from_dict round trips through JSON, and malformed input."""

from __future__ import annotations

import json
from typing import Any

import pytest

from table.rules import (
    EVENT_TYPES,
    BidMade,
    Buried,
    Card,
    CardPlayed,
    CardsPassed,
    Claimed,
    Conceded,
    Corrected,
    Event,
    EventFormatError,
    HandAgreed,
    HandDealt,
    KittyShown,
    MeldShown,
    Passed,
    PushedToDealer,
    StockDrawn,
    Suit,
    ThrownIn,
    TrickGathered,
    TrumpNamed,
    Undone,
    event_from_dict,
    parse_cards,
)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


SAMPLES: list[Event] = [
    HandDealt(dealer=2, source="sim", at=1.5),
    HandDealt(dealer=0, hands=(cards("AS 10S"), cards("KH QH"), cards("9C JD")),
              kitty=cards("AD 9S QC")),
    StockDrawn(seat=1, kept_first=True),
    StockDrawn(seat=0, kept_first=False, kept=parse_cards("AS")[0], discarded=None),
    ThrownIn(seat=1, reason="five nines"),
    BidMade(seat=0, amount=250, source="gpio", at=1700000000.25),
    Passed(seat=2, source="serial"),
    PushedToDealer(seat=0),
    KittyShown(cards=cards("AH 9D QS"), source="camera"),
    TrumpNamed(seat=1, suit=Suit.HEARTS, source="web"),
    Buried(seat=1),
    Buried(seat=1, cards=cards("10S 10S AC")),
    CardsPassed(seat=0, to_seat=2),
    CardsPassed(seat=2, to_seat=0, cards=cards("AS AS 10H")),
    MeldShown(seat=2, cards=cards("QS JD QH QC QD")),
    Conceded(seat=0),
    Conceded(seat=3, agreed=True),
    CardPlayed(seat=1, card=parse_cards("10♥")[0], source="camera", at=12.0),
    Claimed(seat=2),
    Claimed(seat=0, lost=True, source="web"),
    TrickGathered(),
    HandAgreed(seat=1, source="web"),
    Corrected(target=7, replacement=CardPlayed(seat=1, card=parse_cards("KH")[0]), source="web"),
    Corrected(target=3, replacement=Corrected(target=2, replacement=Passed(seat=0))),
    Undone(source="cli"),
]


def test_every_event_type_has_a_sample() -> None:
    assert {type(e).__name__ for e in SAMPLES} == set(EVENT_TYPES)


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: type(e).__name__)
def test_round_trip_through_json(event: Event) -> None:
    data = json.loads(json.dumps(event.to_dict()))
    assert data["type"] == type(event).__name__
    back = event_from_dict(data)
    assert back == event and type(back) is type(event)


def test_cards_and_suits_are_written_as_text() -> None:
    data = CardPlayed(seat=1, card=parse_cards("10H")[0]).to_dict()
    assert data == {"type": "CardPlayed", "source": "", "at": 0.0, "seat": 1, "card": "10H"}
    assert TrumpNamed(seat=0, suit=Suit.SPADES).to_dict()["suit"] == "S"
    assert KittyShown(cards=cards("AS 9D")).to_dict()["cards"] == ["AS", "9D"]
    played = event_from_dict({"type": "CardPlayed", "seat": 0, "card": "a♠"})
    assert played.to_dict()["card"] == "AS"


def test_describe_names_the_fields() -> None:
    assert BidMade(seat=1, amount=250).describe() == "BidMade seat=1 amount=250"
    assert KittyShown(cards=cards("AS 9D")).describe() == "KittyShown cards=[AS 9D]"


@pytest.mark.parametrize(("data", "words"), [
    ([1, 2], "must be an object"),
    ({"seat": 1}, "unknown event type None"),
    ({"type": "Shuffled"}, "unknown event type 'Shuffled'"),
    ({"type": "BidMade", "seat": 1}, "BidMade needs 'amount'"),
    ({"type": "BidMade", "seat": 1, "amount": "250"}, "BidMade.amount"),
    ({"type": "BidMade", "seat": True, "amount": 250}, "BidMade.seat"),
    ({"type": "BidMade", "seat": 1, "amount": 250, "bid": 3}, "no field 'bid'"),
    ({"type": "CardPlayed", "seat": 1, "card": "ZZ"}, "'ZZ'"),
    ({"type": "CardPlayed", "seat": 1, "card": 12}, "CardPlayed.card"),
    ({"type": "TrumpNamed", "seat": 1, "suit": "X"}, "'X'"),
    ({"type": "KittyShown", "cards": "AS 9D"}, "expected a list"),
    ({"type": "Passed", "seat": 1, "at": "noon"}, "Passed.at"),
    ({"type": "Conceded", "seat": 1, "agreed": 1}, "Conceded.agreed"),
    ({"type": "StockDrawn", "seat": 1}, "StockDrawn needs 'kept_first'"),
    ({"type": "Passed", "seat": 1, "source": 5}, "Passed.source"),
    ({"type": "Corrected", "target": 1, "replacement": {"type": "Nope"}}, "'Nope'"),
])
def test_malformed_events_are_refused_saying_why(data: Any, words: str) -> None:
    with pytest.raises(EventFormatError) as info:
        event_from_dict(data)
    assert isinstance(info.value, ValueError)
    assert words in str(info.value)
