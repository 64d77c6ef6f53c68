"""The hand in progress as a value, in parts: the auction (auction.py), the contract, the meld
and the play, beside the phase, the turn and the cards.

Every part is immutable and changed by `replace` with the fields named (mypy checks them);
`Game` (game.py) applies the rules and builds the next hand from these parts.
"""

from __future__ import annotations

from typing import Final

from .auction import NO_BIDS, Auction
from .cards import Card, Suit
from .events import Event
from .meld import MeldResult
from .phase import Phase
from .reneges import Play, Renege
from .scoring import HandResult
from .seats import active_seats
from .standing import Standing
from .values import KEEP, Keep, Value


class Contract(Value):
    """What the auction settled and the declarer's choices after it: the bid, trump, the kitty
    taken, the bury and the partners' passes."""

    FIELDS = ("declarer", "bid", "trump", "kitty_shown", "buried", "bury_done", "passes")
    __slots__ = FIELDS

    def __init__(
        self,
        declarer: int | None,
        bid: int | None,
        trump: Suit | None,
        kitty_shown: bool,
        buried: tuple[Card, ...] | None,
        bury_done: bool,
        passes: tuple[tuple[int, int, tuple[Card, ...] | None], ...],
    ) -> None:
        self.declarer: Final = declarer
        self.bid: Final = bid
        self.trump: Final = trump
        self.kitty_shown: Final = kitty_shown
        self.buried: Final = buried  # None: not buried, or buried face down
        self.bury_done: Final = bury_done
        self.passes: Final = passes  # (from, to, cards)

    def replace(
        self,
        *,
        declarer: int | Keep | None = KEEP,
        bid: int | Keep | None = KEEP,
        trump: Suit | Keep | None = KEEP,
        kitty_shown: bool | Keep = KEEP,
        buried: tuple[Card, ...] | Keep | None = KEEP,
        bury_done: bool | Keep = KEEP,
        passes: tuple[tuple[int, int, tuple[Card, ...] | None], ...] | Keep = KEEP,
    ) -> Contract:
        """This contract with the fields given changed."""
        return Contract(
            self.declarer if declarer is KEEP else declarer,
            self.bid if bid is KEEP else bid,
            self.trump if trump is KEEP else trump,
            self.kitty_shown if kitty_shown is KEEP else kitty_shown,
            self.buried if buried is KEEP else buried,
            self.bury_done if bury_done is KEEP else bury_done,
            self.passes if passes is KEEP else passes,
        )


class Melds(Value):
    """The meld each seat has shown: its score and the cards laid on the table."""

    FIELDS = ("shown", "cards")
    __slots__ = FIELDS

    def __init__(
        self,
        shown: tuple[MeldResult | None, ...],
        cards: tuple[tuple[Card, ...], ...],
    ) -> None:
        self.shown: Final = shown  # per seat, None until shown
        self.cards: Final = cards  # per seat

    def with_meld(self, seat: int, result: MeldResult, cards: tuple[Card, ...]) -> Melds:
        """These melds once `seat` shows `cards`, scoring `result`."""
        return Melds(
            self.shown[:seat] + (result,) + self.shown[seat + 1 :],
            self.cards[:seat] + (cards,) + self.cards[seat + 1 :],
        )

    def replace(
        self,
        *,
        shown: tuple[MeldResult | None, ...] | Keep = KEEP,
        cards: tuple[tuple[Card, ...], ...] | Keep = KEEP,
    ) -> Melds:
        """This melds with the fields given changed."""
        return Melds(self.shown if shown is KEEP else shown, self.cards if cards is KEEP else cards)


class TrickPlay(Value):
    """The play of the cards: the trick on the table, the tricks gathered and what each seat
    took, every card played (for the renege proofs) and the two-handed discard piles."""

    FIELDS = (
        "trick",
        "tricks",
        "taken",
        "counters",
        "won_tricks",
        "plays",
        "reneges",
        "discards",
    )
    __slots__ = FIELDS

    def __init__(
        self,
        trick: tuple[tuple[int, Card], ...],
        tricks: tuple[tuple[tuple[int, Card], ...], ...],
        taken: tuple[int, ...],
        counters: tuple[int, ...],
        won_tricks: tuple[int, ...],
        plays: tuple[Play, ...],
        reneges: tuple[Renege, ...],
        discards: tuple[tuple[Card, ...] | None, ...],
    ) -> None:
        self.trick: Final = trick  # (seat, card) in the order played
        self.tricks: Final = tricks  # the complete tricks
        self.taken: Final = taken  # card points taken, per seat
        self.counters: Final = counters  # counters taken, per seat
        self.won_tricks: Final = won_tricks  # tricks won, per seat
        self.plays: Final = plays
        self.reneges: Final = reneges
        self.discards: Final = discards  # two-handed: each seat's discard pile, once shown

    def replace(
        self,
        *,
        trick: tuple[tuple[int, Card], ...] | Keep = KEEP,
        tricks: tuple[tuple[tuple[int, Card], ...], ...] | Keep = KEEP,
        taken: tuple[int, ...] | Keep = KEEP,
        counters: tuple[int, ...] | Keep = KEEP,
        won_tricks: tuple[int, ...] | Keep = KEEP,
        plays: tuple[Play, ...] | Keep = KEEP,
        reneges: tuple[Renege, ...] | Keep = KEEP,
        discards: tuple[tuple[Card, ...] | None, ...] | Keep = KEEP,
    ) -> TrickPlay:
        """This trickplay with the fields given changed."""
        return TrickPlay(
            self.trick if trick is KEEP else trick,
            self.tricks if tricks is KEEP else tricks,
            self.taken if taken is KEEP else taken,
            self.counters if counters is KEEP else counters,
            self.won_tricks if won_tricks is KEEP else won_tricks,
            self.plays if plays is KEEP else plays,
            self.reneges if reneges is KEEP else reneges,
            self.discards if discards is KEEP else discards,
        )


class Hand(Value):
    """The hand in progress: the phase and whose turn, the cards where known, and its parts
    (auction, contract, meld, play), with the standing it was dealt from and its moves."""

    FIELDS = (
        "phase",
        "turn",
        "active",
        "hands",
        "kitty",
        "opening",
        "auction",
        "contract",
        "melds",
        "play",
        "conceded",
        "result",
        "events",
    )
    __slots__ = FIELDS

    def __init__(
        self,
        phase: Phase,
        turn: int | None,
        active: tuple[int, ...],
        hands: tuple[tuple[Card, ...], ...] | None,
        kitty: tuple[Card, ...] | None,
        opening: Standing,
        auction: Auction,
        contract: Contract,
        melds: Melds,
        play: TrickPlay,
        conceded: bool,
        result: HandResult | None,
        events: tuple[Event, ...],
    ) -> None:
        self.phase: Final = phase
        self.turn: Final = turn
        self.active: Final = active  # the seats dealt in
        self.hands: Final = hands  # known hands (simulation), else None
        self.kitty: Final = kitty
        self.opening: Final = opening  # the standing the hand was dealt from
        self.auction: Final = auction
        self.contract: Final = contract
        self.melds: Final = melds
        self.play: Final = play
        self.conceded: Final = conceded
        self.result: Final = result
        self.events: Final = events  # the moves of the hand

    @property
    def trick_full(self) -> bool:
        """Whether the trick on the table is complete (every seat dealt in has played to it),
        waiting to be gathered."""
        return len(self.play.trick) == len(self.active)

    def with_play(
        self,
        turn: int | None,
        hands: tuple[tuple[Card, ...], ...] | None,
        play: TrickPlay,
        events: tuple[Event, ...],
    ) -> Hand:
        """This hand once a card is played or a trick gathered (the one copy the play makes)."""
        return Hand(
            self.phase,
            turn,
            self.active,
            hands,
            self.kitty,
            self.opening,
            self.auction,
            self.contract,
            self.melds,
            play,
            self.conceded,
            self.result,
            events,
        )

    def at(self, phase: Phase, turn: int | None) -> Hand:
        """This hand in `phase` with `turn` to act."""
        return Hand(phase, turn, self.active, self.hands, self.kitty, self.opening, self.auction,
                    self.contract, self.melds, self.play, self.conceded, self.result, self.events)

    def with_auction(self, turn: int | None, auction: Auction) -> Hand:
        """This hand once a seat has spoken: the `auction` and the seat to speak next."""
        return Hand(self.phase, turn, self.active, self.hands, self.kitty, self.opening, auction,
                    self.contract, self.melds, self.play, self.conceded, self.result, self.events)

    def with_contract(self, contract: Contract) -> Hand:
        return Hand(self.phase, self.turn, self.active, self.hands, self.kitty, self.opening,
                    self.auction, contract, self.melds, self.play, self.conceded, self.result,
                    self.events)

    def with_event(self, event: Event) -> Hand:
        """This hand with `event` recorded as its last move."""
        return Hand(
            self.phase,
            self.turn,
            self.active,
            self.hands,
            self.kitty,
            self.opening,
            self.auction,
            self.contract,
            self.melds,
            self.play,
            self.conceded,
            self.result,
            self.events + (event,),
        )

    def replace(
        self,
        *,
        phase: Phase | Keep = KEEP,
        turn: int | Keep | None = KEEP,
        active: tuple[int, ...] | Keep = KEEP,
        hands: tuple[tuple[Card, ...], ...] | Keep | None = KEEP,
        kitty: tuple[Card, ...] | Keep | None = KEEP,
        opening: Standing | Keep = KEEP,
        auction: Auction | Keep = KEEP,
        contract: Contract | Keep = KEEP,
        melds: Melds | Keep = KEEP,
        play: TrickPlay | Keep = KEEP,
        conceded: bool | Keep = KEEP,
        result: HandResult | Keep | None = KEEP,
        events: tuple[Event, ...] | Keep = KEEP,
    ) -> Hand:
        """This hand with the fields given changed."""
        return Hand(
            self.phase if phase is KEEP else phase,
            self.turn if turn is KEEP else turn,
            self.active if active is KEEP else active,
            self.hands if hands is KEEP else hands,
            self.kitty if kitty is KEEP else kitty,
            self.opening if opening is KEEP else opening,
            self.auction if auction is KEEP else auction,
            self.contract if contract is KEEP else contract,
            self.melds if melds is KEEP else melds,
            self.play if play is KEEP else play,
            self.conceded if conceded is KEEP else conceded,
            self.result if result is KEEP else result,
            self.events if events is KEEP else events,
        )


def fresh_hand(standing: Standing) -> Hand:
    """The hand about to be dealt from `standing` (or none, once the game is won)."""
    n = standing.rules.table_seats
    zeros = (0,) * n
    return Hand(
        Phase.DEAL if standing.winner is None else Phase.GAME_OVER,
        None,
        active_seats(standing.rules, standing.dealer),
        None,
        None,
        standing,
        NO_BIDS,
        Contract(None, None, None, False, None, False, ()),
        Melds((None,) * n, ((),) * n),
        TrickPlay((), (), zeros, zeros, zeros, (), (), (None,) * n),
        False,
        None,
        (),
    )
