"""The auction of a hand as a value: the bids spoken in turn, and what follows from them.

The high bid, the high bidder, who has passed and who has spoken are read from the bids, never
kept beside them. `Game` checks each bid against the rules (turn, forced bids, the next legal
amount) and hands the auction only what was said.
"""

from __future__ import annotations

from typing import Final

from .cards import Card
from .values import Value


class Auction(Value):
    """The bids of one hand, in the order spoken: `(seat, amount)`, amount None for a pass.

    `rounds` counts the complete rounds of bidding and `revealed` the kitty cards turned up
    between them (003's kitty-revealing auction). Immutable: `with_bid` and `with_revealed`
    return new values."""

    FIELDS = ("bids", "rounds", "revealed")
    __slots__ = FIELDS

    def __init__(
        self,
        bids: tuple[tuple[int, int | None], ...] = (),
        rounds: int = 0,
        revealed: tuple[Card, ...] = (),
    ) -> None:
        self.bids: Final = bids
        self.rounds: Final = rounds
        self.revealed: Final = revealed

    @property
    def high_bid(self) -> int | None:
        """The highest amount bid so far (each bid is above the last), or None."""
        for _, amount in reversed(self.bids):
            if amount is not None:
                return amount
        return None

    @property
    def high_bidder(self) -> int | None:
        """Who made the high bid, or None."""
        for seat, amount in reversed(self.bids):
            if amount is not None:
                return seat
        return None

    @property
    def passed(self) -> frozenset[int]:
        """The seats that have passed (a pass is final)."""
        return frozenset([seat for seat, amount in self.bids if amount is None])

    @property
    def spoke(self) -> frozenset[int]:
        """The seats that have bid or passed."""
        return frozenset([seat for seat, _ in self.bids])

    @property
    def amounts_bid(self) -> int:
        """How many bids (not passes) were made."""
        return sum([1 for _, amount in self.bids if amount is not None])

    def with_bid(self, seat: int, amount: int | None) -> Auction:
        """The auction once `seat` bids `amount` (None: passes)."""
        return Auction(self.bids + ((seat, amount),), self.rounds, self.revealed)

    def next_round(self) -> Auction:
        """The auction once the turn has come round the table again."""
        return Auction(self.bids, self.rounds + 1, self.revealed)

    def with_revealed(self, revealed: tuple[Card, ...]) -> Auction:
        return Auction(self.bids, self.rounds, revealed)


NO_BIDS: Final = Auction()
