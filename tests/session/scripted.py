"""Scripted games for the session tests: seeded deals with known hands, played legally by the
real rules core, with refused events, misreads corrected and undos mixed in on purpose.

Each step is one event and the verdict the session must give it (every event makes exactly one
journal entry, so step i is journal entry i + 1).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from table.rules import (
    BidMade,
    Buried,
    Card,
    CardPlayed,
    CardsPassed,
    Corrected,
    Event,
    HandDealt,
    KittyShown,
    MeldShown,
    Passed,
    Rules,
    TrickGathered,
    TrumpNamed,
    Undone,
    best_meld,
    legal_plays,
)
from table.rules.game import Game, IllegalAction, Phase, new_game
from table.rules.history import replay


@dataclass(frozen=True)
class Step:
    event: Event
    accepted: bool


def scripted_game(rules: Rules, names: Sequence[str], seed: int, hands: int = 1,
                  mischief: float = 0.1) -> list[Step]:
    """Steps that deal and play `hands` hands (fewer if the game ends first).

    With probability `mischief` per move the script first adds an event the rules must refuse
    (a card from the wrong seat), plays a wrong card and corrects it, or makes a move, undoes it
    and makes it again.
    """
    rng = random.Random(seed)
    steps: list[Step] = []
    accepted: list[tuple[int, Event]] = []
    game = new_game(rules, names)

    def record(event: Event) -> None:
        nonlocal game
        number = len(steps) + 1
        try:
            if isinstance(event, Corrected | Undone):
                after = replay(rules, names, [*accepted, (number, event)])
            else:
                after = game.apply(event)
        except IllegalAction:
            steps.append(Step(event, False))
            return
        steps.append(Step(event, True))
        accepted.append((number, event))
        game = after

    while game.phase is not Phase.GAME_OVER:
        if game.phase in (Phase.DEAL, Phase.HAND_OVER) and game.hand_number >= hands:
            break
        move = _next_move(game, rng)
        roll = rng.random()
        if roll < mischief / 3:
            record(_out_of_turn(game, move))
        elif roll < 2 * mischief / 3 and isinstance(move, CardPlayed):
            wrong = _wrong_card(game, move, rng)
            if wrong is not None:
                record(wrong)
                record(Corrected(target=len(steps), replacement=move, source="web"))
                continue
        elif roll < mischief:
            record(move)
            record(Undone(source="web"))
        record(move)
        assert steps[-1].accepted, f"the script's own move was refused: {move.describe()}"
    return steps


def _next_move(g: Game, rng: random.Random) -> Event:
    """A legal event for the position (hands are known)."""
    r = g.rules
    if g.phase in (Phase.DEAL, Phase.HAND_OVER):
        return _deal(g, rng)
    hands = g.hands
    assert hands is not None
    if g.phase is Phase.AUCTION:
        seat = g.turn
        assert seat is not None
        forced = g.must_bid(seat)
        if forced is not None:
            return BidMade(seat=seat, amount=forced, source="gpio")
        if g.high_bid is None or (g.high_bid < r.min_bid + 60 and rng.random() < 0.5):
            return BidMade(seat=seat, amount=r.next_bid(g.high_bid), source="gpio")
        return Passed(seat=seat, source="gpio")
    declarer = g.declarer
    assert declarer is not None
    if g.phase is Phase.TRUMP:
        if not g.kitty_shown and r.kitty_size:
            assert g.kitty is not None
            return KittyShown(cards=g.kitty, source="camera")
        hand = hands[declarer]
        suit = max({c.suit for c in hand}, key=lambda s: best_meld(hand, s, r).total)
        return TrumpNamed(seat=declarer, suit=suit, source="gpio")
    if g.phase is Phase.BURY:
        return Buried(seat=declarer, cards=_spare(hands[declarer], g, r.bury), source="camera")
    partner = (declarer + 2) % 4
    if g.phase is Phase.PASSING:
        return CardsPassed(seat=partner, to_seat=declarer, cards=_spare(hands[partner], g,
                           r.pass_cards), source="camera")
    if g.phase is Phase.MELD and r.pass_cards and len(g.passes) < 2:
        return CardsPassed(seat=declarer, to_seat=partner, cards=_spare(hands[declarer], g,
                           r.pass_cards), source="camera")
    if g.phase is Phase.MELD:
        for seat in g.active:
            if g.melds[seat] is None and (r.melds_all or seat == declarer):
                cards = best_meld(hands[seat], g.trump, r).cards
                return MeldShown(seat=seat, cards=cards, source="camera")
    if g.trick_full:
        return TrickGathered(source="camera")
    seat = g.turn
    assert seat is not None
    trick = [c for _, c in g.trick]
    first = not g.tricks and not g.trick
    card = rng.choice(legal_plays(hands[seat], trick, g.trump, r, first))
    return CardPlayed(seat=seat, card=card, source="camera")


def _deal(g: Game, rng: random.Random) -> HandDealt:
    r = g.rules
    dealer = g.dealer
    if g.phase is Phase.HAND_OVER and g.result is not None and not g.result.redeal:
        dealer = (dealer + 1) % r.table_seats
    deck = r.deck()
    rng.shuffle(deck)
    hands: list[tuple[Card, ...]] = []
    n = r.table_seats
    active = [(dealer + 1 + i) % n for i in range(n)][:r.players]
    for seat in range(n):
        if seat in active:
            hands.append(tuple(deck[:r.hand_size]))
            deck = deck[r.hand_size:]
        else:
            hands.append(())
    return HandDealt(dealer=dealer, hands=tuple(hands), kitty=tuple(deck[:r.kitty_size]),
                     source="sim")


def _spare(hand: Sequence[Card], g: Game, count: int) -> tuple[Card, ...]:
    """`count` cards of `hand` that its best meld does not need, lowest first."""
    rest = list(hand)
    for card in best_meld(hand, g.trump, g.rules).cards:
        rest.remove(card)
    rest.sort(key=lambda c: (c.rank, c.suit.index))
    return tuple(rest[:count])


def _out_of_turn(g: Game, move: Event) -> Event:
    """The same kind of move by a seat that may not make it now."""
    seat = g.turn if g.turn is not None else 0
    wrong = (seat + 1) % g.rules.table_seats
    if isinstance(move, CardPlayed):
        return CardPlayed(seat=wrong, card=move.card, source="camera")
    return Passed(seat=wrong, source="gpio")


def _wrong_card(g: Game, move: CardPlayed, rng: random.Random) -> CardPlayed | None:
    """Another legal card the camera might have misread for `move`'s."""
    hands = g.hands
    assert hands is not None
    trick = [c for _, c in g.trick]
    first = not g.tricks and not g.trick
    others = [c for c in legal_plays(hands[move.seat], trick, g.trump, g.rules, first)
              if c != move.card]
    if not others:
        return None
    return CardPlayed(seat=move.seat, card=rng.choice(others), source="camera")
