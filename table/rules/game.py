"""The game as a state machine: `Game.apply(event)` returns the next position or raises
`IllegalAction` naming the rule broken and the position.

A `Game` is an immutable value. Hands are known (simulation, tests: `HandDealt` carries them,
and every play is checked at once) or hidden (a real table: only what is laid on the mat is
seen; turn order and card counts are checked at once, and a renege is proven as soon as a
later play shows the player held a card the rule required; see reneges.py).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import replace
from itertools import chain
from operator import add, itemgetter, le
from typing import Any, Final, NoReturn

from . import notation, scoring, view
from .auction import Auction
from .cards import ALL_CARDS, Card, Rank, Suit, index_of
from .claims import ClaimTooDeep, takes_every_trick
from .events import (
    BidMade,
    Buried,
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
from .expected import Buttons, Due, Expected
from .hand import Contract, Hand, TrickPlay, fresh_hand
from .meld import MeldResult, best_meld, card_counts
from .phase import Phase
from .reneges import Play, Renege, prove_reneges
from .scoring import HandResult
from .seats import default_names, partner_of, side_of
from .standing import Standing
from .tricks import card_points, is_legal_play, legal_plays, play_error, trick_winner
from .variants import AllPass, NineThrowIn, Rules, Scoring, WhoMelds


class IllegalAction(ValueError):
    """An event the rules do not allow now. `reason` is one sentence for the players."""

    def __init__(self, reason: str, position: str) -> None:
        super().__init__(f"{reason} in {position}")
        self.reason = reason
        self.position = position


def _remove(hand: tuple[Card, ...], cards: Sequence[Card]) -> tuple[Card, ...] | None:
    """`hand` less `cards` (as multisets), or None if some card is not in it."""
    rest = list(hand)
    for c in cards:
        i = index_of(rest, c)
        if i < 0:
            return None
        del rest[i]
    return tuple(rest)


class Game:
    """A position: `standing`, the game as the hand was dealt from it (scores, money, dealer,
    hands played; standing.py), and `hand`, the hand in progress (phase, turn, cards, and its
    auction, contract, meld and play; hand.py).

    Immutable: `apply` returns the next position, each handler building the parts it changes
    by their typed `replace`. The facts of the position are read from the parts: the few read
    on every event (`game.phase`, `game.turn`, `game.rules`, ...) are attributes copied when
    the position is made, the others properties (`game.high_bid`, `game.trick`, ...)."""

    __slots__ = ("standing", "hand", "rules", "phase", "turn", "hand_number", "active",
                 "declarer", "result")

    def __init__(self, standing: Standing, hand: Hand) -> None:
        self.standing: Final = standing
        self.hand: Final = hand
        # the facts read on nearly every event, copied from the parts as plain attributes (in
        # pure Python, which the Pi runs, a property costs several attribute reads)
        self.rules: Final[Rules] = standing.rules
        self.phase: Final[Phase] = hand.phase
        self.turn: Final[int | None] = hand.turn
        self.hand_number: Final[int] = standing.hand_number
        self.active: Final[tuple[int, ...]] = hand.active
        self.declarer: Final[int | None] = hand.contract.declarer
        self.result: Final[HandResult | None] = hand.result

    # -- construction ---------------------------------------------------------------------

    @classmethod
    def _new(cls, rules: Rules, names: Sequence[str], dealer: int) -> Game:
        n = rules.table_seats
        zeros = (0,) * n
        pot, ledger = 0, zeros
        if rules.scoring is Scoring.POT and rules.pot_ante:
            pot, ledger = rules.pot_ante * n, tuple(-rules.pot_ante for _ in range(n))
        return Game._dealt_from(Standing(rules, tuple(names), zeros, ledger, zeros, zeros, pot,
                                         rules.target, dealer, 0, 0, None, None, ()))

    @staticmethod
    def _dealt_from(standing: Standing) -> Game:
        """The position waiting for a deal from `standing`."""
        return Game(standing, fresh_hand(standing))

    # -- value semantics ------------------------------------------------------------------

    def position(self) -> str:
        """The compact notation of this position (see notation.py)."""
        return notation.position_text(self)

    @classmethod
    def parse(cls, text: str) -> Game:
        """The position written by `position()`."""
        head = notation.parse_header(text)
        try:
            g = new_game(head.rules, head.names, head.dealer)
        except ValueError as exc:
            raise notation.NotationError(f"not a position: {text!r}: {exc}") from None
        g = Game._dealt_from(head.standing(g.standing))
        for token in head.moves:
            g = g.apply(notation.parse_event(token, g.dealer))
        return g

    def __eq__(self, other: object) -> bool:
        """Two positions are equal when their standing, hand and moves are (where a move came
        from and when is not part of the position)."""
        if not isinstance(other, Game):
            return NotImplemented
        return (self.standing == other.standing and self.hand.replace(events=()) ==
                other.hand.replace(events=()) and _moves(self.events) == _moves(other.events))

    def __hash__(self) -> int:
        return hash((self.standing, len(self.hand.events), self.phase))

    def __repr__(self) -> str:
        return f"Game.parse({self.position()!r})"

    @property
    def start(self) -> Game:
        """The position this hand was dealt from."""
        return Game._dealt_from(self.hand.opening)

    # -- the standing, read from `standing` ---------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        return self.standing.names

    @property
    def scores(self) -> tuple[int, ...]:
        return self.standing.scores

    @property
    def ledger(self) -> tuple[int, ...]:
        return self.standing.ledger

    @property
    def checks(self) -> tuple[int, ...]:
        return self.standing.checks

    @property
    def sets(self) -> tuple[int, ...]:
        return self.standing.sets

    @property
    def pot(self) -> int:
        return self.standing.pot

    @property
    def target(self) -> int:
        return self.standing.target

    @property
    def dealer(self) -> int:
        return self.standing.dealer

    @property
    def deals_done(self) -> int:
        return self.standing.deals_done

    @property
    def winner(self) -> int | None:
        return self.standing.winner

    @property
    def bidders_only(self) -> frozenset[int] | None:
        return self.standing.bidders_only

    @property
    def history(self) -> tuple[HandResult, ...]:
        return self.standing.history

    # -- the hand, read from `hand` and its parts ----------------------------------------------

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...] | None:
        return self.hand.hands

    @property
    def kitty(self) -> tuple[Card, ...] | None:
        return self.hand.kitty

    @property
    def conceded(self) -> bool:
        return self.hand.conceded

    @property
    def events(self) -> tuple[Event, ...]:
        return self.hand.events

    @property
    def auction(self) -> Auction:
        return self.hand.auction

    @property
    def bids(self) -> tuple[tuple[int, int | None], ...]:
        return self.hand.auction.bids

    @property
    def high_bid(self) -> int | None:
        return self.hand.auction.high_bid

    @property
    def high_bidder(self) -> int | None:
        return self.hand.auction.high_bidder

    @property
    def passed(self) -> frozenset[int]:
        return self.hand.auction.passed

    @property
    def spoke(self) -> frozenset[int]:
        return self.hand.auction.spoke

    @property
    def rounds(self) -> int:
        return self.hand.auction.rounds

    @property
    def revealed(self) -> tuple[Card, ...]:
        return self.hand.auction.revealed

    @property
    def contract(self) -> Contract:
        return self.hand.contract

    @property
    def bid(self) -> int | None:
        return self.hand.contract.bid

    @property
    def trump(self) -> Suit | None:
        return self.hand.contract.trump

    @property
    def kitty_shown(self) -> bool:
        return self.hand.contract.kitty_shown

    @property
    def buried(self) -> tuple[Card, ...] | None:
        return self.hand.contract.buried

    @property
    def bury_done(self) -> bool:
        return self.hand.contract.bury_done

    @property
    def passes(self) -> tuple[tuple[int, int, tuple[Card, ...] | None], ...]:
        return self.hand.contract.passes

    @property
    def melds(self) -> tuple[MeldResult | None, ...]:
        return self.hand.melds.shown

    @property
    def meld_cards(self) -> tuple[tuple[Card, ...], ...]:
        return self.hand.melds.cards

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        return self.hand.play.trick

    @property
    def trick_full(self) -> bool:
        return self.hand.trick_full

    @property
    def tricks(self) -> tuple[tuple[tuple[int, Card], ...], ...]:
        return self.hand.play.tricks

    @property
    def taken(self) -> tuple[int, ...]:
        return self.hand.play.taken

    @property
    def counters(self) -> tuple[int, ...]:
        return self.hand.play.counters

    @property
    def won_tricks(self) -> tuple[int, ...]:
        return self.hand.play.won_tricks

    @property
    def plays(self) -> tuple[Play, ...]:
        return self.hand.play.plays

    @property
    def reneges(self) -> tuple[Renege, ...]:
        return self.hand.play.reneges

    @property
    def discards(self) -> tuple[tuple[Card, ...] | None, ...]:
        return self.hand.play.discards

    # -- typed replacement of one part ----------------------------------------------------------

    def _with_hand(self, hand: Hand) -> Game:
        return Game(self.standing, hand)

    def _at(self, phase: Phase, turn: int | None) -> Game:
        """This position with `phase` and `turn`."""
        return Game(self.standing, self.hand.at(phase, turn))

    def _to_turn(self, turn: int | None) -> Game:
        return Game(self.standing, self.hand.at(self.phase, turn))

    def _with_contract(self, contract: Contract) -> Game:
        return Game(self.standing, self.hand.with_contract(contract))

    def _with_play(self, play: TrickPlay) -> Game:
        return Game(self.standing, self.hand.replace(play=play))

    def _with_auction(self, auction: Auction) -> Game:
        return Game(self.standing, self.hand.with_auction(self.turn, auction))

    def _with_standing(self, standing: Standing) -> Game:
        return Game(standing, self.hand)

    # -- helpers ----------------------------------------------------------------------------

    @property
    def known(self) -> bool:
        """Whether every hand is known (simulation) rather than hidden (a real table)."""
        return self.hands is not None

    def name(self, seat: int) -> str:
        return self.names[seat]

    def side(self, seat: int) -> int:
        return side_of(self.rules, seat)

    def hand_of(self, seat: int) -> tuple[Card, ...] | None:
        """The cards `seat` holds now, where hands are known."""
        return None if self.hands is None else self.hands[seat]

    def _refuse(self, reason: str) -> IllegalAction:
        return IllegalAction(reason, self.position())

    def _next_active(self, seat: int) -> int:
        a = self.active
        return a[(a.index(seat) + 1) % len(a)]

    def _expect_turn(self, seat: int, what: str) -> None:
        if not 0 <= seat < self.rules.table_seats:
            raise self._refuse(f"there is no seat {seat}")
        if seat not in self.active:
            raise self._refuse(f"{self.name(seat)} sits out this hand")
        if self.turn is not None and seat != self.turn:
            raise self._refuse(f"it is {self.name(self.turn)}'s turn to {what}, "
                               f"not {self.name(seat)}'s")

    @property
    def legal_bid_range(self) -> tuple[int, ...]:
        """The next few legal bids for the seat to speak (for buttons and the page)."""
        if self.phase is not Phase.AUCTION:
            return ()
        out: list[int] = []
        high = self.high_bid
        amount = self.rules.next_bid(high)
        while len(out) < 6:
            out.append(amount)
            amount = self.rules.next_bid(high, above=amount)
        return tuple(out)

    @property
    def legal_plays(self) -> tuple[Card, ...]:
        """The cards the seat to play may play now, where hands are known (else empty)."""
        seat = self.turn
        if self.hands is None or seat is None or self.phase not in (Phase.MELD, Phase.PLAY):
            return ()
        if self.phase is Phase.MELD and (seat != self.declarer
                                         or self.first_lead_refusal() is not None):
            return ()
        trick = () if self.trick_full else self.trick
        cards = [c for _, c in trick]
        first = not self.tricks and not trick
        return tuple(legal_plays(self.hands[seat], cards, self.trump, self.rules, first))

    def first_lead_refusal(self) -> str | None:
        """While the meld is shown: why the declarer may not lead the first trick yet (a bury,
        the partners' passes, a forced concession), or None when the lead may come."""
        d = self.declarer
        if self.phase is not Phase.MELD or d is None:
            return "the first lead comes after the meld is shown"
        r = self.rules
        if r.pass_cards and len(self.passes) < 2:
            return "the partners have not finished passing cards"
        if r.bury and not self.bury_done and self.known:
            return f"{self.name(d)} must bury {r.bury} cards before the first lead"
        if r.forced_concede_margin and self.bid is not None:
            meld = self._side_meld(self.side(d))
            if self.bid > meld + r.forced_concede_margin:
                return (f"{self.name(d)} must concede: the bid {self.bid} is more than "
                        f"meld {meld} + {r.forced_concede_margin}")
        return None

    def must_bid(self, seat: int, held: Sequence[Card] | None = None) -> int | None:
        """The amount `seat` is forced to bid now (it may not pass), or None. `held`: the
        seat's cards where the game does not know them (a hidden hand obeys the rule too)."""
        r = self.rules
        hand = self.hand
        auction = hand.auction
        if hand.phase is not Phase.AUCTION or seat != hand.turn or auction.high_bid is not None:
            return None
        if r.all_pass is AllPass.OPENER_FORCED and not auction.bids:
            return r.min_bid
        if r.all_pass is AllPass.DEALER_FORCED and auction.passed.issuperset(
                [s for s in hand.active if s != seat]):
            if r.dealer_forced_needs_meld and not self._holds_meld(seat, held):
                return None
            return r.forced_bid
        if r.must_open_with_meld and self._holds_meld(seat, held):
            return r.min_bid
        return None

    def _holds_meld(self, seat: int, held: Sequence[Card] | None) -> bool:
        hand: Sequence[Card] | None = self.hand_of(seat)
        if hand is None:
            hand = held
        return hand is not None and holds_meld(hand)

    def may_bid(self, seat: int) -> bool:
        """Whether `seat` may bid at all (in a tie-break hand only the tied players bid)."""
        only = self.bidders_only
        return only is None or seat in only

    # -- what comes next ----------------------------------------------------------------------

    def expected(self) -> Expected:
        """What the game expects next: who may bid, name trump, bury, pass, meld or play, who
        deals, what face-down move is owed and what the buttons mean (see expected.py)."""
        r = self.rules
        p = self.phase
        d = self.declarer
        passing = self.pass_due()
        bury = self.bury_due()
        face_down: Buried | CardsPassed | None = None
        if not self.known and d is not None:
            if bury is not None and p is Phase.BURY:
                face_down = Buried(seat=d, cards=None)
            elif passing is not None:
                face_down = CardsPassed(seat=passing.seat, to_seat=passing.to_seat or 0,
                                        cards=None)
        play, lead = self._play_due()
        between = p is Phase.PLAY and (not self.trick or self.trick_full)
        return Expected(
            phase=p, buttons=_BUTTONS[p], turn=self.turn, dealer=self.next_dealer,
            bids=self.legal_bid_range if self.turn is None or self.may_bid(self.turn) else (),
            forced_bid=self.must_bid(self.turn) if self.turn is not None else None,
            push=Due(self.turn, r.push_to_dealer, self.dealer)
            if p is Phase.PUSH and self.turn is not None else None,
            kitty=Due(d, r.kitty_size) if d is not None and r.kitty_size
            and not self.kitty_shown and p in (Phase.TRUMP, Phase.PUSH) else None,
            bury=bury, passing=passing, meld=self.meld_seats(), play=play, lead=lead,
            gather=bool(self.trick_full and self.trick
                        and p in (Phase.PLAY, Phase.HAND_OVER)),
            draw=Due(self.turn, r.deck_size // 2 - sum(
                1 for e in self.events if isinstance(e, StockDrawn)))
            if p is Phase.DRAW and self.turn is not None else None,
            piles=tuple(s for s in self.active if self.discards[s] is None)
            if r.draw_from_stock and p is Phase.PLAY else (),
            claim=self.active if between and d is not None else (),
            agree=self.agreement_due, face_down=face_down,
        )

    @property
    def next_dealer(self) -> int | None:
        """Who deals next, while the table waits for a deal (the dealer moves left after a hand
        unless it is redealt)."""
        if self.phase is Phase.DEAL:
            return self.dealer
        if self.phase is not Phase.HAND_OVER or self.result is None:
            return None
        return self.dealer if self.result.redeal else (self.dealer + 1) % self.rules.table_seats

    def pass_due(self) -> Due | None:
        """The partners' next pass of cards (002: partner to declarer, then back);
        `expected().passing`, asked alone."""
        r = self.rules
        d = self.declarer
        if not r.pass_cards or d is None or self.phase not in (Phase.PASSING, Phase.MELD):
            return None
        partner = partner_of(r, d)
        if partner is None or len(self.passes) >= 2:
            return None
        if self.passes:
            return Due(d, r.pass_cards, partner)
        return Due(partner, r.pass_cards, d)

    def bury_due(self) -> Due | None:
        """The declarer's bury, when it may come: after the kitty is taken, before the meld
        (or with it, where the meld comes first); `expected().bury`, asked alone."""
        r = self.rules
        d = self.declarer
        if not r.bury or r.draw_from_stock or self.bury_done or d is None:
            return None
        kitty_in = self.kitty_shown or not r.kitty_size
        p = self.phase
        due = (p is Phase.BURY or (p is Phase.TRUMP and kitty_in)
               or (p is Phase.MELD and r.meld_before_bury))
        return Due(d, r.bury) if due else None

    def meld_seats(self) -> tuple[int, ...]:
        """The seats that may show meld now; `expected().meld`, asked alone."""
        d = self.declarer
        if d is None or self.trump is None:
            return ()
        if self.phase is Phase.HAND_OVER:  # after a concession the others may still meld
            late = self.conceded and self.result is not None and \
                self.result.opponents_score_meld
            return tuple(s for s in self.active if self.side(s) != self.side(d)) if late else ()
        if self.phase not in (Phase.MELD, Phase.PASSING):
            return ()
        r = self.rules
        if self.phase is Phase.PASSING or r.who_melds is WhoMelds.DECLARER \
                or (r.pass_cards and len(self.passes) < 2):
            return (d,)
        return self.active

    def _play_due(self) -> tuple[int | None, bool]:
        """The seat to play a card now and whether it leads, or (None, False)."""
        seat = self.turn
        if seat is None or len(self.tricks) >= self.rules.hand_size:
            return None, False
        if self.phase is Phase.MELD:
            if seat != self.declarer or self.first_lead_refusal() is not None:
                return None, False
            return seat, True
        if self.phase is Phase.PLAY:
            return seat, self.trick_full or not self.trick
        return None, False

    # -- apply -----------------------------------------------------------------------------

    def apply(self, event: Event) -> Game:
        """The position after `event`, or `IllegalAction` with the reason."""
        if self.phase is _GAME_OVER and not isinstance(event, HandAgreed) \
                and type(event) not in (Event, Corrected, Undone):
            raise self._refuse("the game is over")
        try:
            match event:
                case CardPlayed():
                    return self._on_play(event)  # records the event in the one copy it makes
                case TrickGathered():
                    return self._on_gathered(event)
                case BidMade():
                    g = self._on_bid(event)
                case Passed():
                    g = self._on_pass(event)
                case HandDealt():
                    g = self._on_dealt(event)
                case MeldShown():
                    g = self._on_meld(event)
                case TrumpNamed():
                    g = self._on_trump(event)
                case KittyShown():
                    g = self._on_kitty(event)
                case Buried():
                    g = self._on_buried(event)
                case CardsPassed():
                    g = self._on_cards_passed(event)
                case StockDrawn():
                    g = self._on_drawn(event)
                case Conceded():
                    g = self._on_conceded(event)
                case Claimed():
                    g = self._on_claimed(event)
                case PushedToDealer():
                    g = self._on_push(event)
                case ThrownIn():
                    g = self._on_thrown_in(event)
                case HandAgreed():
                    g = self._on_agreed(event)
                case Corrected() | Undone():
                    raise self._refuse("corrections and undo are applied by replaying the "
                                       "journal (table.rules.replay)")
                case _:
                    raise self._refuse(f"{type(event).__name__} is not a game event")
        except IllegalAction as exc:
            # report the position the event came to, not a step on the way
            raise IllegalAction(exc.reason, self.position()) from None
        return Game(g.standing, g.hand.with_event(event))

    # -- the deal ---------------------------------------------------------------------------

    def _on_dealt(self, e: HandDealt) -> Game:
        if self.phase not in (Phase.DEAL, Phase.HAND_OVER):
            raise self._refuse("the hand in progress is not finished")
        if self.agreement_due:
            who = " or ".join(self.name(s) for s in self.agreement_due)
            raise self._refuse(f"the last hand waits for {who} to agree with its result")
        g = self
        if self.phase is Phase.HAND_OVER:
            g = self._next_deal()
        r = g.rules
        if e.dealer != g.dealer:
            raise g._refuse(f"it is {g.name(g.dealer)}'s deal, not {g.name(e.dealer)}'s")
        hands = None
        if e.hands is not None:
            if len(e.hands) != r.table_seats:
                raise g._refuse(f"a deal needs a hand for each of {r.table_seats} seats")
            for s in range(r.table_seats):
                want = r.hand_size if s in g.active else 0
                if len(e.hands[s]) != want:
                    raise g._refuse(f"{g.name(s)} must be dealt {want} cards, "
                                    f"not {len(e.hands[s])}")
            kitty = e.kitty or ()
            if len(kitty) != r.kitty_size:
                raise g._refuse(f"the kitty must have {r.kitty_size} cards")
            dealt = card_counts(chain(kitty, *e.hands))
            if r.draw_from_stock:
                over = [i for i, n in enumerate(dealt) if n > r.copies]
            else:
                over = [i for i, n in enumerate(dealt) if n != (r.copies if (
                    r.nines or Card.from_index(i).rank is not Rank.NINE) else 0)]
            if over:
                raise g._refuse(f"that deal is not one deck: {Card.from_index(over[0])} "
                                f"is dealt {dealt[over[0]]} times")
            hands = tuple(tuple(h) for h in e.hands)
        drawing = r.draw_from_stock and r.draw_events
        hand = g.hand.replace(phase=Phase.DRAW if drawing else Phase.AUCTION, turn=g.active[0],
                              hands=hands, kitty=tuple(e.kitty) if e.kitty is not None else None,
                              opening=g.standing)
        return Game(g.standing.replace(hand_number=g.hand_number + 1), hand)

    def _on_drawn(self, e: StockDrawn) -> Game:
        """004 two-handed: one turn at the stock, one card kept and one discarded."""
        r = self.rules
        if self.phase is not Phase.DRAW:
            why = "the hand has not been dealt" if self.phase is Phase.DEAL else \
                "the stock is drawn before the auction" if r.draw_from_stock and r.draw_events \
                else f"{r.name} has no drawing from the stock"
            raise self._refuse(f"no card can be drawn now: {why}")
        self._expect_turn(e.seat, "draw")
        draws = [d for d in self.events if isinstance(d, StockDrawn)]
        if self.hands is not None:
            if e.kept is None or e.discarded is None:
                raise self._refuse("with the hands known, say which card was kept and which "
                                   "discarded")
            held = _remove(self.hands[e.seat], [d.kept for d in draws if d.seat == e.seat
                                                and d.kept is not None])
            if held is None or index_of(held, e.kept) < 0:
                raise self._refuse(f"{self.name(e.seat)} was not dealt the {e.kept.name} to "
                                   f"keep")
        seen = card_counts(chain(*(self.hands or ()), [c for d in (*draws, e) for c in (
            d.discarded, None if self.hands is not None else d.kept) if c is not None]))
        for i, n in enumerate(seen):
            if n > r.copies:
                raise self._refuse(f"the {Card.from_index(i).name} has now been drawn {n} "
                                   f"times, and the deck has {r.copies}: was it misread?")
        turns = r.deck_size // 2
        if len(draws) + 1 == turns:
            return self._at(Phase.AUCTION, self.active[0])
        return self._to_turn(self._next_active(e.seat))

    def _next_deal(self) -> Game:
        """From a finished hand to the next deal (the dealer moves left unless it is redealt)."""
        dealer = self.next_dealer
        assert self.result is not None and dealer is not None
        return Game._dealt_from(self.standing.replace(dealer=dealer,
                                                      history=self.history + (self.result,)))

    def _on_thrown_in(self, e: ThrownIn) -> Game:
        if self.phase is not Phase.AUCTION or self.bids:
            raise self._refuse("a hand can be thrown in only before the bidding starts")
        r = self.rules
        if e.reason == "agreed":
            if not r.throw_in_by_agreement:
                raise self._refuse(f"{r.name} does not allow throwing in by agreement")
        else:
            if not r.nine_throw_ins:
                raise self._refuse(f"{r.name} plays every deal: no throw-in for nines")
            hand = self.hand_of(e.seat)
            if hand is not None and not nines_qualify(hand, r):
                raise self._refuse(f"{self.name(e.seat)}'s hand does not qualify for a "
                                   f"throw-in ({_nine_rules_text(r)})")
        return self._end_unplayed(scoring.thrown_in(
            self, f"{self.name(e.seat)} threw in: {e.reason or 'nines'}", redeal=True))

    # -- the auction -------------------------------------------------------------------------

    def _on_bid(self, e: BidMade) -> Game:
        if self.phase is not Phase.AUCTION:
            raise self._refuse(f"there is no auction now ({self.phase.value})")
        self._expect_turn(e.seat, "bid")
        if not self.may_bid(e.seat):
            raise self._refuse("only the tied players may bid in this tie-break hand")
        r = self.rules
        forced = self.must_bid(e.seat)
        err = r.bid_error(e.amount, self.high_bid)
        if forced is not None:
            if e.amount == forced:
                err = None
            elif e.amount < forced:  # 004: "forced to bid 190", not the 150 minimum
                err = f"the forced bid is {forced}"
            elif r.all_pass is AllPass.OPENER_FORCED and not self.bids and \
                    not r.opener_may_jump:  # 000: "begin with the minimum bid"
                err = f"the opening bid must be the minimum, {forced}"
        if err is not None:
            raise self._refuse(f"{self.name(e.seat)} cannot bid {e.amount}: {err}")
        return self._after_speech(e.seat, self.auction.with_bid(e.seat, e.amount))

    def _on_pass(self, e: Passed) -> Game:
        if self.phase is not Phase.AUCTION:
            raise self._refuse(f"there is no auction now ({self.phase.value})")
        self._expect_turn(e.seat, "bid")
        forced = self.must_bid(e.seat)
        if forced is not None:
            raise self._refuse(f"{self.name(e.seat)} may not pass: must bid at least {forced}")
        return self._after_speech(e.seat, self.auction.with_bid(e.seat, None))

    def _after_speech(self, seat: int, auction: Auction) -> Game:
        """The turn after `seat` has spoken, or the end of the auction (`auction` has the
        bid or pass)."""
        r = self.rules
        passed = auction.passed
        high_bidder = auction.high_bidder
        live = [s for s in self.active if s not in passed]
        if r.single_round:
            if len(auction.spoke) < len(self.active):
                return Game(self.standing,
                            self.hand.with_auction(self._next_active(seat), auction))
            if high_bidder is None:
                return self._with_auction(auction)._all_passed()
            return self._with_auction(auction)._auction_won()
        if high_bidder is not None and live == [high_bidder]:
            return self._with_auction(auction)._auction_won()
        if not live:
            return self._with_auction(auction)._all_passed()
        nxt = self._next_active(seat)
        while nxt in passed:
            nxt = self._next_active(nxt)
        if self.active.index(nxt) <= self.active.index(seat):
            auction = auction.next_round()
        return Game(self.standing, self.hand.with_auction(nxt, auction))

    def _all_passed(self) -> Game:
        return self._end_unplayed(scoring.thrown_in(self, "everyone passed", redeal=False))

    def _apply_result(self, result: HandResult) -> Game:
        """Add a hand's result to the game and decide whether someone has won."""
        add = scoring.add
        st = self.standing
        g = self._with_standing(st.replace(
            scores=add(st.scores, result.score_change),
            ledger=add(st.ledger, result.ledger_change),
            checks=add(st.checks, result.checks_change),
            sets=add(st.sets, result.sets_change),
            pot=st.pot + result.pot_change, deals_done=st.deals_done + 1,
            bidders_only=None,
        ))
        if result.declarer is None:
            return g
        winner, target, tied = scoring.decide(g, result)
        alternate = self.rules.scoring is Scoring.ALTERNATE
        g = g._with_standing(g.standing.replace(
            winner=winner, target=target,
            bidders_only=frozenset(tied) if tied and alternate else None))
        if winner is not None:
            checks, ledger = scoring.settled(g, winner)
            g = g._with_standing(g.standing.replace(checks=checks, ledger=ledger))
        return g

    def _end_unplayed(self, result: HandResult) -> Game:
        g = self._apply_result(result)
        return g._with_hand(g.hand.replace(phase=Phase.HAND_OVER, turn=None, result=result))

    def _auction_won(self) -> Game:
        r = self.rules
        auction = self.auction
        high_bidder, high_bid = auction.high_bidder, auction.high_bid
        assert high_bidder is not None and high_bid is not None
        g = self._with_contract(self.contract.replace(declarer=high_bidder, bid=high_bid))
        pushable = (r.push_to_dealer and high_bid == r.push_from_bid
                    and auction.amounts_bid == 1
                    and self.dealer in self.active and high_bidder != self.dealer)
        if pushable:
            return g._at(Phase.PUSH, high_bidder)
        return g._after_contract()

    def _on_push(self, e: PushedToDealer) -> Game:
        if self.phase is not Phase.PUSH:
            raise self._refuse("only a 300 opening passed out may be pushed to the dealer")
        self._expect_turn(e.seat, "keep the bid or push it")
        g = self._with_contract(self.contract.replace(declarer=self.dealer,
                                                      bid=self.rules.push_to_dealer))
        return g._after_contract()

    def _after_contract(self) -> Game:
        """The auction is over: on to the kitty and trump."""
        return self._at(Phase.TRUMP, self.declarer)

    # -- kitty, trump, bury, passing -----------------------------------------------------------

    def _leave_push(self, seat: int) -> Game:
        """Anything the 300 bidder does but push keeps the bid."""
        if self.phase is Phase.PUSH:
            self._expect_turn(seat, "keep the bid or push it")
            return self._after_contract()
        return self

    def _on_kitty(self, e: KittyShown) -> Game:
        r = self.rules
        g = self._leave_push(self.declarer if self.declarer is not None else -1) \
            if self.phase is Phase.PUSH else self
        if r.kitty_size == 0:
            raise g._refuse(f"{r.name} has no kitty")
        if g.phase is Phase.AUCTION and r.kitty_reveal_auction:
            return g._reveal_kitty_in_auction(e)
        if g.phase is not Phase.TRUMP or g.kitty_shown:
            raise g._refuse("the kitty is shown once, by the declarer, before naming trump")
        cards = tuple(e.cards)
        if len(cards) != r.kitty_size:
            raise g._refuse(f"the kitty has {r.kitty_size} cards, not {len(cards)}")
        if g.kitty is not None and card_counts(g.kitty) != card_counts(cards):
            raise g._refuse(f"the kitty dealt was {_fmt(g.kitty)}, not {_fmt(cards)}")
        g = Game(g.standing, g.hand.replace(kitty=cards, hands=g._hands_with_kitty(cards),
                                            contract=g.contract.replace(kitty_shown=True)))
        g._check_seen(g.declarer if g.declarer is not None else 0, cards, "kitty")
        return g

    def _reveal_kitty_in_auction(self, e: KittyShown) -> Game:
        """003 option: one more kitty card is turned up after each round of bidding.
        `e.cards` are all the kitty cards face up so far."""
        shown = tuple(e.cards)
        if len(shown) != len(self.revealed) + 1 or shown[:len(self.revealed)] != self.revealed:
            raise self._refuse("turn up one more kitty card at a time")
        if len(shown) > min(self.rounds, self.rules.kitty_size):
            raise self._refuse("a kitty card is turned up after each full round of bidding")
        if self.kitty is not None and _remove(self.kitty, shown) is None:
            raise self._refuse(f"{_fmt(shown)} is not in the kitty")
        self._check_seen(self.turn or 0, shown, "other")
        return self._with_auction(self.auction.with_revealed(shown))

    def _hands_with_kitty(self, kitty: tuple[Card, ...] | None,
                          ) -> tuple[tuple[Card, ...], ...] | None:
        """The hands once the declarer has picked `kitty` up (into a known hand)."""
        hands = self.hands
        d = self.declarer
        if hands is None or kitty is None or d is None or len(hands[d]) > self.rules.hand_size:
            return hands  # hidden, or already taken
        return hands[:d] + (hands[d] + kitty,) + hands[d + 1:]

    def _on_trump(self, e: TrumpNamed) -> Game:
        g = self._leave_push(e.seat)
        if g.phase not in (Phase.TRUMP, Phase.BURY) or g.trump is not None:
            raise g._refuse("trump is named once, by the declarer, after the auction")
        g._expect_turn(e.seat, "name trump")
        if e.seat != g.declarer:
            raise g._refuse(f"only the declarer ({g.name(g.declarer or 0)}) names trump")
        g = Game(g.standing, g.hand.replace(hands=g._hands_with_kitty(g.kitty),
                                            contract=g.contract.replace(trump=e.suit)))
        return g._advance()

    def _on_buried(self, e: Buried) -> Game:
        r = self.rules
        if r.draw_from_stock:
            return self._on_discards(e)
        g = self._leave_push(e.seat)
        if r.bury == 0:
            raise g._refuse(f"nobody buries in {r.name}")
        if g.phase is Phase.HAND_OVER and r.unburied_forfeit and g.buried is None and \
                not g.known and g.result is not None and g.result.declarer == e.seat and \
                len(g.tricks) == r.hand_size:
            return g._buried_pile_shown(e)
        if g.bury_done:
            raise g._refuse("the declarer has already buried")
        if g.declarer is None or g.phase not in (Phase.TRUMP, Phase.BURY, Phase.MELD):
            raise g._refuse("the declarer buries after taking the kitty")
        if e.seat != g.declarer:
            raise g._refuse(f"only the declarer ({g.name(g.declarer)}) buries")
        if g.phase is Phase.MELD and not r.meld_before_bury:
            raise g._refuse("bury before showing meld")
        hands = g._lay_aside(e.seat, e.cards, r.bury, "bury", "buried cards cannot be melded: "
                             "take them out of the meld", g._hands_with_kitty(g.kitty))
        if e.cards is not None:
            g._check_seen(e.seat, e.cards, "bury")
        g = Game(g.standing, g.hand.replace(hands=hands, contract=g.contract.replace(
            bury_done=True, buried=tuple(e.cards) if e.cards is not None else None)))
        return g._advance()

    def _buried_pile_shown(self, e: Buried) -> Game:
        """003, on a hidden table: the declarer's buried pile turned up when the hand is counted.
        It must be the cards never played; none at all ("bury=-") means he never buried, and the
        hand is forfeited: "going up", and each opponent 12 points for trick play."""
        r = self.rules
        if e.cards is None:
            raise self._refuse("turn the buried pile up to count it (or enter none)")
        if e.cards:
            left = _remove(tuple(r.deck()), [c for t in self.tricks for _, c in t])
            if len(e.cards) != r.bury or left is None or _remove(left, e.cards) is None:
                raise self._refuse(f"the buried pile is the {r.bury} cards never played: "
                                   f"{_fmt(left or ())}, not {_fmt(e.cards)}")
            return self._with_contract(self.contract.replace(buried=tuple(e.cards)))._finish_hand()
        return self._with_contract(self.contract.replace(bury_done=False))._finish_hand()

    def _on_discards(self, e: Buried) -> Game:
        """Two-handed: a player's discard pile, shown so its counters can be scored."""
        if e.cards is None:
            raise self._refuse("show the discard pile so its counters can be counted")
        if len(e.cards) != self.rules.hand_size:
            raise self._refuse(f"a discard pile has {self.rules.hand_size} cards")
        if e.seat not in self.active:
            raise self._refuse(f"there is no seat {e.seat} in this hand")
        if self.discards[e.seat] is not None:
            raise self._refuse(f"{self.name(e.seat)}'s discards are already counted")
        self._check_pile(e.seat, tuple(e.cards))
        discards = list(self.discards)
        discards[e.seat] = tuple(e.cards)
        g = self._with_play(self.hand.play.replace(discards=tuple(discards)))
        if g.phase is Phase.PLAY and len(g.tricks) == g.rules.hand_size:
            return g._finish_if_counted()
        return g

    def _check_pile(self, seat: int, pile: tuple[Card, ...]) -> None:
        """A discard pile and everything else seen of the deck fit in one deck; where the
        draws were entered with their cards, the pile is what the seat discarded."""
        draws = [d for d in self.events if isinstance(d, StockDrawn) and d.seat == seat]
        drawn = sorted(d.discarded for d in draws if d.discarded is not None)
        if draws and len(drawn) == len(draws) and drawn != sorted(pile):
            raise self._refuse(f"{self.name(seat)} discarded {_fmt(drawn)}, "
                               f"not {_fmt(sorted(pile))}")
        if self.hands is None:
            self._check_seen(seat, pile, "discard")
            return
        seen = card_counts(chain(pile, *(p for p in self.discards if p), *self.hands,
                                 (p.card for p in self.plays)))
        for i, n in enumerate(seen):
            if n > self.rules.copies:
                raise self._refuse(f"that discard pile is not from this deck: the "
                                   f"{Card.from_index(i).name} would be there {n} times")

    def _on_cards_passed(self, e: CardsPassed) -> Game:
        r = self.rules
        if r.pass_cards == 0:
            raise self._refuse(f"partners do not pass cards in {r.name}")
        if self.phase not in (Phase.PASSING, Phase.MELD) or self.declarer is None:
            raise self._refuse("cards are passed after trump is named")
        due = self.pass_due()
        if due is None:
            raise self._refuse("the cards have already been passed both ways")
        if (e.seat, e.to_seat) != (due.seat, due.to_seat):
            raise self._refuse(f"now {self.name(due.seat)} passes {r.pass_cards} cards to "
                               f"{self.name(due.to_seat or 0)}")
        hands = self._lay_aside(e.seat, e.cards, r.pass_cards, "pass", "the declarer's meld "
                                "stays on the table: pass back other cards", self.hands)
        if hands is not None and e.cards is not None:
            hands = hands[:e.to_seat] + (hands[e.to_seat] + tuple(e.cards),) + \
                hands[e.to_seat + 1:]
        passes = self.passes + ((e.seat, e.to_seat,
                                 tuple(e.cards) if e.cards is not None else None),)
        g = Game(self.standing, self.hand.replace(
            hands=hands, contract=self.contract.replace(passes=passes)))
        return g._advance()

    def _lay_aside(self, seat: int, cards: tuple[Card, ...] | None, count: int, verb: str,
                   meld_reason: str, hands: tuple[tuple[Card, ...], ...] | None,
                   ) -> tuple[tuple[Card, ...], ...] | None:
        """`hands` once `seat` buries or passes `cards`: exactly `count` of them, held, and
        none of the meld lying on the table. With hidden hands the cards may be unseen."""
        if cards is None:
            if hands is not None:
                raise self._refuse(f"with the hands known, say which cards to {verb}")
            return None
        if len(cards) != count:
            raise self._refuse(f"{verb} exactly {count} cards, not {len(cards)}")
        if hands is None:
            return None
        rest = _remove(hands[seat], cards)
        if rest is None:
            raise self._refuse(f"{self.name(seat)} does not hold {_fmt(cards)}")
        if self.melds[seat] is not None and _remove(rest, self.meld_cards[seat]) is None:
            raise self._refuse(meld_reason)
        return hands[:seat] + (rest,) + hands[seat + 1:]

    def _advance(self) -> Game:
        """Work out the phase after the declarer's choices (trump, bury, passing)."""
        r = self.rules
        d = self.declarer
        if self.trump is None:
            return self._at(Phase.TRUMP, d)
        if r.bury and not self.bury_done and not r.meld_before_bury:
            return self._at(Phase.BURY, d)
        if r.pass_cards and not self.passes:
            return self._at(Phase.PASSING, partner_of(r, d or 0))
        return self._at(Phase.MELD, d)

    # -- meld --------------------------------------------------------------------------------

    def _on_meld(self, e: MeldShown) -> Game:
        r = self.rules
        if self.phase is Phase.HAND_OVER and self.conceded and self.result is not None:
            return self._late_meld(e)
        if self.phase is Phase.BURY:
            raise self._refuse(f"{self.name(self.declarer or 0)} must bury {r.bury} cards "
                               f"before showing meld")
        if self.phase not in (Phase.MELD, Phase.PASSING) or self.trump is None:
            raise self._refuse("meld is shown after trump is named, before the first lead")
        if e.seat not in self.active:
            raise self._refuse(f"{self.name(e.seat)} sits out this hand")
        if r.who_melds is WhoMelds.DECLARER and e.seat != self.declarer:
            raise self._refuse(f"only the declarer melds in {r.name}")
        if r.pass_cards and e.seat != self.declarer and len(self.passes) < 2:
            raise self._refuse("the others meld after the declarer has passed cards back")
        if self.phase is Phase.PASSING and e.seat != self.declarer:
            raise self._refuse("the others meld after the cards are passed")
        cards = tuple(e.cards)
        hand = self.hand_of(e.seat)
        if hand is not None and _remove(hand, cards) is None:
            raise self._refuse(f"{self.name(e.seat)} does not hold {_fmt(cards)}")
        if e.seat == self.declarer and self.buried is not None and hand is None and \
                not self._fits_with_buried(cards):
            raise self._refuse("buried cards cannot be melded")
        self._check_seen(e.seat, cards, "meld")
        melds = self.hand.melds.with_meld(e.seat, best_meld(cards, self.trump, r), cards)
        return self._with_hand(self.hand.replace(melds=melds))

    def _fits_with_buried(self, cards: tuple[Card, ...]) -> bool:
        assert self.buried is not None
        return max(card_counts(chain(cards, self.buried))) <= self.rules.copies

    def _late_meld(self, e: MeldShown) -> Game:
        """After a concession the opponents may still lay down meld that scores."""
        assert self.result is not None and self.trump is not None
        if not self.result.opponents_score_meld or e.seat == self.declarer or \
                self.side(e.seat) == self.side(self.declarer or 0):
            raise self._refuse("the hand is over")
        cards = tuple(e.cards)
        melds = self.hand.melds.with_meld(e.seat, best_meld(cards, self.trump, self.rules), cards)
        return self._with_hand(self.hand.replace(melds=melds))._finish_hand(conceded=True)

    # -- conceding ---------------------------------------------------------------------------

    def _on_conceded(self, e: Conceded) -> Game:
        g = self._leave_push(e.seat) if self.phase is Phase.PUSH else self
        reason = g._concede_refusal(e.seat, e.agreed)
        if reason is not None:
            raise g._refuse(reason)
        return g._finish_hand(conceded=True, unseen=g._concedes_unseen())

    def _concedes_unseen(self) -> bool:
        """004: a concession at the minimum bid before the kitty is seen (scored unseen)."""
        r = self.rules
        return (r.kitty_size > 0 and not self.kitty_shown and self.trump is None
                and r.concede_unseen and self.bid is not None and self.bid <= r.min_bid)

    def concede_refusal(self, seat: int, agreed: bool = False) -> str | None:
        """Why `seat` may not concede the hand now (`agreed`: everybody agrees), or None when
        it may: the reason `Conceded` would be refused with, without playing it out."""
        if self.phase is Phase.GAME_OVER:
            return "the game is over"
        if self.phase is Phase.PUSH:   # the bidder concedes, keeping the bid
            try:
                return self._leave_push(seat)._concede_refusal(seat, agreed)
            except IllegalAction as refused:
                return refused.reason
        return self._concede_refusal(seat, agreed)

    def _concede_refusal(self, seat: int, agreed: bool) -> str | None:
        r = self.rules
        d = self.declarer
        if d is None or self.phase not in (Phase.TRUMP, Phase.BURY, Phase.PASSING, Phase.MELD):
            return "only the declaring side may concede, before the first lead"
        if self.side(seat) != self.side(d):
            return f"only {self.name(d)}'s side may concede"
        if self._concedes_unseen():
            return None
        if r.voluntary_set:
            if self.trump is not None and not r.voluntary_set_after_trump:
                return "a voluntary set is taken before naming trump"
            return None
        if r.concede_names_trump and self.trump is None:
            return "name trump first: the others score their meld"
        meld = self._side_meld(self.side(d))
        forced = bool(r.forced_concede_margin and self.bid is not None
                      and self.bid > meld + r.forced_concede_margin)
        if r.concede_before_opponents_meld and not forced:
            shown = [s for s in self.active if self.side(s) != self.side(d)
                     and self.melds[s] is not None]
            if shown:
                return (f"the decision to concede is made before seeing the opponents' "
                        f"meld, and {self.name(shown[0])} has shown meld")
        if r.concede_margin:
            if self.bid is not None and self.bid - meld <= r.concede_margin and not agreed:
                return (f"the bid can still be made with the cards: play it out unless "
                        f"everybody agrees to throw it in (meld {meld} is within "
                        f"{r.concede_margin} of {self.bid})")
            if self.phase is not Phase.MELD:
                return "concede after the declaring side has melded"
        elif not (r.concede_after_meld or r.concede_names_trump or r.forced_concede_margin
                  or r.scoring is Scoring.ALTERNATE):
            return f"{r.name} does not allow conceding"
        if self.trump is None and not (r.kitty_size > 0 and not self.kitty_shown):
            return "name trump before conceding"
        return None

    def _side_meld(self, side: int) -> int:
        return sum(m.total for s, m in enumerate(self.melds)
                   if m is not None and self.side(s) == side)

    # -- the play ----------------------------------------------------------------------------

    def _on_play(self, e: CardPlayed) -> Game:
        hand = self.hand
        if self.phase is not _PLAY:
            if hand.phase is not Phase.MELD:
                raise self._refuse(f"no card can be played now ({hand.phase.value}): "
                                   + _phase_hint(self))
            return self._begin_play(e.seat)._on_play(e)
        now = hand.play
        seat = e.seat
        if seat != hand.turn:
            self._expect_turn(seat, "play")
        active = hand.active
        # leading again gathers a finished trick
        trick = () if len(now.trick) == len(active) else now.trick
        tricks = now.tricks
        done = len(tricks)
        r = self.standing.rules
        if done == r.hand_size:
            raise self._refuse("every trick of the hand has been played")
        card = e.card
        trick_cards = tuple(map(_SECOND, trick))
        first_lead = not done and not trick
        hands = hand.hands
        trump = hand.contract.trump
        play = Play(seat, card, done + 1, trick_cards, first_lead)
        plays = now.plays + (play,)
        reneges = now.reneges
        if hands is not None:
            held = hands[seat]
            i = index_of(held, card)
            if i < 0 or not is_legal_play(card, held, trick_cards, trump, r, first_lead):
                self._refuse_play(play, held)
            hands = hands[:seat] + (held[:i] + held[i + 1:],) + hands[seat + 1:]
        else:
            self._check_seen(seat, (card,), "play")
            reneges = reneges + prove_reneges(plays, hand.melds.cards, trump, r, reneges,
                                              self.standing.names)
        trick = trick + ((seat, card),)
        events = hand.events + (e,)
        if len(trick) < len(active):
            nxt = active[(active.index(seat) + 1) % len(active)]
            after = TrickPlay(trick, tricks, now.taken, now.counters, now.won_tricks,
                              plays, reneges, now.discards)
            return Game(self.standing, hand.with_play(nxt, hands, after, events))
        # the trick is complete: its winner leads next
        cards = trick_cards + (card,)
        winner = trick[trick_winner(cards, trump)][0]
        last = done + 1 == r.hand_size
        points = card_points(cards, r) + (r.points.last_trick if last else 0)
        taken = list(now.taken)
        taken[winner] += points
        counters = list(now.counters)
        counters[winner] += sum(map(_COUNTERS.__contains__, cards))
        won = list(now.won_tricks)
        won[winner] += 1
        after = TrickPlay(trick, tricks + (trick,), tuple(taken), tuple(counters),
                          tuple(won), plays, reneges, now.discards)
        g = Game(self.standing, hand.with_play(winner, hands, after, events))
        if last:
            return g._finish_if_counted()
        return g

    # -- claims ------------------------------------------------------------------------------

    def _on_claimed(self, e: Claimed) -> Game:
        """The rest of the hand claimed (or, with `lost`, defeat acknowledged): refused with
        the reason unless it is sure. Settled-by-result games (stakes, pot, alternate) claim
        the result; the others claim every trick left, proven where the hands are known."""
        r = self.rules
        d = self.declarer
        if self.phase is not Phase.PLAY or d is None:
            raise self._refuse("the rest of the hand is claimed during the play")
        if e.seat not in self.active:
            raise self._refuse(f"there is no seat {e.seat} in this hand")
        if self.trick and not self.trick_full:
            raise self._refuse("finish the trick on the table before claiming")
        if r.draw_from_stock and any(self.discards[s] is None for s in self.active):
            raise self._refuse("show both discard piles before claiming: they count")
        who = self.name(e.seat)
        if e.lost and self.side(e.seat) != self.side(d):
            raise self._refuse(f"only {self.name(d)}'s side can acknowledge defeat; "
                               f"{who} claims instead")
        if r.scoring in (Scoring.STAKES, Scoring.POT, Scoring.ALTERNATE):
            made = False if e.lost else self._claimed_result(e.seat)
            return self._finish_hand(claim=e.seat, claim_made=made)
        if e.lost:
            raise self._refuse(f"in {r.name} every trick point scores: claim the rest for "
                               f"one side or play on")
        rest = self._rest_of_hand(e.seat)
        left = r.hand_size - len(self.tricks)
        if self.hands is not None:
            side = self.side(e.seat)
            ours = frozenset(s for s in self.active if self.side(s) == side)
            try:
                sure = takes_every_trick(self.hands, self.active, self.turn or 0, ours,
                                         self.trump, r)
            except ClaimTooDeep:
                raise self._refuse(f"too many ways to play the {left} tricks left to prove "
                                   f"{who}'s claim: play on a trick or two") from None
            if not sure:
                raise self._refuse(f"{who} cannot claim the rest: the others can still take "
                                   f"a trick")
        taken, counters, won = list(self.taken), list(self.counters), list(self.won_tricks)
        taken[e.seat] += card_points(rest, r) + r.points.last_trick
        counters[e.seat] += sum(map(_COUNTERS.__contains__, rest))
        won[e.seat] += left
        g = self._with_play(self.hand.play.replace(
            taken=tuple(taken), counters=tuple(counters), won_tricks=tuple(won)))
        return g._finish_hand(claim=e.seat)

    def _claimed_result(self, seat: int) -> bool:
        """Whether the declarer has made it (a claim by his side) or can no longer make it (a
        claim by the others); refused while the result is still open."""
        r = self.rules
        d = self.declarer
        bid = self.bid
        assert d is not None and bid is not None
        dside = self.side(d)
        ours = [s for s in self.active if self.side(s) == dside]
        meld = self._side_meld(dside)
        won = sum(self.taken[s] for s in ours)
        if self.buried is not None and r.bury:
            won += card_points(self.buried, r)
        if self.side(seat) == dside:
            kept = meld if not r.declarer_saves_meld or scoring.meld_saved(self, ours) else 0
            if kept + won < bid:
                raise self._refuse(f"{self.name(seat)} cannot claim yet: meld {kept} and "
                                   f"{won} in tricks make {kept + won}, short of the bid {bid}")
            return True
        most = meld + r.trick_total - sum(self.taken[s] for s in self.active
                                          if self.side(s) != dside)
        if most >= bid:
            raise self._refuse(f"{self.name(seat)} cannot claim yet: {self.name(d)} can still "
                               f"make {bid} (meld {meld} and up to {most - meld} in tricks)")
        return False

    def _rest_of_hand(self, seat: int) -> tuple[Card, ...]:
        """The cards still to be played: the hands where known; else the deck less what was
        played, the discard piles and the buried cards (face down, they are the declarer's,
        so only his side may claim them with the rest)."""
        if self.hands is not None:
            return tuple(chain.from_iterable(self.hands[s] for s in self.active))
        r = self.rules
        left = card_counts(r.deck())
        gone = card_counts(chain([p.card for p in self.plays],
                                 *(p for p in self.discards if p), self.buried or ()))
        if r.bury and self.buried is None and self.side(seat) != self.side(self.declarer or 0):
            raise self._refuse("the buried cards lie face down: turn them up (correct the "
                               "bury) before the others claim the rest")
        return tuple(Card.from_index(i) for i, n in enumerate(left) for _ in range(n - gone[i]))

    def _refuse_play(self, play: Play, hand: tuple[Card, ...]) -> NoReturn:
        err = play_error(play.card, hand, play.before, self.trump, self.rules, play.first_lead)
        assert err is not None
        if err.rule == "not in hand":
            raise self._refuse(f"{self.name(play.seat)} does not hold the {play.card.name}")
        raise self._refuse(f"{self.name(play.seat)} {err.text}")

    def _begin_play(self, seat: int) -> Game:
        """The first lead ends the meld."""
        d = self.declarer
        assert d is not None
        if seat != d:
            raise self._refuse(f"{self.name(d)} leads the first trick")
        reason = self.first_lead_refusal()
        if reason is not None:
            raise self._refuse(reason)
        g = self
        if self.rules.bury and not g.bury_done:  # hidden hands: buried face down, unseen
            g = g._with_contract(g.contract.replace(bury_done=True))
        return g._at(Phase.PLAY, d)

    def _finish_if_counted(self) -> Game:
        if self.rules.draw_from_stock:
            missing = [s for s in self.active if self.discards[s] is None]
            if missing:
                return self._to_turn(missing[0])
        return self._finish_hand()

    def _on_gathered(self, e: TrickGathered) -> Game:
        hand = self.hand
        p = hand.play
        if not (len(p.trick) == len(self.active) and (self.phase is _PLAY or (
                hand.phase is Phase.HAND_OVER and hand.result is not None and p.tricks))):
            raise self._refuse("there is no finished trick to gather")
        between = TrickPlay((), p.tricks, p.taken, p.counters, p.won_tricks, p.plays,
                            p.reneges, p.discards)
        return Game(self.standing, hand.with_play(hand.turn, hand.hands, between,
                                                  hand.events + (e,)))

    # -- seen cards --------------------------------------------------------------------------

    def _check_seen(self, seat: int, new: Sequence[Card], kind: str) -> None:
        """No face may be seen more often than the deck has copies of it (hidden hands).

        A seat held at least what it played or shows in meld (the same physical card may be
        both); the declarer also held the kitty, and what it buried besides.
        """
        if self.hands is not None:
            return
        r = self.rules
        added = card_counts(new)
        played = [[0] * 24 for _ in range(r.table_seats)]
        for p in self.plays:
            played[p.seat][p.card.index] += 1
        total = [0] * 24
        for s in self.active:
            held = played[s]
            mine = s == seat
            if kind == "play" and mine:
                held = list(map(add, held, added))
            if kind == "meld" and mine:
                held = list(map(max, held, added))
            elif self.meld_cards[s]:
                held = list(map(max, held, card_counts(self.meld_cards[s])))
            pile = self.discards[s]
            if kind == "discard" and mine:
                held = list(map(add, held, added))
            elif pile:
                held = list(map(add, held, card_counts(pile)))
            if s == self.declarer:
                buried = added if kind == "bury" else card_counts(self.buried or ())
                kitty = added if kind == "kitty" else card_counts(
                    self.kitty if self.kitty_shown and self.kitty else ())
                held = list(map(max, map(add, held, buried), kitty))
            total = list(map(add, total, held))
        if kind == "other":  # cards seen in no seat's hand yet (kitty turned up in the auction)
            total = list(map(add, total, added))
        limits = _copies_by_index(r.copies, r.nines)
        if all(map(le, total, limits)):
            return
        i = next(i for i, n in enumerate(total) if n > limits[i])
        raise self._refuse(f"the {Card.from_index(i).name} has now been seen {total[i]} "
                           f"times, and the deck has {limits[i]}: was it misread?")

    # -- agreeing with a hand's result (agree_hands) --------------------------------------------

    @property
    def agreed_by(self) -> int | None:
        """Who agreed with this hand's result, if anyone has."""
        for e in self.events:
            if isinstance(e, HandAgreed):
                return e.seat
        return None

    @property
    def agreement_due(self) -> tuple[int, ...]:
        """The seats one of whom must still agree with the hand's result before the next
        deal: the side that did not take the bid (empty when the rules do not ask for it, the
        hand is not scored, was thrown in, or someone has agreed)."""
        r = self.hand.result
        if r is None or r.declarer is None or not self.rules.agree_hands \
                or self.agreed_by is not None:
            return ()
        side = self.side(r.declarer)
        return tuple([s for s in self.active if self.side(s) != side])

    def _on_agreed(self, e: HandAgreed) -> Game:
        due = self.agreement_due
        if not due:
            if not self.rules.agree_hands:
                raise self._refuse(f"{self.rules.name} does not ask for hands to be agreed "
                                   "(rule option agree_hands=1)")
            if self.agreed_by is not None:
                raise self._refuse(f"{self.name(self.agreed_by)} has already agreed")
            raise self._refuse("there is no scored hand to agree with")
        if e.seat not in due:
            who = " or ".join(self.name(s) for s in due)
            raise self._refuse(f"{self.name(e.seat)} took the bid: {who} agrees with the "
                               "result")
        return self

    # -- the end of a hand -------------------------------------------------------------------

    def _finish_hand(self, conceded: bool = False, unseen: bool = False,
                     claim: int | None = None, claim_made: bool | None = None) -> Game:
        g = self._with_hand(self.hand.replace(conceded=conceded or self.conceded))
        result = scoring.score_hand(g, unseen=unseen, claim=claim, claim_made=claim_made)
        # scored from the standing at the deal (a late meld after a concession scores again)
        dealt = g.hand.opening.replace(hand_number=g.hand_number)
        g = Game(dealt, g.hand)._apply_result(result)
        phase = Phase.GAME_OVER if g.winner is not None else Phase.HAND_OVER
        return g._with_hand(g.hand.replace(phase=phase, turn=None, result=result))

    # -- what the page shows ------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        return view.game_view(self)


_SECOND: Final = itemgetter(1)  # the card of a (seat, card) play


@functools.cache
def _copies_by_index(copies: int, nines: bool) -> tuple[int, ...]:
    """How many copies of each face (by `Card.index`) the deck has."""
    return tuple(copies if nines or c.rank is not Rank.NINE else 0 for c in ALL_CARDS)


# the phases the hot paths test, as module constants: in pure Python `Phase.PLAY` goes through
# the enum class's attribute hook, several times the cost of reading a global
_PLAY: Final = Phase.PLAY
_GAME_OVER: Final = Phase.GAME_OVER
_COUNTERS: Final = frozenset(c for c in ALL_CARDS if c.rank >= Rank.KING)  # A, 10, K


def new_game(rules: Rules, names: Sequence[str] | None = None, first_dealer: int = 0) -> Game:
    """A game about to be dealt by `first_dealer`."""
    n = rules.table_seats
    seat_names = tuple(names) if names else default_names(n)
    if len(seat_names) != n:
        raise ValueError(f"{rules.name} needs {n} seat names, got {len(seat_names)}")
    if not 0 <= first_dealer < n:
        raise ValueError(f"first_dealer must be a seat 0..{n - 1}, not {first_dealer}")
    return Game._new(rules, seat_names, first_dealer)


_BUTTONS: Final = {
    Phase.DEAL: Buttons.WAIT, Phase.DRAW: Buttons.WAIT, Phase.AUCTION: Buttons.BID,
    Phase.PUSH: Buttons.PUSH, Phase.TRUMP: Buttons.TRUMP, Phase.BURY: Buttons.CONCEDE,
    Phase.PASSING: Buttons.CONCEDE, Phase.MELD: Buttons.CONCEDE, Phase.PLAY: Buttons.PLAY,
    Phase.HAND_OVER: Buttons.WAIT, Phase.GAME_OVER: Buttons.OVER,
}


def next_game_dealer(g: Game) -> int | None:
    """Who deals the first hand of the next game, where the rules say (000: "the winner is the
    first dealer of the second game"); None while the game goes on or where the table chooses."""
    if g.winner is None or not g.rules.winner_deals_next:
        return None
    return g.winner


def _fmt(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards) or "nothing"


def _phase_hint(g: Game) -> str:
    p = g.phase
    if p is Phase.DRAW:
        return f"the hands are drawn from the stock, {g.name(g.turn or 0)} to draw"
    if p is Phase.AUCTION:
        return f"the auction is on, {g.name(g.turn or 0)} to speak"
    if p is Phase.TRUMP:
        return f"{g.name(g.declarer or 0)} has not named trump yet"
    if p is Phase.BURY:
        return f"{g.name(g.declarer or 0)} has not buried yet"
    if p is Phase.PASSING:
        return "the partners are passing cards"
    if p is Phase.DEAL:
        return "the hand has not been dealt"
    return "the hand is over"


def holds_meld(hand: Iterable[Card]) -> bool:
    """004: 'meld other than nines' - a marriage, a pinochle or an around, whatever is trump."""
    faces = set(hand)
    return any(faces.issuperset(meld) for meld in _MELDS_BUT_NINES)


_MELDS_BUT_NINES = (
    *[(Card(s, Rank.KING), Card(s, Rank.QUEEN)) for s in Suit],  # the marriages
    (Card(Suit.SPADES, Rank.QUEEN), Card(Suit.DIAMONDS, Rank.JACK)),  # the pinochle
    *[tuple([Card(s, r) for s in Suit]) for r in (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK)],
)


def nines_qualify(hand: Sequence[Card], r: Rules) -> bool:
    nines = sum(1 for c in hand if c.rank is Rank.NINE)
    aces = sum(1 for c in hand if c.rank is Rank.ACE)
    has_meld = any(best_meld(hand, s, r).total > r.meld.dix * sum(
        1 for c in hand if c.rank is Rank.NINE and c.suit is s) for s in Suit)
    tests = {
        NineThrowIn.FIVE_NO_MELD: nines >= 5 and not has_meld,
        NineThrowIn.SIX_NO_MELD: nines >= 6 and not has_meld,
        NineThrowIn.SEVEN_ANY: nines >= 7,
        NineThrowIn.FIVE_NO_ACES: nines >= 5 and aces == 0,
        NineThrowIn.SIX_ONE_ACE: nines >= 6 and aces <= 1,
    }
    return any(tests[k] for k in r.nine_throw_ins)


def _nine_rules_text(r: Rules) -> str:
    return ", ".join(sorted(k.value for k in r.nine_throw_ins))


def _moves(events: tuple[Event, ...]) -> tuple[Event, ...]:
    """The moves of `events`: where each came from and when left out."""
    return tuple([replace(e, source="", at=0.0) if e.source or e.at else e for e in events])
