"""The standing of a game between hands: scores, money, the dealer, the hands played.

A `Standing` is what a deal starts from; `Game` holds it beside the hand in progress (hand.py),
and the hand keeps the standing it was dealt from, so the notation can write the hand as that
standing and its moves.
"""

from __future__ import annotations

from typing import Final

from .scoring import HandResult
from .values import KEEP, Keep, Value
from .variants import Rules


class Standing(Value):
    """The game between hands: what the deal starts from.

    Scores, money and checks are per table seat (partners carry their side's figure)."""

    FIELDS = (
        "rules",
        "names",
        "scores",
        "ledger",
        "checks",
        "sets",
        "pot",
        "target",
        "dealer",
        "hand_number",
        "deals_done",
        "winner",
        "bidders_only",
        "history",
    )
    __slots__ = FIELDS

    def __init__(
        self,
        rules: Rules,
        names: tuple[str, ...],
        scores: tuple[int, ...],
        ledger: tuple[int, ...],
        checks: tuple[int, ...],
        sets: tuple[int, ...],
        pot: int,
        target: int,
        dealer: int,
        hand_number: int,
        deals_done: int,
        winner: int | None,
        bidders_only: frozenset[int] | None,
        history: tuple[HandResult, ...],
    ) -> None:
        self.rules: Final = rules
        self.names: Final = names
        self.scores: Final = scores
        self.ledger: Final = ledger  # money won and lost (stakes, pot)
        self.checks: Final = checks
        self.sets: Final = sets  # hands set (the set-count variants)
        self.pot: Final = pot
        self.target: Final = target  # the score that wins (raised by a tie)
        self.dealer: Final = dealer
        self.hand_number: Final = hand_number  # hands dealt so far
        self.deals_done: Final = deals_done  # hands scored so far
        self.winner: Final = winner
        self.bidders_only: Final = bidders_only  # the tied players of a tie-break hand
        self.history: Final = history  # the results of the hands before

    def replace(
        self,
        *,
        rules: Rules | Keep = KEEP,
        names: tuple[str, ...] | Keep = KEEP,
        scores: tuple[int, ...] | Keep = KEEP,
        ledger: tuple[int, ...] | Keep = KEEP,
        checks: tuple[int, ...] | Keep = KEEP,
        sets: tuple[int, ...] | Keep = KEEP,
        pot: int | Keep = KEEP,
        target: int | Keep = KEEP,
        dealer: int | Keep = KEEP,
        hand_number: int | Keep = KEEP,
        deals_done: int | Keep = KEEP,
        winner: int | Keep | None = KEEP,
        bidders_only: frozenset[int] | Keep | None = KEEP,
        history: tuple[HandResult, ...] | Keep = KEEP,
    ) -> Standing:
        """This standing with the fields given changed."""
        return Standing(
            self.rules if rules is KEEP else rules,
            self.names if names is KEEP else names,
            self.scores if scores is KEEP else scores,
            self.ledger if ledger is KEEP else ledger,
            self.checks if checks is KEEP else checks,
            self.sets if sets is KEEP else sets,
            self.pot if pot is KEEP else pot,
            self.target if target is KEEP else target,
            self.dealer if dealer is KEEP else dealer,
            self.hand_number if hand_number is KEEP else hand_number,
            self.deals_done if deals_done is KEEP else deals_done,
            self.winner if winner is KEEP else winner,
            self.bidders_only if bidders_only is KEEP else bidders_only,
            self.history if history is KEEP else history,
        )

    def _key(self) -> tuple[object, ...]:
        # the past hands' results are a record, like python-chess's move stack: two standings
        # that score, deal and go on alike are equal however they came about
        return tuple([getattr(self, f) for f in self.FIELDS if f != "history"])
