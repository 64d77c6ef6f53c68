"""An independent reckoning of a finished hand, written from the rule texts (not from the code
under test), and a renege injected into a simulated hand."""

from __future__ import annotations

import random

import pytest

from table.rules import (
    Buried,
    Card,
    CardPlayed,
    Game,
    HandResult,
    IllegalAction,
    Rank,
    Renege,
    SimTable,
    Suit,
    legal_plays,
    new_game,
    preset,
)

from .game_helpers import hidden

# VARIANTS.md section 2, from the texts: A, 10, K, Q, J, 9 and the last trick.
POINTS = {
    "counters": ((10, 10, 10, 0, 0, 0), 10),      # 000, 002, 004 "streamlined"
    "classical": ((11, 10, 4, 3, 2, 0), 10),      # 001, 004 method 2
    "simplified": ((10, 10, 5, 5, 0, 0), 10),     # 004 method 1
    "counters/10": ((1, 1, 1, 0, 0, 0), 1),       # 003
}
ORDER = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE)
# 001: bid range -> (win, set) per opponent, in stakes
BROOKLYN = ((550, 32, 64), (500, 16, 32), (450, 8, 16), (400, 4, 8), (350, 2, 4), (0, 1, 2))


def value(card: Card, scheme: str) -> int:
    return POINTS[scheme][0][ORDER.index(card.rank)]


def winner(trick: tuple[tuple[int, Card], ...], trump: Suit | None) -> int:
    """Highest trump, else highest of the suit led; of two identical cards the first."""
    best_seat, best = trick[0]
    for seat, card in trick[1:]:
        if (card.suit is best.suit and card.rank > best.rank) or (
                card.suit is trump and best.suit is not trump):
            best_seat, best = seat, card
    return best_seat


def reckon(g: Game) -> tuple[list[int], list[int], list[int]]:
    """(score change, ledger change, trick points) per seat for the hand `g` just finished,
    worked out from the rule texts."""
    r = g.rules
    n = r.table_seats
    scheme = r.points.name
    d, bid, trump = g.declarer, g.bid, g.trump
    assert d is not None and bid is not None
    tricks = [0] * n
    counters = [0] * n
    won = [0] * n
    last_seat = None
    for i, t in enumerate(g.tricks):
        w = winner(t, trump)
        tricks[w] += sum(value(c, scheme) for _, c in t)
        counters[w] += sum(1 for _, c in t if c.rank in (Rank.ACE, Rank.TEN, Rank.KING))
        won[w] += 1
        if i == r.hand_size - 1:
            tricks[w] += POINTS[scheme][1]
            last_seat = w
    played = len(g.tricks) == r.hand_size
    in_play = list(tricks)  # before buried cards and discard piles: what saves a meld
    for e in g.events:  # the declarer's buried cards, or two-handed discard piles
        if isinstance(e, Buried) and e.cards is not None and played:
            tricks[e.seat] += sum(value(c, scheme) for c in e.cards)
    side = (lambda s: s % 2) if r.partnerships else (lambda s: s)
    seats_of = {side(s): [x for x in g.active if side(x) == side(s)] for s in g.active}
    meld = [m.total if m is not None else 0 for m in g.melds]
    if r.who_melds.value == "declarer":
        meld = [m if side(s) == side(d) else 0 for s, m in enumerate(meld)]
    smeld = {k: sum(meld[s] for s in v) for k, v in seats_of.items()}
    stricks = {k: sum(tricks[s] for s in v) for k, v in seats_of.items()}
    delta = {k: 0 for k in seats_of}
    made = False
    if g.conceded:
        delta[side(d)] = -bid
        if g.result is not None and g.result.outcome == "conceded" and r.who_melds.value == "all":
            for k in seats_of:
                if k != side(d):
                    delta[k] = smeld[k]
    else:
        def saved(members: list[int]) -> bool:
            return {
                "counter": any(counters[s] for s in members),                   # 000
                "counter-or-last": any(counters[s] for s in members)             # 002
                or last_seat in members,
                "point": any(in_play[s] for s in members),                      # 003
                "trick": any(won[s] for s in members),                          # 004
                "none": True,
            }[r.meld_saving.value]
        # 000, 003, 004 ask every player to save his meld; 002 only the other team
        dmeld = smeld[side(d)] if r.name == "racehorse" or saved(seats_of[side(d)]) else 0
        made = dmeld + stricks[side(d)] >= bid
        delta[side(d)] = dmeld + stricks[side(d)] if made else -bid
        for k, members in seats_of.items():
            if k == side(d):
                continue
            keep = saved(members)
            delta[k] = (smeld[k] if keep and r.who_melds.value == "all" else 0) + stricks[k]
    score = [delta.get(side(s), 0) if s in g.active or r.partnerships else 0 for s in range(n)]
    ledger = [0] * n
    if r.scoring.value == "stakes":
        score = [0] * n
        win, lose = next((w, s) for b, w, s in BROOKLYN if bid >= b)
        voluntary = g.conceded
        each = win if made or voluntary else lose
        if trump is Suit.SPADES and not voluntary:
            each *= 2
        sign = 1 if made else -1
        for s in range(n):
            ledger[s] = sign * each * (n - 1) if s == d else -sign * each
    elif r.scoring.value == "pot":
        score = [0] * n
    elif r.scoring.value == "alternate":  # 003: made +2; set -1 and each opponent +1
        score = [0] * n
        score[d] = 2 if made else -1
        if not made:
            for s in g.active:
                if s != d:
                    score[s] = 1
    return score, ledger, tricks


def check_hand(g: Game, before_scores: tuple[int, ...]) -> None:
    result = g.result
    assert isinstance(result, HandResult)
    if result.declarer is None or g.reneges:
        return
    score, ledger, tricks = reckon(g)
    played = len(g.tricks) == g.rules.hand_size
    if played and not g.conceded:
        assert sum(tricks) == g.rules.trick_total, g.position()
        assert list(result.tricks) == tricks, g.position()
        assert result.made == (result.outcome == "made")
    assert list(result.score_change) == score, g.position()
    if g.rules.scoring.value == "stakes":
        assert list(result.ledger_change) == ledger, g.position()
    if g.rules.scoring.value in ("stakes", "pot"):
        assert sum(result.ledger_change) + result.pot_change == 0, "money is not conserved"
    assert [a - b for a, b in zip(g.scores, before_scores, strict=True)] == score


def inject_renege(rules_name: str, seed: int) -> tuple[Game, int, int, str] | None:
    """Play until some seat can renege, make it renege, and finish the hand on a hidden table.
    Returns (the hidden game at the hand's end, seat, trick, the known-hands refusal)."""
    rules = preset(rules_name)
    rng = random.Random(seed)
    sim = SimTable(rules, rng, known=True)
    known = new_game(rules)
    shade = new_game(rules)
    cheat: tuple[int, int] | None = None
    refusal = ""
    for _ in range(2000):
        if shade.phase.value in ("hand-over", "game-over") and cheat is not None:
            return shade, cheat[0], cheat[1], refusal
        e = sim.next_event(shade if cheat else known)
        if cheat is None and isinstance(e, CardPlayed) and not known.trick_full:
            hand = known.hand_of(e.seat)
            assert hand is not None
            trick = [c for _, c in known.trick]
            first = not known.tricks and not known.trick
            legal = legal_plays(hand, trick, known.trump, rules, first)
            bad = [c for c in hand if c not in legal]
            if bad and rng.random() < 0.5:
                e = CardPlayed(seat=e.seat, card=rng.choice(bad))
                with pytest.raises(IllegalAction) as info:
                    known.apply(e)
                refusal = info.value.reason
                cheat = (e.seat, len(known.tricks) + 1)
        before = shade
        shade = shade.apply(hidden(e, rules))
        sim.observe(e, before)
        if cheat is None:
            known = known.apply(e)
        elif known.phase.value == "hand-over":
            pass
    return None


def proven_renege(name: str, seed: int) -> tuple[Game, Renege] | None:
    """Inject a renege (see inject_renege) and check it was refused with the seat's name and
    proven on the hidden table: the hidden game at the hand's end and the proof."""
    out = inject_renege(name, seed)
    if out is None:
        return None
    g, seat, trick, refusal = out
    assert refusal.startswith(g.names[seat])
    proofs = [r for r in g.reneges if r.seat == seat and r.trick == trick]
    assert proofs, f"seed {seed}: renege at trick {trick} by seat {seat} not proven: " \
        f"{g.position()}"
    return g, proofs[0]
