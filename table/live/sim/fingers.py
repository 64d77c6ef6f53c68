"""A simulated player's hands on the table's inputs: the seat buttons, or the page."""

from __future__ import annotations

from firmware_bridge.language import BID, PASS, taps_to_bid
from firmware_bridge.presser import PinPresser
from firmware_bridge.simboard import SimulatedBoard
from table.rules import (
    ALL_SUITS,
    BidMade,
    Conceded,
    Event,
    Game,
    Passed,
    PushedToDealer,
    TrumpNamed,
)

from ..phone import Phone
from .answers import PlayersStuck


class Fingers:
    """Presses a seat's buttons: on mock GPIO pins (`presser`) or the simulated board; even
    seats use the pins and odd seats the board when both are there; with neither, the phone."""

    def __init__(self, presser: PinPresser | None, board: SimulatedBoard | None,
                 phone: Phone) -> None:
        self.presser = presser
        self.board = board
        self.phone = phone

    def channel(self, seat: int) -> str:
        if self.presser is not None and (seat % 2 == 0 or self.board is None):
            return "gpio"
        if self.board is not None:
            return "serial"
        return "web"

    def press(self, seat: int, button: str, hold: bool = False) -> None:
        if self.presser is not None and self.channel(seat) == "gpio":
            self.presser.press(seat, button, hold=hold)
        elif self.board is not None:
            self.board.press(seat, button, hold=hold)
        else:
            raise PlayersStuck(f"seat {seat} has no button to press {button} on")

    def speak(self, event: Event, game: Game) -> None:
        """Say `event` (a bid, pass, push, trump or concession) the way this seat can."""
        seat: int = vars(event)["seat"]
        if self.channel(seat) == "web":
            self._on_page(event)
            return
        if isinstance(event, BidMade):
            taps = taps_to_bid(game, seat, event.amount)
            if taps is None:
                raise PlayersStuck(f"{event.amount} cannot be reached with the BID button")
            for _ in range(taps):
                self.press(seat, BID)
            self.press(seat, BID, hold=True)
        elif isinstance(event, Passed | PushedToDealer):
            self.press(seat, PASS)
        elif isinstance(event, TrumpNamed):
            for _ in range(ALL_SUITS.index(event.suit) + 1):
                self.press(seat, BID)
            self.press(seat, BID, hold=True)
        elif isinstance(event, Conceded):
            self.press(seat, PASS, hold=True)
        else:
            raise PlayersStuck(f"no button says {event.describe()}")

    def _on_page(self, event: Event) -> None:
        seat: int = vars(event)["seat"]
        if isinstance(event, BidMade):
            self.phone.post("/api/bid", {"seat": seat, "amount": event.amount})
        elif isinstance(event, Passed):
            self.phone.post("/api/pass", {"seat": seat})
        elif isinstance(event, TrumpNamed):
            self.phone.post("/api/trump", {"seat": seat, "suit": str(event.suit)})
        elif isinstance(event, Conceded):
            self.phone.post("/api/concede", {"seat": seat})
        else:
            self.phone.event(event)
