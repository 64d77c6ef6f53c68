"""Table events in the words a card player uses: "Cy played Q♠", "Bob bid 260"."""

from __future__ import annotations

from collections.abc import Sequence

from table.rules import (
    BidMade,
    Buried,
    Card,
    CardPlayed,
    CardsPassed,
    Claimed,
    Conceded,
    Corrected,
    Event,
    HandDealt,
    KittyShown,
    MeldShown,
    Passed,
    PushedToDealer,
    StockDrawn,
    ThrownIn,
    TrickGathered,
    TrumpNamed,
    Undone,
)


def card_text(card: Card) -> str:
    """`Q♠`, `10♥`."""
    return f"{card.rank}{card.suit.symbol}"


def cards_text(cards: Sequence[Card]) -> str:
    return " ".join(card_text(c) for c in cards)


def seat_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"


def describe(event: Event, names: Sequence[str]) -> str:
    """One short line for the page's list of moves."""
    def who(seat: int) -> str:
        return seat_name(names, seat)

    match event:
        case HandDealt(dealer=dealer):
            return f"{who(dealer)} dealt"
        case StockDrawn(seat=seat, kept_first=kept_first):  # what was drawn stays secret
            return f"{who(seat)} {'kept' if kept_first else 'rejected'} the top card"
        case ThrownIn(seat=seat, reason=reason):
            return f"{who(seat)} threw the hand in" + (f" ({reason})" if reason else "")
        case BidMade(seat=seat, amount=amount):
            return f"{who(seat)} bid {amount}"
        case Passed(seat=seat):
            return f"{who(seat)} passed"
        case PushedToDealer(seat=seat):
            return f"{who(seat)} pushed the bid to the dealer"
        case KittyShown(cards=cards):
            return f"kitty shown: {cards_text(cards)}"
        case TrumpNamed(seat=seat, suit=suit):
            return f"{who(seat)} named {suit.word} trump {suit.symbol}"
        # buried and passed cards are secret at the table, even when the camera saw them
        case Buried(seat=seat, cards=cards):
            return f"{who(seat)} buried" + (f" {len(cards)} cards" if cards else "")
        case CardsPassed(seat=seat, to_seat=to_seat, cards=cards):
            count = f" {len(cards)} cards" if cards else " cards"
            return f"{who(seat)} passed{count} to {who(to_seat)}"
        case MeldShown(seat=seat, cards=cards):
            return f"{who(seat)} melded {cards_text(cards)}"
        case Conceded(seat=seat, agreed=agreed):
            return f"{who(seat)} conceded" + (" (all agreed)" if agreed else "")
        case Claimed(seat=seat, lost=lost):
            return f"{who(seat)} " + ("acknowledged defeat" if lost else "claimed the rest")
        case CardPlayed(seat=seat, card=card):
            return f"{who(seat)} played {card_text(card)}"
        case TrickGathered():
            return "trick gathered"
        case Corrected(target=target, replacement=replacement):
            return f"#{target} corrected: {describe(replacement, names)}"
        case Undone(target=target):
            return "undo" if target is None else f"undo #{target}"
    return event.describe()
