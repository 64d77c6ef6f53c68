"""What the page asks for, turned into table events (source "web").

Each function takes the JSON body of a request and the game as it stands, and returns the event
to hand to the session, or raises `ActionError` with the HTTP status and a message a player can
act on. Seats are numbers from 0 in seat order (as in the state), or names.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from table.json_limits import MAX_DEPTH, too_deep
from table.rules import (
    PRESET_NAMES,
    BidMade,
    Buried,
    Card,
    CardParseError,
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
    OptionError,
    Passed,
    PushedToDealer,
    Rules,
    StockDrawn,
    Suit,
    TrickGathered,
    TrumpNamed,
    Undone,
    UnknownPresetError,
    event_from_dict,
    in_effect,
    next_game_dealer,
    preset,
    with_options,
)
from table.rules.domains import DOMAINS, OneOf, Range
from table.rules.game import Game

from .guard import whole_number

SOURCE = "web"
NAME_LONGEST = 24


class ActionError(Exception):
    """A request the table cannot take as it is: `status` (4xx) and a message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _web(event: Event) -> Event:
    return dataclasses.replace(event, source=SOURCE, at=0.0)


def _int(body: Mapping[str, Any], key: str, what: str) -> int:
    value = body.get(key)
    if isinstance(value, str) and whole_number(value) is not None:
        value = whole_number(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ActionError(400, f"give {what} as a whole number in {key!r}")
    return value


def _seat(body: Mapping[str, Any], game: Game, default: int | None, what: str) -> int:
    value = body.get("seat")
    names = game.names
    if value is None:
        if default is None:
            raise ActionError(400, f"say whose {what} it is: 'seat' (0..{len(names) - 1}) "
                                   "or a name")
        return default
    if isinstance(value, str) and value in names:
        return names.index(value)
    if isinstance(value, str) and whole_number(value) is not None:
        value = whole_number(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < len(names):
        raise ActionError(400, f"no seat {value!r} at this table; seats are 0..{len(names) - 1}"
                               f" ({', '.join(names)})")
    return value


def _card(text: Any) -> Card:
    if not isinstance(text, str):
        raise ActionError(400, "give the card as text, like 'QS' or '10H'")
    try:
        return Card.parse(text)
    except CardParseError as exc:
        raise ActionError(400, f"{exc}; write cards like 'QS', '10H' or 'A♦'") from None


def _cards(value: Any, what: str) -> tuple[Card, ...]:
    """A list of cards (["AS", "10H"]) or the same as text ("AS 10H"); [] is no cards."""
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    if not isinstance(value, list):
        raise ActionError(400, f"give {what} as a list of cards, like [\"AS\", \"10H\", "
                               "\"QD\"]")
    return tuple(_card(v) for v in value)


def _face_down(body: Mapping[str, Any], what: str) -> tuple[Card, ...] | None:
    """The cards of a bury or pass when someone saw them, else None (face down, unseen)."""
    value = body.get("cards")
    return None if value is None else _cards(value, what)


def _suit(text: Any) -> Suit:
    if not isinstance(text, str):
        raise ActionError(400, "give the suit as text: S, H, D or C")
    try:
        return Suit.parse(text)
    except ValueError:
        raise ActionError(400, f"not a suit: {text!r}; use S, H, D or C") from None


def bid(body: Mapping[str, Any], game: Game) -> Event:
    return BidMade(seat=_seat(body, game, game.turn, "bid"),
                   amount=_int(body, "amount", "the bid"), source=SOURCE)


def pass_(body: Mapping[str, Any], game: Game) -> Event:
    return Passed(seat=_seat(body, game, game.turn, "pass"), source=SOURCE)


def trump(body: Mapping[str, Any], game: Game) -> Event:
    return TrumpNamed(seat=_seat(body, game, game.declarer, "trump"),
                      suit=_suit(body.get("suit")), source=SOURCE)


def _yes(body: Mapping[str, Any], key: str, default: bool | None = None) -> bool:
    value = body.get(key, default)
    if not isinstance(value, bool):
        raise ActionError(400, f"say {key!r}: true or false")
    return value


def concede(body: Mapping[str, Any], game: Game) -> Event:
    """The declaring side gives up; `agreed`: everybody agrees to throw the hand in (002:
    "unless everybody agrees"), so `agree` must name every player."""
    seat = _seat(body, game, game.declarer, "concession")
    agreed = _yes(body, "agreed", False)
    if agreed:
        given = body.get("agree")
        if not isinstance(given, list):
            raise ActionError(400, "a throw-in by agreement lists who agreed: 'agree', every "
                                   "player's seat or name")
        agreeing = {_seat({"seat": s}, game, None, "agreement") for s in given}
        missing = [game.names[s] for s in game.active if s not in agreeing]
        if missing:
            raise ActionError(400, f"everybody must agree to throw the hand in: "
                                   f"{' and '.join(missing)} did not")
    return Conceded(seat=seat, agreed=agreed, source=SOURCE)


def draw(body: Mapping[str, Any], game: Game) -> Event:
    """Two-handed: the seat to draw kept the top card (`keep`: true) or rejected it; `kept`
    and `discarded` name the cards where the player enters his own draw."""
    kept = body.get("kept")
    discarded = body.get("discarded")
    return StockDrawn(seat=_seat(body, game, game.turn, "draw"), kept_first=_yes(body, "keep"),
                      kept=None if kept is None else _card(kept),
                      discarded=None if discarded is None else _card(discarded), source=SOURCE)


def claim(body: Mapping[str, Any], game: Game) -> Event:
    """A seat claims the rest of the hand for its side (`lost`: the declaring side
    acknowledges defeat instead). The seat is always named."""
    return Claimed(seat=_seat(body, game, None, "claim"), lost=_yes(body, "lost", False),
                   source=SOURCE)


def deal(body: Mapping[str, Any], game: Game) -> Event:
    dealer = body.get("dealer", game.next_dealer)
    if dealer is None:
        raise ActionError(409, "the hand in progress is not finished, so no new deal")
    return HandDealt(dealer=_seat({"seat": dealer}, game, None, "deal"), source=SOURCE)


def play(body: Mapping[str, Any], game: Game) -> Event:
    """A card laid on the mat. The seat is always named, so that a phone showing an older
    position cannot give the card to whoever plays next."""
    return CardPlayed(seat=_seat(body, game, None, "card"), card=_card(body.get("card")),
                      source=SOURCE)


def kitty(body: Mapping[str, Any], game: Game) -> Event:
    if "cards" not in body:
        raise ActionError(400, f"say which cards the kitty holds: 'cards', like "
                               f"[\"AS\", \"10H\", \"QD\"] ({game.rules.kitty_size} of them)")
    return KittyShown(cards=_cards(body["cards"], "the kitty"), source=SOURCE)


def meld(body: Mapping[str, Any], game: Game) -> Event:
    """What a seat lays down; no cards is "no meld"."""
    if "cards" not in body:
        raise ActionError(400, "say which cards the seat melds: 'cards', like [\"KS\", "
                               "\"QS\"], or [] for no meld")
    return MeldShown(seat=_seat(body, game, None, "meld"),
                     cards=_cards(body["cards"], "the meld"), source=SOURCE)


def bury(body: Mapping[str, Any], game: Game) -> Event:
    """The declarer's bury, face down unless `cards` says what was buried."""
    return Buried(seat=_seat(body, game, game.declarer, "bury"),
                  cards=_face_down(body, "the buried cards"), source=SOURCE)


def pass_cards(body: Mapping[str, Any], game: Game) -> Event:
    """Cards passed between partners (face down unless `cards` is given); from and to default
    to the pass that is due."""
    due = game.expected().passing
    if due is None and "seat" not in body:
        raise ActionError(409, "no pass of cards is due now (partners pass after trump is "
                               "named, in variants that pass)")
    seat = _seat(body, game, due.seat if due else None, "pass of cards")
    to = body.get("to_seat", due.to_seat if due and seat == due.seat else None)
    if to is None:
        raise ActionError(400, "say who receives the cards: 'to_seat'")
    return CardsPassed(seat=seat, to_seat=_seat({"seat": to}, game, None, "pass of cards"),
                       cards=_face_down(body, "the passed cards"), source=SOURCE)


def gather(body: Mapping[str, Any], game: Game) -> Event:
    return TrickGathered(source=SOURCE)


def push(body: Mapping[str, Any], game: Game) -> Event:
    """Brooklyn: the 300 bidder pushes the bid to the dealer."""
    due = game.expected().push
    bidder = due.seat if due is not None else game.declarer
    if bidder is None and "seat" not in body:
        raise ActionError(409, "there is no bid to push: the auction is not over")
    return PushedToDealer(seat=_seat(body, game, bidder, "push"), source=SOURCE)


def agree(body: Mapping[str, Any], game: Game) -> Event:
    """A player of the side that did not take the bid agrees with the hand's result."""
    return HandAgreed(seat=_seat(body, game, None, "agreement"), source=SOURCE)


def undo(body: Mapping[str, Any], game: Game) -> Event:
    """Take back move number `target` (the page sends the last move's number, so a double tap
    or a second phone cannot take back a second move)."""
    return Undone(target=_int(body, "target", "the number of the move to undo (the last "
                                              "move's number)"), source=SOURCE)


def correct(body: Mapping[str, Any], game: Game, accepted: Sequence[tuple[int, Event]]
            ) -> Event:
    """Replace move number `target`: by `card` (a misread card, same seat), `amount` (a bid),
    `suit` (trump), or a whole `replacement` event."""
    target = _int(body, "target", "the number of the move to correct")
    current = dict(in_effect(accepted)).get(target)
    if current is None:
        raise ActionError(409, f"move #{target} is not in effect (undone, or no such move), "
                               "so it cannot be corrected")
    if "replacement" in body:
        replacement = event(body["replacement"])
    elif "card" in body and isinstance(current, CardPlayed):
        replacement = dataclasses.replace(current, card=_card(body["card"]))
    elif "amount" in body and isinstance(current, BidMade):
        replacement = dataclasses.replace(current, amount=_int(body, "amount", "the bid"))
    elif "suit" in body and isinstance(current, TrumpNamed):
        replacement = dataclasses.replace(current, suit=_suit(body["suit"]))
    else:
        raise ActionError(400, f"say what move #{target} should have been: 'card' for a "
                               "card, 'amount' for a bid, 'suit' for trump, or a whole "
                               "'replacement' event")
    return Corrected(target=target, replacement=_web(replacement), source=SOURCE)


def event(data: Any) -> Event:
    """Any table event written as JSON (as the journal and `pinochle-table resume` take it)."""
    if not isinstance(data, dict):
        raise ActionError(400, "send the event as a JSON object with its 'type'")
    if too_deep(data):
        raise ActionError(400, f"the event is nested more than {MAX_DEPTH} levels deep")
    try:
        return _web(event_from_dict(data))
    except (EventFormatError, ValueError) as exc:
        raise ActionError(400, str(exc)) from None


def chosen_card(card_text: Any, candidates: Sequence[str]) -> Card:
    """The card tapped among those the camera was unsure between."""
    card = _card(card_text)
    if str(card) not in candidates:
        raise ActionError(400, f"pick one of the cards shown: {' or '.join(candidates)}")
    return card


def confirm_card(card_text: Any, candidates: Sequence[str], seat: int | None,
                 guessed: int | None, accepted: Sequence[tuple[int, Event]]) -> Event | None:
    """The event that settles an unsure card: the play itself, or a correction of the
    camera's guess (entry `guessed`); None when the guess was already right."""
    card = chosen_card(card_text, candidates)
    if guessed is not None:
        current = dict(in_effect(accepted)).get(guessed)
        if isinstance(current, CardPlayed):
            if current.card == card:
                return None
            return Corrected(target=guessed, replacement=_web(
                dataclasses.replace(current, card=card)), source=SOURCE)
    if seat is None:
        raise ActionError(409, "the camera did not say whose card this is; correct the move "
                               "in the list instead")
    return CardPlayed(seat=seat, card=card, source=SOURCE)


# The options the new-game form offers as fields (others go in its "more options" line).
FORM_OPTIONS = {"target": "Game to", "min_bid": "Lowest bid", "bid_step": "Bids go up by",
                "deals": "Deals (0: to the target)", "agree_hands": "Others agree (1: yes)"}


def option_fields(rules: Rules) -> list[dict[str, Any]]:
    """The form's fields for `rules`: each option's name, label, the preset's value and the
    values its domain allows (table/rules/domains.py, which the server checks again)."""
    out: list[dict[str, Any]] = []
    for name, label in FORM_OPTIONS.items():
        domain = DOMAINS.get(name)
        field: dict[str, Any] = {"name": name, "label": label, "value": getattr(rules, name)}
        if isinstance(domain, Range):
            field.update(min=domain.low, max=domain.high)
        elif isinstance(domain, OneOf):
            field.update(min=min(domain.values), max=max(domain.values))
        out.append(field)
    return out


def new_game(body: Mapping[str, Any], previous: Game | None = None
             ) -> tuple[Rules, list[str], int]:
    """The rules, seat names and first dealer of a game to start. Without a `dealer`, the
    same players starting the same variant again after `previous` was won follow its rule
    for the next game's first dealer (000: the winner deals)."""
    name = body.get("preset")
    try:
        rules = preset(name) if isinstance(name, str) else None
    except UnknownPresetError:
        rules = None
    if rules is None:
        raise ActionError(400, f"choose the game: 'preset' is one of {', '.join(PRESET_NAMES)}")
    options = body.get("options") or {}
    if not isinstance(options, dict):
        raise ActionError(400, "'options' maps rule names to values, like {\"min_bid\": 300}")
    try:
        rules = with_options(rules, {str(k): str(v) for k, v in options.items()})
    except OptionError as exc:
        raise ActionError(400, str(exc)) from None
    names = body.get("names")
    seats = rules.table_seats
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ActionError(400, f"'names' lists the {seats} players clockwise")
    names = [n.strip() for n in names]
    if len(names) != seats:
        raise ActionError(400, f"{rules.name} is played by {seats} seats: give {seats} names, "
                               f"not {len(names)}")
    if any(not n for n in names):
        raise ActionError(400, "every seat needs a name")
    if any(len(n) > NAME_LONGEST for n in names):
        raise ActionError(400, f"keep names to {NAME_LONGEST} letters")
    if len(set(names)) != len(names):
        raise ActionError(400, "give each seat a different name")
    follows = previous is not None and previous.rules == rules and \
        list(previous.names) == names
    first = next_game_dealer(previous) if previous is not None and follows else None
    dealer = body.get("dealer", 0 if first is None else first)
    if isinstance(dealer, str) and dealer in names:
        dealer = names.index(dealer)
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < seats:
        raise ActionError(400, f"'dealer' is a seat 0..{seats - 1} or a name")
    return rules, names, dealer
