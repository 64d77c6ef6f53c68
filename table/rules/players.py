"""Simulated players: simple, seeded, always legal. They play the demo and the end-to-end tests.

`SimTable` knows the true deal (it shuffles with the `random.Random` it is given) and answers
`next_event(game)` with what the seat to act would do: bid from its meld, name its best suit,
bury and pass its weakest cards, show its meld and play the cheapest card that does the job.
With `known=False` it plays a real table's game: the deal is only marked and buried or passed
cards go face down, so the game checks what a camera could see.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator, Sequence
from operator import attrgetter, itemgetter
from typing import Final

from .cards import ALL_CARDS, ALL_SUITS, Card, Rank, Suit, index_of
from .events import (
    BidMade,
    Buried,
    CardPlayed,
    CardsPassed,
    Conceded,
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
)
from .expected import Due
from .game import Game, Phase, new_game, nines_qualify
from .meld import best_meld, card_counts, meld_total
from .seats import active_seats
from .tricks import playable, winning_card
from .variants import Rules


def _take(hand: list[Card], cards: Sequence[Card]) -> None:
    for c in cards:
        i = index_of(hand, c)
        if i < 0:
            raise ValueError(f"{c} is not in the hand")
        del hand[i]


class SimTable:
    """The players at a simulated table, with the true cards."""

    def __init__(self, rules: Rules, rng: random.Random, known: bool = True,
                 source: str = "sim") -> None:
        self.rules = rules
        self.rng = rng
        self.known = known
        self.source = source
        n = rules.table_seats
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.kitty: list[Card] = []
        self.discards: list[list[Card]] = [[] for _ in range(n)]
        self.draws: list[StockDrawn] = []  # two-handed: the turns at the stock, in order
        self._estimate: dict[int, tuple[int, Suit]] = {}
        self._pending: tuple[Card, ...] = ()  # the true cards of a face-down bury or pass
        self._gathered = TrickGathered(source=source)
        self._deck = rules.deck()
        self._trick_total = rules.trick_total
        self._card_events: dict[int, CardPlayed] = {}

    # -- the deal -------------------------------------------------------------------------

    def deal(self, dealer: int, active: Sequence[int]) -> HandDealt:
        r = self.rules
        deck = list(self._deck)
        self.rng.shuffle(deck)
        n = r.table_seats
        self.hands = [[] for _ in range(n)]
        self.discards = [[] for _ in range(n)]
        self._estimate = {}
        if r.draw_from_stock:
            self._draw(deck, active)
            self.kitty = []
        else:
            for i, seat in enumerate(active):
                self.hands[seat] = deck[i * r.hand_size:(i + 1) * r.hand_size]
            self.kitty = deck[len(active) * r.hand_size:]
        if not self.known:
            return HandDealt(dealer=dealer, source=self.source)
        return HandDealt(dealer=dealer, hands=tuple(tuple(h) for h in self.hands),
                         kitty=tuple(self.kitty), source=self.source)

    def _draw(self, deck: list[Card], active: Sequence[int]) -> None:
        """004 two-handed: draw one, keep it or not; if not, the next one must be kept."""
        turn = 0
        self.draws = []
        while deck:
            seat = active[turn % len(active)]
            first = deck.pop()
            second = deck.pop()
            keep_first = first.rank >= Rank.KING or self.rng.random() < 0.3
            kept, thrown = (first, second) if keep_first else (second, first)
            self.hands[seat].append(kept)
            self.discards[seat].append(thrown)
            shown = self.known
            self.draws.append(StockDrawn(seat=seat, kept_first=keep_first,
                                         kept=kept if shown else None,
                                         discarded=thrown if shown else None,
                                         source=self.source))
            turn += 1

    # -- deciding -------------------------------------------------------------------------

    def estimate(self, seat: int) -> tuple[int, Suit]:
        """What this hand hopes to make, and in which trump."""
        found = self._estimate.get(seat)
        if found is None:
            n = card_counts(self.hands[seat])
            lengths = [sum(n[i:i + 6]) for i in (0, 6, 12, 18)]  # per suit, S H C D
            aces = n[Rank.ACE] + n[6 + Rank.ACE] + n[12 + Rank.ACE] + n[18 + Rank.ACE]
            found = (-1, Suit.SPADES)
            # the two longest suits are the only sensible trumps for these players
            for s in sorted(range(4), key=lambda s: -lengths[s])[:2]:
                share = 0.18 + 0.035 * lengths[s] + 0.02 * aces
                suit = ALL_SUITS[s]
                value = meld_total(n, suit, self.rules) + int(self._trick_total * share)
                if value > found[0]:
                    found = (value, suit)
            self._estimate[seat] = found
        return found

    def next_event(self, g: Game) -> Event:
        """What the table does next in position `g`."""
        p = g.phase
        if p is _PLAY:
            return self._play(g)
        if g.agreement_due:  # the other side agrees with the result before the next deal
            return HandAgreed(seat=g.agreement_due[0], source=self.source)
        move = _MOVES.get(p)
        if move is None:
            raise ValueError("the game is over")
        return move(self, g)

    def _draw_turn(self, g: Game) -> Event:
        return self.draws[sum(1 for e in g.events if isinstance(e, StockDrawn))]

    def _push_or_keep(self, g: Game) -> Event:
        d = _declarer(g)
        if self.estimate(d)[0] < g.rules.push_from_bid:
            return PushedToDealer(seat=d, source=self.source)
        return KittyShown(cards=tuple(self.kitty), source=self.source)

    def _name_trump(self, g: Game) -> Event:
        d = _declarer(g)
        src = self.source
        if self.rules.kitty_size and not g.kitty_shown:
            return KittyShown(cards=tuple(self.kitty), source=src)
        self._take_kitty(d)
        value, suit = self.estimate(d)
        if self.rules.voluntary_set and g.bid is not None and value < g.bid - 60:
            return Conceded(seat=d, source=src)
        return TrumpNamed(seat=d, suit=suit, source=src)

    def _bury_now(self, g: Game) -> Event:
        return self._bury(g, _declarer(g))

    def _pass_now(self, g: Game) -> Event:
        due = g.pass_due()
        assert due is not None
        return self._pass(g, due)

    def _meld_now(self, g: Game) -> Event:
        return self._meld_or_lead(g, _declarer(g))

    def _next_deal(self, g: Game) -> HandDealt:
        dealer = g.next_dealer
        assert dealer is not None
        return self.deal(dealer, active_seats(self.rules, dealer))

    def _speak(self, g: Game) -> Event:
        r = self.rules
        seat = g.turn
        assert seat is not None
        src = self.source
        if not g.bids and r.nine_throw_ins and nines_qualify(self.hands[seat], r):
            return ThrownIn(seat=seat, reason="nines", source=src)
        forced = g.must_bid(seat, self.hands[seat])  # a hidden hand obeys the rule too
        if forced is not None:
            return BidMade(seat=seat, amount=forced, source=src)
        if not g.may_bid(seat):  # a tie-break hand the seat sits out: it may only pass
            return Passed(seat=seat, source=src)
        value = self.estimate(seat)[0]
        if r.partnerships:
            value += self._trick_total // 10
        high = g.high_bid
        amount = r.next_bid(high)
        if r.single_round:  # one bid each: the highest this hand hopes to make
            above = r.next_bid(high, above=amount)
            while above <= value:
                amount, above = above, r.next_bid(high, above=above)
        if amount <= value:
            return BidMade(seat=seat, amount=amount, source=src)
        return Passed(seat=seat, source=src)

    def _take_kitty(self, d: int) -> None:
        if self.kitty and len(self.hands[d]) == self.rules.hand_size:
            self.hands[d] = self.hands[d] + self.kitty
            self._estimate.pop(d, None)

    def _spare(self, seat: int, trump: Suit, keep: Sequence[Card] = ()) -> list[Card]:
        """The seat's cards outside its meld (and outside `keep`), weakest first."""
        hand = list(self.hands[seat])
        for c in [*best_meld(hand, trump, self.rules).cards, *keep]:
            i = index_of(hand, c)
            if i >= 0:
                del hand[i]
        return sorted(hand, key=_spare_order(trump).__getitem__)

    def _bury(self, g: Game, d: int) -> Buried:
        self._take_kitty(d)
        assert g.trump is not None
        spare = self._spare(d, g.trump)
        if len(spare) < self.rules.bury:
            spare = sorted(self.hands[d], key=_keep_order(g.trump).__getitem__)
        cards = tuple(spare[:self.rules.bury])
        self._pending = cards
        return Buried(seat=d, cards=cards if self.known else None, source=self.source)

    def _pass(self, g: Game, due: Due) -> CardsPassed:
        """The pass the game expects (`due`): the partner sends his best trumps and aces, the
        declarer passes back what his meld can spare."""
        trump = g.trump
        assert trump is not None and due.to_seat is not None
        if due.seat != g.declarer:
            best = sorted(self.hands[due.seat], key=lambda c: (c.suit is not trump, -c.rank))
            self._pending = tuple(best[:due.count])
        else:
            self._pending = self._pass_back(due.seat, trump)
        return CardsPassed(seat=due.seat, to_seat=due.to_seat,
                           cards=self._pending if self.known else None, source=self.source)

    def _pass_back(self, d: int, trump: Suit) -> tuple[Card, ...]:
        """002: what the declarer passes back - never the meld lying on the table, so when the
        meld would leave too few cards the weakest cards go back and the meld is smaller."""
        n = self.rules.pass_cards
        spare = self._spare(d, trump)
        if len(spare) < n:
            spare = sorted(self.hands[d], key=_keep_order(trump).__getitem__)
        return tuple(spare[:n])

    def _meld_or_lead(self, g: Game, d: int) -> Event:
        r = self.rules
        assert g.trump is not None
        src = self.source
        # what the game expects now (the parts of `g.expected()` this needs, asked alone)
        bury, passing, melders = g.bury_due(), g.pass_due(), g.meld_seats()
        if bury is not None:
            # 003: meld first and bury from the rest - unless the meld leaves too few cards
            left = len(self.hands[d]) - len(best_meld(self.hands[d], g.trump, r).cards)
            if g.melds[d] is not None or left < bury.count:
                return self._bury(g, d)
        order = [d] + [s for s in g.active if s != d]
        for s in order:
            if g.melds[s] is not None:
                continue
            if s != d and r.concede_before_opponents_meld:
                conceded = self._concession(g, d)  # 004: decided before the others meld
                if conceded is not None and g.concede_refusal(d) is None:
                    return conceded
            if s not in melders:
                continue
            hand = list(self.hands[s])
            if s == d and passing is not None:  # the meld stays: pass back the rest
                _take(hand, self._pass_back(d, g.trump))
            meld = best_meld(hand, g.trump, r)
            nines = [c for c in hand if c.rank is Rank.NINE]
            if r.checks.seven_nines and len(nines) >= 7:  # 004: shown for their checks
                cards = meld.cards + tuple(c for c in nines if c.suit is not g.trump)
                return MeldShown(seat=s, cards=cards, source=src)
            if meld.total > 0:
                return MeldShown(seat=s, cards=meld.cards, source=src)
        if passing is not None:
            return self._pass(g, passing)
        if bury is not None:
            return self._bury(g, d)
        conceded = self._concession(g, d)
        if conceded is not None:
            return conceded
        return self._play(g)

    def _concession(self, g: Game, d: int) -> Conceded | None:
        """The declarer's concession when the bid is out of reach (or must be conceded)."""
        r = self.rules
        if g.bid is None:
            return None
        side_meld = sum(m.total for s, m in enumerate(g.melds)
                        if m is not None and g.side(s) == g.side(d))
        hopeless = g.bid > side_meld + int(self._trick_total * 0.85)
        forced = r.forced_concede_margin and g.bid > side_meld + r.forced_concede_margin
        if forced or (r.concede_margin and g.bid - side_meld > r.concede_margin) or \
                (hopeless and (r.concede_after_meld or r.concede_names_trump)):
            return Conceded(seat=d, source=self.source)
        return None

    def _play(self, g: Game) -> Event:
        hand = g.hand
        if len(hand.play.trick) == len(g.active):  # the trick is full: gather it
            return self._gathered
        seat = hand.turn
        assert seat is not None
        if self.rules.draw_from_stock and len(hand.play.tricks) == self.rules.hand_size:
            return Buried(seat=seat, cards=tuple(self.discards[seat]), source=self.source)
        card = self.choose_card(g, seat)
        key = seat * 24 + card.index
        event = self._card_events.get(key)
        if event is None:  # events are values: each seat's play of a face is made once
            event = self._card_events[key] = CardPlayed(seat=seat, card=card, source=self.source)
        return event

    def choose_card(self, g: Game, seat: int) -> Card:
        """The cheapest card that wins the trick, or the cheapest legal card (sparing trumps);
        a lead is the highest card, a trump among equals."""
        hand = g.hand
        trump = hand.contract.trump
        play = hand.play
        trick = list(map(_CARD, play.trick))
        legal = playable(self.hands[seat], trick, trump, self.rules, not trick and not play.tricks)
        if not trick:  # the first of the highest cards, a trump if there is one
            return max(legal, key=_lead_order(trump).__getitem__)
        top = winning_card(trick, trump)
        beaters = _beaters(top, trick[0].suit, trump)
        winners = list(filter(beaters.__contains__, legal))
        if winners:
            return min(winners, key=_RANK)
        # the first of the lowest cards, a trump only when nothing else is left
        return min(legal, key=_keep_order(trump).__getitem__)

    # -- keeping the true hands in step ---------------------------------------------------------

    def observe(self, e: Event, g: Game) -> None:
        """Follow an accepted event (`g` is the position before it)."""
        kind = type(e)
        if kind is TrickGathered:
            return
        if kind is CardPlayed:
            assert isinstance(e, CardPlayed)
            hand = self.hands[e.seat]
            i = index_of(hand, e.card)
            if i < 0:
                raise ValueError(f"{e.card} is not in the hand")
            del hand[i]
        elif isinstance(e, KittyShown | TrumpNamed) and g.declarer is not None:
            self._take_kitty(g.declarer)
        elif isinstance(e, Buried) and not self.rules.draw_from_stock:
            self._take_kitty(e.seat)
            _take(self.hands[e.seat], e.cards if e.cards is not None else self._pending)
        elif isinstance(e, CardsPassed):
            cards = e.cards if e.cards is not None else self._pending
            _take(self.hands[e.seat], cards)
            self.hands[e.to_seat] += list(cards)
            self._estimate.clear()
        elif isinstance(e, PushedToDealer):
            self._estimate.clear()


def _declarer(g: Game) -> int:
    d = g.declarer
    assert d is not None
    return d


# what the table does in each phase but the play (`SimTable.next_event`)
_MOVES: Final[dict[Phase, Callable[[SimTable, Game], Event]]] = {
    Phase.DEAL: SimTable._next_deal,
    Phase.HAND_OVER: SimTable._next_deal,
    Phase.DRAW: SimTable._draw_turn,
    Phase.AUCTION: SimTable._speak,
    Phase.PUSH: SimTable._push_or_keep,
    Phase.TRUMP: SimTable._name_trump,
    Phase.BURY: SimTable._bury_now,
    Phase.PASSING: SimTable._pass_now,
    Phase.MELD: SimTable._meld_now,
}


def _beats(card: Card, top: Card, led: Suit, trump: Suit | None) -> bool:
    """Whether `card`, played now, would take the trick from `top` (the card winning it)."""
    if card.suit is top.suit:
        return card.rank > top.rank
    return card.suit is trump or (top.suit is not trump and top.suit is not led)


_RANK = attrgetter("rank")
_CARD = itemgetter(1)  # the card of a (seat, card) play
_PLAY: Final = Phase.PLAY  # read as a global: `Phase.PLAY` goes through the enum class's hook


@functools.cache
def _beaters(top: Card, led: Suit, trump: Suit | None) -> frozenset[Card]:
    """The faces that would take the trick from `top` (`_beats`, for every face at once)."""
    return frozenset(c for c in ALL_CARDS if _beats(c, top, led, trump))


@functools.cache
def _lead_order(trump: Suit | None) -> dict[Card, int]:
    """A lead's preference: higher rank first, then a trump over a plain card of that rank."""
    return {c: 2 * c.rank + (c.suit is trump) for c in ALL_CARDS}


@functools.cache
def _spare_order(trump: Suit | None) -> dict[Card, int]:
    """What a seat would rather give up first: plain cards, then aces last, high ranks first."""
    return {c: 20 * (c.suit is trump) + 10 * (c.rank is Rank.ACE) + Rank.ACE - c.rank
            for c in ALL_CARDS}


@functools.cache
def _keep_order(trump: Suit | None) -> dict[Card, int]:
    """What a seat would rather keep: trumps above plain cards, then by rank."""
    return {c: 10 * (c.suit is trump) + c.rank for c in ALL_CARDS}


def play_game(rules: Rules, rng: random.Random, names: Sequence[str] | None = None,
              known: bool = True, max_hands: int | None = None) -> Iterator[tuple[Event, Game]]:
    """Play a whole game (or `max_hands` hands) with simulated players: yields each event and
    the position after it."""
    g = new_game(rules, names)
    sim = SimTable(rules, rng, known)
    while g.phase is not Phase.GAME_OVER:
        if max_hands is not None and g.phase is Phase.HAND_OVER and g.hand_number >= max_hands:
            return
        e = sim.next_event(g)
        after = g.apply(e)
        sim.observe(e, g)
        g = after
        yield e, g
