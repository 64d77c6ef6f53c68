"""Table events in the words a card player uses: "Cy played Q♠", "Bob bid 260"."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

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
    HandAgreed,
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
        case HandAgreed(seat=seat):
            return f"{who(seat)} agreed with the hand's result"
        case Corrected(target=target, replacement=replacement):
            return f"#{target} corrected: {describe(replacement, names)}"
        case Undone(target=target):
            return "undo" if target is None else f"undo #{target}"
    return event.describe()


# what a side must take for its meld to count (the rule option meld_saving)
SAVES_WITH = {"counter": "a counter", "point": "a point", "trick": "a trick",
              "counter-or-last": "a counter or the last trick"}


def together(names: Sequence[str]) -> str:
    """"Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def bid_words(view: Mapping[str, Any]) -> dict[str, str] | None:
    """The bid as it stands, in a card player's words, from the game's view (its `standing`):
    what the declaring side still needs, and what the others need to set it. Partnerships
    speak of the side, stakes games of what the bid is worth."""
    b = view.get("standing")
    if not b:
        return None
    names = view["names"]
    side = [names[s] for s in sorted(b["side"])]
    others = [names[s] for s in sorted(b["others"])]
    pair = view["partnerships"]
    who = " & ".join(side) if pair else names[b["declarer"]]
    them = " & ".join(others) if pair else together(others)
    plural = pair or len(side) > 1
    bid = b["bid"]
    parts = [f"meld {b['meld']}", f"{b['taken']} taken"]
    if b["buried"]:
        parts.append(f"{b['buried']} buried")
    so_far = " + ".join(parts)
    take = SAVES_WITH.get(b["meld_saving"], "what saves it")
    unsaved = not b["meld_saved"] and b["meld"] > 0
    if unsaved:
        so_far += f"; the meld counts once {who} {'take' if plural else 'takes'} {take}"
    if b["made"]:
        mine = f"{who} {'have' if plural else 'has'} made {bid} ({so_far})"
        theirs = f"{them} can no longer set it"
    elif b["to_set"] == 0:
        mine = f"{who} can no longer make {bid} ({so_far})"
        theirs = f"{them} {'have' if len(others) > 1 else 'has'} set it"
    elif b["needs"] == 0:  # enough, once the meld is saved
        mine = f"{who} {'make' if plural else 'makes'} {bid} on taking {take} ({so_far})"
        theirs = (f"{them} {'need' if len(others) > 1 else 'needs'} {b['to_set']} of the "
                  f"{b['still_out']} still out to set it")
    else:
        more = " from the play and the bury" if b["buried"] is None else ""
        mine = (f"{who} {'need' if plural else 'needs'} {b['needs']} more to make {bid}{more}"
                f" ({so_far})")
        theirs = (f"{them} {'need' if len(others) > 1 else 'needs'} {b['to_set']} of the "
                  f"{b['still_out']} still out to set it")
    if b["win_each"]:
        mine += (f"; made, each pays {who} {b['win_each']}; set, {who} pays each "
                 f"{b['set_each']}")
    return {"declarer": mine, "others": theirs}
