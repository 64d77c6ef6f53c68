"""Table events: every input (camera, button, serial board, web page) becomes one of these.

Events are small frozen values. Each carries where it came from (`source`: "camera",
"gpio", "serial", "web", "sim", "cli" ...) and when (`at`, seconds since the epoch, stamped by
the adapter: the rules core never reads a clock). `to_dict`/`from_dict` give the journal's JSON
form, with cards written as text ("AS", "10H").
"""

from __future__ import annotations

import dataclasses
import types
from dataclasses import dataclass
from typing import Any, Union, get_args, get_origin, get_type_hints

from .cards import Card, Suit


class EventFormatError(ValueError):
    """A dict or JSON object that is not a well-formed event."""


@dataclass(frozen=True, kw_only=True)
class Event:
    """Base of all table events."""

    source: str = ""
    at: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": type(self).__name__}
        for f in dataclasses.fields(self):
            out[f.name] = _encode(getattr(self, f.name))
        return out

    def describe(self) -> str:
        """A short line for logs: `BidMade seat=1 amount=250`."""
        parts = [f"{f.name}={_text(getattr(self, f.name))}" for f in dataclasses.fields(self)
                 if f.name not in ("source", "at")]
        return " ".join([type(self).__name__, *parts])


# -- the deal ------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class HandDealt(Event):
    """A new hand is dealt by `dealer`. `hands` (per seat, in seat order) and `kitty` are known
    only in simulation and tests; on a real table they are None (the deal is only marked)."""

    dealer: int
    hands: tuple[tuple[Card, ...], ...] | None = None
    kitty: tuple[Card, ...] | None = None


@dataclass(frozen=True, kw_only=True)
class ThrownIn(Event):
    """The hand is thrown in before the auction ends (nine-count, all agree)."""

    seat: int
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class StockDrawn(Event):
    """Two-handed (004): `seat` draws the top card of the stock and keeps it (`kept_first`;
    the next card goes face down, unseen, to his discard pile) or rejects it to the discard
    pile and must keep the next. `kept` and `discarded` are the cards where someone saw them
    (simulation, tests, a player entering his own draw); None on a real table."""

    seat: int
    kept_first: bool
    kept: Card | None = None
    discarded: Card | None = None


# -- the auction ---------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class BidMade(Event):
    seat: int
    amount: int


@dataclass(frozen=True, kw_only=True)
class Passed(Event):
    seat: int


@dataclass(frozen=True, kw_only=True)
class PushedToDealer(Event):
    """001: after a 300 opening and two passes the bidder makes the dealer take it at 250."""

    seat: int


# -- kitty, trump, bury, pass, meld -----------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class KittyShown(Event):
    cards: tuple[Card, ...]


@dataclass(frozen=True, kw_only=True)
class TrumpNamed(Event):
    seat: int
    suit: Suit


@dataclass(frozen=True, kw_only=True)
class Buried(Event):
    """The declarer's discards. `cards` is None when they go face down unseen."""

    seat: int
    cards: tuple[Card, ...] | None = None


@dataclass(frozen=True, kw_only=True)
class CardsPassed(Event):
    """Cards passed between partners (002). `cards` is None when passed face down unseen."""

    seat: int
    to_seat: int
    cards: tuple[Card, ...] | None = None


@dataclass(frozen=True, kw_only=True)
class MeldShown(Event):
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, kw_only=True)
class Conceded(Event):
    """The declaring side gives up (throw-in, voluntary set, concede unseen). `agreed`: every
    player agrees to throw the hand in (002, where the bid could still be made)."""

    seat: int
    agreed: bool = False


# -- the play ------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class CardPlayed(Event):
    seat: int
    card: Card


@dataclass(frozen=True, kw_only=True)
class Claimed(Event):
    """`seat` claims the rest of the hand for its side and play stops; with `lost`, the
    declaring side acknowledges defeat instead (001 pot version)."""

    seat: int
    lost: bool = False


@dataclass(frozen=True, kw_only=True)
class TrickGathered(Event):
    """The cards of the finished trick are taken off the mat."""


@dataclass(frozen=True, kw_only=True)
class HandAgreed(Event):
    """A player of the side that did not take the bid agrees with the hand's result (rule
    option `agree_hands`): only then is it final and may the next hand be dealt."""

    seat: int


# -- corrections -----------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class Corrected(Event):
    """Replace the accepted event numbered `target` (its journal number) by `replacement`:
    the state afterwards is as if the replacement had come instead."""

    target: int
    replacement: Event


@dataclass(frozen=True, kw_only=True)
class Undone(Event):
    """Take back the last accepted event that is still in effect. `target` names its journal
    number when the sender knows it (the page does), so that a double tap, or two phones fixing
    the same mistake, takes back one move and not two; None takes back whatever is last."""

    target: int | None = None


EVENT_TYPES: dict[str, type[Event]] = {
    cls.__name__: cls
    for cls in (HandDealt, StockDrawn, ThrownIn, BidMade, Passed, PushedToDealer, KittyShown,
                TrumpNamed, Buried, CardsPassed, MeldShown, Conceded, CardPlayed, Claimed,
                TrickGathered, HandAgreed, Corrected, Undone)
}


def event_from_dict(data: dict[str, Any]) -> Event:
    """The inverse of `Event.to_dict`; raises `EventFormatError` naming what is wrong."""
    if not isinstance(data, dict):
        raise EventFormatError(f"an event must be an object, not {data!r}")
    name = data.get("type")
    cls = EVENT_TYPES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise EventFormatError(
            f"unknown event type {name!r}; known: {', '.join(EVENT_TYPES)}")
    hints = get_type_hints(cls)
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name not in data:
            if f.default is dataclasses.MISSING:
                raise EventFormatError(f"{name} needs {f.name!r}")
            continue
        try:
            kwargs[f.name] = _decode(data[f.name], hints[f.name])
        except (ValueError, TypeError) as exc:
            raise EventFormatError(f"{name}.{f.name}: {exc}") from None
    extra = set(data) - {"type"} - {f.name for f in dataclasses.fields(cls)}
    if extra:
        raise EventFormatError(f"{name} has no field {sorted(extra)[0]!r}")
    return cls(**kwargs)


def _encode(value: Any) -> Any:
    if isinstance(value, Card | Suit):
        return str(value)
    if isinstance(value, Event):
        return value.to_dict()
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    return value


def _text(value: Any) -> str:
    if isinstance(value, tuple):
        return "[" + " ".join(_text(v) for v in value) + "]"
    if isinstance(value, Event):
        return "(" + value.describe() + ")"
    return str(value)


def _decode(value: Any, hint: Any) -> Any:
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        args = get_args(hint)
        if value is None and type(None) in args:
            return None
        (inner,) = [a for a in args if a is not type(None)]
        return _decode(value, inner)
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise TypeError(f"expected a list, got {value!r}")
        args = get_args(hint)
        inner = args[0]
        return tuple(_decode(v, inner) for v in value)
    if hint is Card:
        if isinstance(value, Card):
            return value
        if not isinstance(value, str):
            raise TypeError(f"expected a card like 'AS', got {value!r}")
        return Card.parse(value)
    if hint is Suit:
        if isinstance(value, Suit):
            return value
        if not isinstance(value, str):
            raise TypeError(f"expected a suit like 'S', got {value!r}")
        return Suit.parse(value)
    if hint is Event:
        if isinstance(value, Event):
            return value
        return event_from_dict(value)
    if hint is bool:
        if not isinstance(value, bool):
            raise TypeError(f"expected true or false, got {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"expected a whole number, got {value!r}")
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise TypeError(f"expected a number, got {value!r}")
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise TypeError(f"expected text, got {value!r}")
        return value
    raise TypeError(f"cannot read {value!r} as {hint!r}")


__all__ = [
    "EVENT_TYPES", "BidMade", "Buried", "CardPlayed", "CardsPassed", "Claimed", "Conceded",
    "Corrected", "Event", "EventFormatError", "HandAgreed", "HandDealt", "KittyShown",
    "MeldShown", "Passed", "PushedToDealer", "StockDrawn", "ThrownIn", "TrickGathered",
    "TrumpNamed", "Undone", "event_from_dict",
]
