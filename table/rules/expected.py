"""What the game expects next, as one small frozen value (`Game.expected()`).

The page, the buttons, the keeper of face-down moves and the camera feed ask it instead of
working the rules out again; `Game` builds it beside the handlers that enforce the same rules.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .events import Buried, CardsPassed
from .phase import Phase


class Buttons(enum.Enum):
    """What a seat's BID and PASS buttons mean now."""

    WAIT = "wait"        # no hand in progress: wait for the deal
    BID = "bid"          # the auction: BID raises, PASS passes
    TRUMP = "trump"      # the declarer names trump with BID; a held PASS concedes
    PUSH = "push"        # as TRUMP, and a PASS tap pushes the bid to the dealer
    CONCEDE = "concede"  # after trump, before the lead: only a held PASS (a concession)
    PLAY = "play"        # the cards are read by the camera; a held PASS concedes
    OVER = "over"        # the game is over


@dataclass(frozen=True)
class Due:
    """A move a seat owes: `count` cards (to `to_seat`, for a pass)."""

    seat: int
    count: int = 0
    to_seat: int | None = None


@dataclass(frozen=True)
class Expected:
    """Who may do what now. Empty fields: not called for in this position."""

    phase: Phase
    buttons: Buttons
    turn: int | None = None
    dealer: int | None = None             # who deals next, while a deal is awaited
    bids: tuple[int, ...] = ()            # the next legal bids of the seat to speak (none: pass)
    forced_bid: int | None = None         # what that seat must bid (it may not pass)
    push: Due | None = None               # the 300 bidder may push to the dealer (to_seat)
    kitty: Due | None = None              # the declarer shows the kitty
    bury: Due | None = None               # the declarer buries
    passing: Due | None = None            # the partners' next pass of cards
    meld: tuple[int, ...] = ()            # the seats that may show meld
    play: int | None = None               # the seat to play a card
    lead: bool = False                    # ... and whether it leads the trick
    gather: bool = False                  # a finished trick lies on the mat
    draw: Due | None = None               # two-handed: whose turn at the stock (count: left)
    piles: tuple[int, ...] = ()           # two-handed: discard piles still to be shown
    claim: tuple[int, ...] = ()           # the seats that may claim the rest now
    agree: tuple[int, ...] = ()           # one of these must agree with the hand's result
    face_down: Buried | CardsPassed | None = None  # the unseen move owed (hidden hands)
