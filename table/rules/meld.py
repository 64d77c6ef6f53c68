"""Meld: the exact highest meld of a set of cards for a trump suit under a variant's table.

The classes are those of 000 and 001 (004 numbers them differently): class I runs, marriages
and the dix (002 shows the nine of trump in its own category, which scores the same), class II
pinochles, class III arounds. A card serves in at most one meld of each class and in melds of
several classes at once (000: 60 queens and a pinochle share the queen of spades).

Doubles score as `MeldValues` says; a `double_*` of None scores two singles. The double deck
(four copies, 004) has no values for three or four of a kind in the texts: here every pair of
like melds scores as a double and an odd one left over as a single, so twelve aces are double
aces around plus aces around (1000 + 100) and sixteen are two doubles (2000).
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import ALL_CARDS, ALL_SUITS, Card, Rank, Suit, format_cards, multiset_union
from .variants import MeldValues, Rules


class MeldClass(enum.Enum):
    """The class a meld counts in: a card is used at most once per class."""

    MARRIAGES = "runs and marriages"  # class I in 000/001 (class II in 004)
    NINE = "nine of trump"            # 002 only; elsewhere the dix is class I
    PINOCHLES = "pinochles"           # class II in 000/001 (class III in 004)
    AROUNDS = "arounds"               # class III in 000/001 (class I in 004)
    ROUNDHOUSE = "roundhouse"         # the roundhouse option: counts in classes I and III


@dataclass(frozen=True, slots=True)
class Meld:
    """One scoring combination: `Meld("marriage in hearts", (KH, QH), 20, MARRIAGES)`."""

    name: str
    cards: tuple[Card, ...]
    points: int
    meld_class: MeldClass

    def __str__(self) -> str:
        return f"{self.name} {self.points} ({format_cards(self.cards)})"


@dataclass(frozen=True, slots=True)
class MeldResult:
    """The best meld of some cards: the `melds` shown and their `total`."""

    total: int
    melds: tuple[Meld, ...]

    @property
    def cards(self) -> tuple[Card, ...]:
        """The physical cards the melds need, sorted (a card shared by classes counts once)."""
        per_class: dict[MeldClass, list[int]] = {}  # card indexes (ints compare fastest)
        for meld in self.melds:
            cls = meld.meld_class
            if cls is MeldClass.ROUNDHOUSE:
                # its marriages (and any run) count in class I, its kings and queens in class III
                per_class.setdefault(MeldClass.MARRIAGES, []).extend(
                    [c.index for c in meld.cards])
                per_class.setdefault(MeldClass.AROUNDS, []).extend(
                    [c.index for c in meld.cards if c.rank in _KQ])
            else:
                per_class.setdefault(cls, []).extend([c.index for c in meld.cards])
        need: list[int] = []
        for more in per_class.values():  # each face as often as one class needs it
            need = multiset_union(need, more)
        need.sort()
        return tuple(map(ALL_CARDS.__getitem__, need))

    def __str__(self) -> str:
        if not self.melds:
            return "no meld"
        return "; ".join(str(m) for m in self.melds) + f" = {self.total}"


_KQ = (Rank.KING, Rank.QUEEN)
_NO_MELD = MeldResult(0, ())

# The hot path counts cards in a list indexed by `Card.index` (suit * 6 + rank, suits S H C D,
# ranks 9 J Q K 10 A) and unpacks it in that order (tests/rules/test_cards.py pins the order).
_AROUND_RANKS = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK)
_RANK_PLURAL = {Rank.ACE: "aces", Rank.KING: "kings", Rank.QUEEN: "queens", Rank.JACK: "jacks"}


@functools.lru_cache(maxsize=32)
def _plain(meld: MeldValues) -> MeldValues:
    return meld.without_double_bonuses()


def _doubled(count: int, single: int, double: int | None) -> int:
    """Points for `count` like melds: pairs as doubles where the table has a double value."""
    if double is None:
        return count * single
    return (count >> 1) * double + (count & 1) * single


class _Table:
    """The melds of one trump under one `MeldValues`, built once and shared by every result."""

    __slots__ = (
        "around", "dix", "double_around", "double_pinochle", "double_royal", "double_run",
        "joseph", "marriage", "meld", "pinochle", "roundhouse", "royal", "run", "run_roundhouse",
        "trump", "trump_memo",
    )

    def __init__(self, meld: MeldValues, trump: Suit | None) -> None:
        self.meld = meld
        self.trump = trump.index if trump is not None else -1
        self.trump_memo: dict[tuple[int, int, int, int, int], tuple[int, int, int, int]] = {}
        m = meld
        one = MeldClass.MARRIAGES

        def of(suit: Suit, *ranks: Rank, twice: bool = False) -> tuple[Card, ...]:
            return tuple(Card(suit, r) for r in ranks for _ in range(2 if twice else 1))

        run_ranks = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK)
        kq = (Rank.KING, Rank.QUEEN)
        t = trump if trump is not None else Suit.SPADES  # trump-only melds are never used then
        self.run = Meld("run", of(t, *run_ranks), m.run, one)
        self.double_run = (Meld("double run", of(t, *run_ranks, twice=True), m.double_run, one)
                           if m.double_run is not None else None)
        self.royal = Meld("royal marriage", of(t, *kq), m.royal_marriage, one)
        self.double_royal = (
            Meld("double royal marriage", of(t, *kq, twice=True), m.double_royal_marriage, one)
            if m.double_royal_marriage is not None else None)
        self.joseph = (
            Meld("run with double royal marriage",
                 of(t, Rank.ACE, Rank.TEN, Rank.KING, Rank.KING, Rank.QUEEN, Rank.QUEEN,
                    Rank.JACK), m.double_royal_with_run, one)
            if m.double_royal_with_run is not None else None)
        self.marriage = tuple(Meld(f"marriage in {s.word}", of(s, *kq), m.marriage, one)
                              for s in ALL_SUITS)
        self.dix = Meld("dix", of(t, Rank.NINE), m.dix,
                        MeldClass.NINE if m.dix_own_class else one)
        pin = (Card(Suit.SPADES, Rank.QUEEN), Card(Suit.DIAMONDS, Rank.JACK))
        self.pinochle = Meld("pinochle", pin, m.pinochle, MeldClass.PINOCHLES)
        self.double_pinochle = (
            Meld("double pinochle", (pin[0], pin[0], pin[1], pin[1]), m.double_pinochle,
                 MeldClass.PINOCHLES)
            if m.double_pinochle is not None else None)
        singles = (m.aces, m.kings, m.queens, m.jacks)
        doubles = (m.double_aces, m.double_kings, m.double_queens, m.double_jacks)
        self.around = tuple(
            Meld(f"{_RANK_PLURAL[r]} around", tuple(Card(s, r) for s in ALL_SUITS), v,
                 MeldClass.AROUNDS)
            for r, v in zip(_AROUND_RANKS, singles, strict=True))
        self.double_around = tuple(
            Meld(f"double {_RANK_PLURAL[r]} around",
                 tuple(Card(s, r) for s in ALL_SUITS for _ in range(2)), v, MeldClass.AROUNDS)
            if v is not None else None
            for r, v in zip(_AROUND_RANKS, doubles, strict=True))
        rh_cards = tuple(c for s in ALL_SUITS for c in of(s, *kq))
        self.roundhouse = (Meld("roundhouse", rh_cards, m.roundhouse, MeldClass.ROUNDHOUSE)
                           if m.roundhouse is not None else None)
        self.run_roundhouse = (
            Meld("run with roundhouse",
                 of(t, *run_ranks) + tuple(c for s in ALL_SUITS if s is not t
                                           for c in of(s, *kq)),
                 m.roundhouse_with_run, MeldClass.ROUNDHOUSE)
            if m.roundhouse is not None and trump is not None else None)

    def trump_suit(self, a: int, t: int, k: int, q: int, j: int) -> tuple[int, int, int, int]:
        """`_best_trump_suit`, remembered: with up to four copies a face, at most 5**5 keys."""
        key = (a, t, k, q, j)
        found = self.trump_memo.get(key)
        if found is None:
            found = self.trump_memo[key] = _best_trump_suit(a, t, k, q, j, self.meld)
        return found


_TABLES: dict[tuple[int, int], _Table] = {}


def _table(meld: MeldValues, trump: Suit | None) -> _Table:
    key = (id(meld), id(trump))
    table = _TABLES.get(key)
    if table is None or table.meld is not meld:  # the table holds `meld`, so ids are not reused
        if len(_TABLES) > 256:
            _TABLES.clear()
        table = _TABLES[key] = _Table(meld, trump)
    return table


def _best_trump_suit(
    a: int, t: int, k: int, q: int, j: int, mv: MeldValues,
) -> tuple[int, int, int, int]:
    """Class I of the trump suit from its A 10 K Q J counts: (points, runs, royal marriages,
    St Joseph runs with a double royal marriage), each count beside the others.

    A run's K-Q is not also a royal marriage (000, 002), so a royal marriage beside a run needs
    a second K and Q. The St Joseph meld is a run plus one more K-Q (the double royal marriage
    shares the run's K-Q)."""
    best = (-1, 0, 0, 0)
    joseph = mv.double_royal_with_run
    for runs in range(min(a, t, k, q, j), -1, -1):
        royals = min(k, q) - runs
        for both in range(min(runs, royals) if joseph is not None else 0, -1, -1):
            points = (both * (joseph or 0)
                      + _doubled(runs - both, mv.run, mv.double_run)
                      + _doubled(royals - both, mv.royal_marriage, mv.double_royal_marriage))
            if points > best[0]:
                best = (points, runs - both, royals - both, both)
    return best


def _add(out: list[Meld], count: int, single: Meld, double: Meld | None) -> None:
    if double is None:
        out.extend([single] * count)
    else:
        out.extend([double] * (count >> 1))
        if count & 1:
            out.append(single)


def best_meld(cards: Iterable[Card], trump: Suit | None, rules: Rules) -> MeldResult:
    """The highest meld the cards make with `trump` under `rules.meld` (exact, not greedy).

    `cards` is a multiset (a list with repeated faces); buried cards are simply not passed.
    With `trump` None (not named yet) every marriage is a plain one and there is no run or dix.
    """
    table = _table(_values(rules), trump)
    (total, pairs, h, shared, runs, royals, joseph, nines, pinochles, aces, kings, queens,
     jacks) = _score(card_counts(cards), table)
    if not total:
        return _NO_MELD
    ti = table.trump
    out: list[Meld] = []
    if runs:
        _add(out, runs, table.run, table.double_run)
    if joseph and table.joseph is not None:
        out.extend([table.joseph] * joseph)
    if shared and table.run_roundhouse is not None:
        out.extend([table.run_roundhouse] * shared)
    if h > shared and table.roundhouse is not None:
        out.extend([table.roundhouse] * (h - shared))
    if royals:
        _add(out, royals, table.royal, table.double_royal)
    for s in range(4):
        if s != ti and pairs[s] > h:
            out.extend([table.marriage[s]] * (pairs[s] - h))
    if nines:
        out.extend([table.dix] * nines)
    if pinochles:
        _add(out, pinochles, table.pinochle, table.double_pinochle)
    for i, count in enumerate((aces, kings - h, queens - h, jacks)):
        if count:
            _add(out, count, table.around[i], table.double_around[i])
    return MeldResult(total, tuple(out))


def meld_total(counts: Sequence[int], trump: Suit | None, rules: Rules) -> int:
    """`best_meld(cards, trump, rules).total`, from the cards' `card_counts` (a player weighing
    trumps counts a hand once and scores it for each)."""
    return _score(counts, _table(_values(rules), trump))[0]


def card_counts(cards: Iterable[Card]) -> list[int]:
    """How many of each face, indexed by `Card.index`."""
    n = [0] * 24
    for card in cards:
        n[card.index] += 1
    return n


def _values(rules: Rules) -> MeldValues:
    return rules.meld if rules.double_bonuses else _plain(rules.meld)


def _score(n: Sequence[int], table: _Table) -> tuple[Any, ...]:
    """The best meld of the counts `n`: (total, K-Q pairs per suit, roundhouses, roundhouses
    sharing a run, runs, royal marriages, St Joseph melds, dix, pinochles, aces, kings, queens
    and jacks around)."""
    mv = table.meld
    ti = table.trump
    # Plain conditionals rather than min(): this is the hot path, and most counts are 0.
    (_, sj, sq, sk, _, sa, _, hj, hq, hk, _, ha,
     _, cj, cq, ck, _, ca, _, dj, dq, dk, _, da) = n
    pairs = [sk if sk < sq else sq, hk if hk < hq else hq,  # K-Q pairs in each suit
             ck if ck < cq else cq, dk if dk < dq else dq]
    kings = min(sk, hk, ck, dk) if sk and hk and ck and dk else 0
    queens = min(sq, hq, cq, dq) if sq and hq and cq and dq else 0
    aces = min(sa, ha, ca, da) if sa and ha and ca and da else 0
    jacks = min(sj, hj, cj, dj) if sj and hj and cj and dj else 0
    pinochles = sq if sq < dj else dj
    if ti >= 0:
        nines, tj, tq, tk, tt, ta = n[ti * 6:ti * 6 + 6]  # the trump suit, 9 J Q K 10 A
        plain_pairs = sum(pairs) - pairs[ti]
    else:
        ta = tt = tk = tq = tj = nines = 0
        plain_pairs = sum(pairs)

    if mv.roundhouse is None or not min(pairs):
        h = shared = 0
        runs = royals = joseph = trump_points = 0
        if tk and tq:
            trump_points, runs, royals, joseph = table.trump_suit(ta, tt, tk, tq, tj)
        best = trump_points + plain_pairs * mv.marriage
        if kings:
            best += _doubled(kings, mv.kings, mv.double_kings)
        if queens:
            best += _doubled(queens, mv.queens, mv.double_queens)
    else:
        best, h, shared, runs, royals, joseph = _with_roundhouses(
            table, min(pairs), kings, queens, plain_pairs, (ta, tt, tk, tq, tj))

    total = best + nines * mv.dix
    if pinochles:
        total += _doubled(pinochles, mv.pinochle, mv.double_pinochle)
    if aces:
        total += _doubled(aces, mv.aces, mv.double_aces)
    if jacks:
        total += _doubled(jacks, mv.jacks, mv.double_jacks)
    return (total, pairs, h, shared, runs, royals, joseph, nines, pinochles, aces, kings,
            queens, jacks)


def _with_roundhouses(
    table: _Table, houses: int, kings: int, queens: int, plain_pairs: int,
    trump_counts: tuple[int, int, int, int, int],
) -> tuple[int, int, int, int, int, int]:
    """The roundhouse option ties class I to class III: try each number of roundhouses (h) and
    how many of them share their trump K-Q with a run (shared). On a tie the first tried is
    shown: roundhouses first, then a run of its own. Returns the class I points plus kings and
    queens around, and h, shared, runs, royal marriages, St Joseph melds."""
    mv = table.meld
    ta, tt, tk, tq, tj = trump_counts
    has_trump = table.trump >= 0
    best = -1
    pick = (0, 0, 0, 0, 0)
    for h in range(houses, -1, -1):
        common = (_doubled(kings - h, mv.kings, mv.double_kings)
                  + _doubled(queens - h, mv.queens, mv.double_queens)
                  + (plain_pairs - h * (3 if has_trump else 4)) * mv.marriage)
        for shared in range((min(h, ta, tt, tj) if has_trump else 0) + 1):
            points = common + (h - shared) * (mv.roundhouse or 0) + shared * mv.roundhouse_with_run
            runs = royals = joseph = 0
            if has_trump:
                trump_points, runs, royals, joseph = table.trump_suit(
                    ta - shared, tt - shared, tk - h, tq - h, tj - shared)
                points += trump_points
            if points > best:
                best = points
                pick = (h, shared, runs, royals, joseph)
    return (best, *pick)
