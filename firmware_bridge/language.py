"""The button language: what a press means at this moment of the game.

A seat has two buttons, BID and PASS; the table has UNDO. A press is a TAP or a long press
(HOLD). What they do:

- auction, your turn: each BID tap raises your bid to the next legal one (forbidden endings
  skipped); taps within the raise window keep raising, and the bid goes in when you stop.
  A long BID press puts the pending bid in at once. PASS passes, or, while a raise is pending,
  takes the raise back.
- Brooklyn, a 300 opening passed out: PASS pushes it to the dealer at 250; choosing trump with
  BID keeps it.
- naming trump, the declarer: each BID tap shows the next suit (spades, hearts, clubs,
  diamonds) on the suit lights; a long BID press names the suit shown. PASS takes the choice
  back. A long PASS press concedes (the voluntary set, the throw-in).
- until the first lead: a long PASS press concedes for the declaring side.
- two-handed, drawing from the stock (004): the seat at the stock presses BID to keep the card
  it drew (the next goes face down to its discard pile) or PASS to reject it (it must keep the
  next); a tap or a long press alike. `Game.expected().draw` says when and whose turn it is.
- UNDO takes back the last accepted event (and drops any choice still pending).

A press out of turn is not dropped: it is sent as what it would mean and the game refuses it
(the players hear the buzzer). A press that means nothing now is answered by the buzzer too.

Pure: times are passed in, and the game is only read.
"""

from __future__ import annotations

from dataclasses import dataclass

from table.rules import (
    ALL_SUITS,
    BidMade,
    Conceded,
    Event,
    Passed,
    PushedToDealer,
    StockDrawn,
    Suit,
    TrumpNamed,
    Undone,
)
from table.rules.expected import Buttons

from .firmware.buttons import HOLD, TAP
from .ports import GameView

BID = "BID"
PASS = "PASS"
UNDO = "UNDO"
BUTTONS = (BID, PASS, UNDO)
GESTURES = (TAP, HOLD)
CHOOSING_TRUMP = (Buttons.PUSH, Buttons.TRUMP)


@dataclass(frozen=True)
class Press:
    seat: int | None  # None: the table's UNDO
    button: str
    gesture: str
    source: str       # "gpio", "serial"
    at: float         # seconds, on the monotonic clock
    wall: float       # seconds since the epoch, stamped on the event


@dataclass(frozen=True)
class Pending:
    """A choice a seat is making: a bid being raised, or a trump suit being shown."""

    seat: int
    bid: int | None = None
    suit: Suit | None = None
    commit_at: float | None = None  # a raised bid goes in by itself at this time
    source: str = ""

    def describe(self, names: tuple[str, ...] | None = None) -> str:
        who = names[self.seat] if names and self.seat < len(names) else f"seat {self.seat + 1}"
        if self.bid is not None:
            return f"{who} is bidding {self.bid}"
        return f"{who} is choosing {self.suit.word if self.suit else 'a suit'} for trump"


@dataclass(frozen=True)
class Submit:
    event: Event
    seat: int | None


@dataclass(frozen=True)
class Refuse:
    """Answered here with the buzzer: the press means nothing at this moment."""

    seat: int | None
    reason: str


Action = Submit | Refuse


class ButtonLanguage:
    """Turns presses into events (or refusals), keeping each seat's choice in progress."""

    def __init__(self, raise_window: float) -> None:
        self.raise_window = raise_window
        self.pending: dict[int, Pending] = {}

    def press(self, p: Press, game: GameView) -> list[Action]:
        if p.button == UNDO:
            self.pending.clear()
            return [Submit(Undone(source=p.source, at=p.wall), None)]
        if p.seat is None or p.button not in (BID, PASS) or p.gesture not in GESTURES:
            return [Refuse(p.seat, f"unknown button {p.button} {p.gesture}")]
        expected = game.expected()
        if expected.draw is not None:
            return self._draw(p)
        buttons = expected.buttons
        if buttons is Buttons.BID:
            return self._auction(p, game)
        if buttons in CHOOSING_TRUMP:
            return self._trump(p, game, buttons)
        if buttons is Buttons.CONCEDE:
            return self._concede_only(p, "nothing to choose with BID now")
        if buttons is Buttons.PLAY:
            return self._concede_only(p, "the play has begun: cards are read by the camera")
        return [Refuse(p.seat, "wait for the deal" if buttons is Buttons.WAIT
                       else "the game is over")]

    def tick(self, now: float, wall: float) -> list[Action]:
        """Raised bids whose window has passed go in."""
        actions: list[Action] = []
        for seat, pending in list(self.pending.items()):
            if pending.commit_at is not None and now >= pending.commit_at:
                del self.pending[seat]
                actions.append(self._bid(seat, pending.bid or 0, pending.source, wall))
        return actions

    def deadline(self) -> float | None:
        times = [p.commit_at for p in self.pending.values() if p.commit_at is not None]
        return min(times) if times else None

    def forget_stale(self, game: GameView) -> bool:
        """Drop choices of seats whose turn it no longer is (after an undo, say)."""
        buttons = game.expected().buttons
        stale = [seat for seat, p in self.pending.items()
                 if game.turn != seat
                 or (p.bid is not None and buttons is not Buttons.BID)
                 or (p.suit is not None and buttons not in CHOOSING_TRUMP)]
        for seat in stale:
            del self.pending[seat]
        return bool(stale)

    # -- the phases -------------------------------------------------------------------------

    def _auction(self, p: Press, game: GameView) -> list[Action]:
        assert p.seat is not None
        pending = self.pending.get(p.seat)
        if p.button == PASS:
            if pending is not None and p.gesture == TAP:
                del self.pending[p.seat]  # the raise is taken back; nothing was said yet
                return []
            self.pending.pop(p.seat, None)
            return [Submit(Passed(seat=p.seat, source=p.source, at=p.wall), p.seat)]
        if p.gesture == HOLD:
            amount = pending.bid if pending and pending.bid else next_raise(game, p.seat, None)
            self.pending.pop(p.seat, None)
            return [self._bid(p.seat, amount, p.source, p.wall)]
        if game.turn != p.seat:
            return [self._bid(p.seat, next_raise(game, p.seat, None), p.source, p.wall)]
        amount = next_raise(game, p.seat, pending.bid if pending else None)
        self.pending[p.seat] = Pending(p.seat, bid=amount, commit_at=p.at + self.raise_window,
                                       source=p.source)
        return []

    def _trump(self, p: Press, game: GameView, buttons: Buttons) -> list[Action]:
        assert p.seat is not None
        pending = self.pending.get(p.seat)
        if p.button == PASS:
            if pending is not None and p.gesture == TAP:
                del self.pending[p.seat]
                return []
            if buttons is Buttons.PUSH and p.gesture == TAP:
                return [Submit(PushedToDealer(seat=p.seat, source=p.source, at=p.wall), p.seat)]
            if p.gesture == HOLD:
                self.pending.pop(p.seat, None)
                return [Submit(Conceded(seat=p.seat, source=p.source, at=p.wall), p.seat)]
            return [Refuse(p.seat, "hold PASS to concede; choose trump with BID")]
        if game.turn != p.seat:  # sent as meant: the game refuses it
            return [Submit(TrumpNamed(seat=p.seat, suit=ALL_SUITS[0], source=p.source,
                                      at=p.wall), p.seat)]
        if p.gesture == HOLD:
            if pending is None or pending.suit is None:
                return [Refuse(p.seat, "tap BID to show a suit, then hold BID to name it")]
            del self.pending[p.seat]
            return [Submit(TrumpNamed(seat=p.seat, suit=pending.suit, source=p.source,
                                      at=p.wall), p.seat)]
        suit = _next_suit(pending.suit if pending else None)
        self.pending[p.seat] = Pending(p.seat, suit=suit, source=p.source)
        return []

    @staticmethod
    def _draw(p: Press) -> list[Action]:
        """Keep (BID) or reject (PASS) the card just drawn; out of turn, the game refuses it."""
        assert p.seat is not None
        return [Submit(StockDrawn(seat=p.seat, kept_first=p.button == BID, source=p.source,
                                  at=p.wall), p.seat)]

    def _concede_only(self, p: Press, why: str) -> list[Action]:
        assert p.seat is not None
        if p.button == PASS and p.gesture == HOLD:
            return [Submit(Conceded(seat=p.seat, source=p.source, at=p.wall), p.seat)]
        return [Refuse(p.seat, why if p.button == BID else "hold PASS to concede")]

    @staticmethod
    def _bid(seat: int, amount: int, source: str, wall: float) -> Submit:
        return Submit(BidMade(seat=seat, amount=amount, source=source, at=wall), seat)


def next_raise(game: GameView, seat: int, pending: int | None) -> int:
    """The next bid for `seat`: the lowest legal one, or one step above its pending bid."""
    rules, high = game.rules, game.high_bid
    lowest = rules.next_bid(high)
    if pending is None:
        expected = game.expected()
        forced = expected.forced_bid if expected.turn == seat else None
        if forced is not None and forced < lowest:
            return forced  # a forced dealer may take it one under the minimum (004)
        return int(lowest)
    if pending < lowest:
        return int(lowest)
    return int(rules.next_bid(high, above=pending))


def _next_suit(suit: Suit | None) -> Suit:
    if suit is None:
        return ALL_SUITS[0]
    return ALL_SUITS[(ALL_SUITS.index(suit) + 1) % len(ALL_SUITS)]


def taps_to_bid(game: GameView, seat: int, amount: int, limit: int = 60) -> int | None:
    """How many BID taps take `seat` from nothing to `amount` (None: not on the way)."""
    pending: int | None = None
    for taps in range(1, limit + 1):
        pending = next_raise(game, seat, pending)
        if pending == amount:
            return taps
        if pending > amount:
            return None
    return None
