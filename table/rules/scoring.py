"""Scoring a hand and deciding the game (VARIANTS.md sections 7-9).

`score_hand` turns a finished (played, conceded or reneged) hand into a `HandResult`; `decide`
says whether the game is won once the game has added it (`Game`), and `settled` what the
winner collects. Only values: the game applies them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .cards import Card, Rank, Suit
from .seats import side_of
from .tricks import card_points, trick_winner
from .variants import MeldSaving, Rules, Scoring, TieBreak, WhoMelds

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True)
class HandResult:
    """What a hand came to. Tuples are per table seat (partners carry their side's figure)."""

    hand_number: int
    dealer: int
    declarer: int | None
    bid: int | None
    trump: Suit | None
    outcome: str          # made, set, conceded, conceded unseen, voluntary set, renege, thrown in
    made: bool | None
    meld: tuple[int, ...]
    meld_counted: tuple[bool, ...]
    tricks: tuple[int, ...]
    score_change: tuple[int, ...]
    ledger_change: tuple[int, ...]
    checks_change: tuple[int, ...]
    sets_change: tuple[int, ...]
    pot_change: int
    note: str = ""
    redeal: bool = False
    opponents_score_meld: bool = False

    def describe(self, names: tuple[str, ...]) -> str:
        if self.declarer is None:
            return f"hand {self.hand_number}: {self.note or self.outcome}"
        who = names[self.declarer]
        trump = f" in {self.trump.word}" if self.trump else ""
        return f"hand {self.hand_number}: {who} bid {self.bid}{trump}: {self.outcome}" + (
            f" ({self.note})" if self.note else "")


def _zeros(n: int) -> tuple[int, ...]:
    return (0,) * n


def thrown_in(g: Game, note: str, redeal: bool) -> HandResult:
    n = g.rules.table_seats
    return HandResult(g.hand_number, g.dealer, None, None, None, "thrown in", None,
                      _zeros(n), (False,) * n, _zeros(n), _zeros(n), _zeros(n), _zeros(n),
                      _zeros(n), 0, note, redeal)


def _trick_points(g: Game, claimed: bool = False) -> list[int]:
    """Card points per seat, the declarer's buried cards (or two-hand discards) included. (A
    claim has put the rest in the claimant's points, with buried cards that lie unseen.)"""
    r = g.rules
    pts = list(g.taken)
    if r.draw_from_stock:
        for s, pile in enumerate(g.discards):
            if pile:
                pts[s] += card_points(pile, r)
    elif r.bury and g.declarer is not None and len(g.tricks) == r.hand_size:
        buried = g.buried if g.buried is not None else _unplayed(g)
        pts[g.declarer] += card_points(buried, r)
    elif r.bury and g.declarer is not None and claimed and g.buried is not None:
        pts[g.declarer] += card_points(g.buried, r)
    return pts


def buried_points(g: Game) -> int | None:
    """What the declarer's bury is worth in tricks (`_trick_points` adds it at the end of the
    hand): None while it lies face down unseen and the hand is not played out."""
    r = g.rules
    if not r.bury or r.draw_from_stock or g.declarer is None or not g.bury_done:
        return 0 if not r.bury or r.draw_from_stock else None
    if g.buried is not None:
        return card_points(g.buried, r)
    if len(g.tricks) == r.hand_size:
        return card_points(_unplayed(g), r)
    return None


@dataclass(frozen=True)
class BidStanding:
    """How the bid stands during the hand, as `score_hand` will count it: the declaring side
    makes the bid with its meld (once saved, where the declarer must save it too), the card
    points it takes and the declarer's bury."""

    declarer: int
    bid: int
    side: tuple[int, ...]     # the declaring side's seats
    others: tuple[int, ...]   # the seats that play to set it
    meld: int                 # the declaring side's meld
    taken: int                # card points the side has taken in tricks so far
    buried: int | None        # the bury's points (None: face down, counted at the end)
    still_out: int            # card points nobody holds yet: in play (and an unseen bury)
    win_each: int = 0         # stakes: what each other seat pays if the bid is made
    set_each: int = 0         # stakes: what the declarer pays each if it is set
    meld_saved: bool = True   # False: the meld counts only once the side saves it

    @property
    def needs(self) -> int:
        """Points the declaring side still needs to make the bid, its meld counted."""
        return max(0, self.bid - self.meld - self.taken - (self.buried or 0))

    @property
    def made(self) -> bool:
        """The bid is made already, whatever the rest of the hand brings."""
        return self.needs == 0 and self.meld_saved

    @property
    def to_set(self) -> int | None:
        """Card points the other side must still take to set the bid: 0 when it is set
        already, None when it is made already."""
        if self.made:
            return None
        return max(0, self.still_out - self.needs + 1)


def bid_standing(g: Game) -> BidStanding | None:
    """The bid as it stands while the hand is played (None before a contract, after the hand
    is scored, or when it was conceded)."""
    r = g.rules
    d, bid = g.declarer, g.bid
    if d is None or bid is None or g.result is not None or g.conceded:
        return None
    dside = side_of(r, d)
    side = tuple(s for s in g.active if side_of(r, s) == dside)
    others = tuple(s for s in g.active if side_of(r, s) != dside)
    meld = [m.total if m is not None else 0 for m in g.melds]
    buried = buried_points(g)
    still_out = r.trick_total - sum(g.taken) - (buried or 0)
    win_each = set_each = 0
    if r.scoring is Scoring.STAKES:
        row, mult = r.stake_row(bid), _trump_multiplier(g)
        win_each, set_each = row.win * mult, row.set * mult
    saved = not r.declarer_saves_meld or meld_saved(g, list(side))
    return BidStanding(d, bid, side, others, sum(meld[s] for s in side),
                       sum(g.taken[s] for s in side), buried, still_out, win_each, set_each,
                       saved)


def _trump_multiplier(g: Game) -> int:
    """Stakes double in spades, triple in hearts, where the rules say so."""
    r = g.rules
    if r.spades_double and g.trump is Suit.SPADES:
        return 2
    if r.hearts_triple and g.trump is Suit.HEARTS:
        return 3
    return 1


def _unplayed(g: Game) -> list[Card]:
    """What a full deck less every card played leaves: the buried cards, seen or not."""
    left = [0] * 24
    for c in g.rules.deck():
        left[c.index] += 1
    for t in g.tricks:
        for _, c in t:
            left[c.index] -= 1
    return [Card.from_index(i) for i, n in enumerate(left) for _ in range(max(0, n))]


def meld_saved(g: Game, seats: list[int], claim: int | None = None) -> bool:
    """Whether `seats` (a side) have taken what saves their meld so far (`claim`: the seat that
    claimed the rest, which took every trick left, the last one too)."""
    rule = g.rules.meld_saving
    if rule is MeldSaving.NONE:
        return True
    if rule is MeldSaving.TRICK:
        return any(g.won_tricks[s] for s in seats)
    if rule is MeldSaving.POINT:
        return any(g.taken[s] for s in seats)
    last = g.tricks[-1] if len(g.tricks) == g.rules.hand_size else None
    took_last = claim in seats
    if last is not None:
        took_last = last[trick_winner([c for _, c in last], g.trump)][0] in seats
    if rule is MeldSaving.COUNTER_OR_LAST:
        return any(g.counters[s] for s in seats) or took_last
    return any(g.counters[s] for s in seats)


def score_hand(g: Game, unseen: bool = False, claim: int | None = None,
               claim_made: bool | None = None) -> HandResult:
    """The result of the hand `g` has just finished (played out, conceded, reneged or claimed:
    `claim` is the claimant's seat, `claim_made` the result claimed where only it counts)."""
    r = g.rules
    n = r.table_seats
    d = g.declarer
    bid = g.bid
    assert d is not None and bid is not None
    dside = side_of(r, d)
    sides = sorted({side_of(r, s) for s in g.active})
    members = {sd: [s for s in g.active if side_of(r, s) == sd] for sd in sides}
    meld = [m.total if m is not None else 0 for m in g.melds]
    if r.who_melds is WhoMelds.DECLARER:
        meld = [m if side_of(r, s) == dside else 0 for s, m in enumerate(meld)]
    tricks = _trick_points(g, claimed=claim is not None)
    side_meld = {sd: sum(meld[s] for s in members[sd]) for sd in sides}
    side_tricks = {sd: sum(tricks[s] for s in members[sd]) for sd in sides}
    renege = g.reneges[0] if g.reneges else None
    played = len(g.tricks) == r.hand_size

    side_delta = {sd: 0 for sd in sides}
    counted = {sd: False for sd in sides}
    note = ""
    opp_meld = False
    if renege is not None:
        note = renege.text
        rside = side_of(r, renege.seat)
        if rside == dside:
            outcome, made = "renege", False
            side_delta[dside] = -bid
            for sd in sides:
                if sd != dside:
                    side_delta[sd] = side_meld[sd]
                    counted[sd] = True
        else:
            outcome, made = "renege", True
            side_delta[dside] = bid + side_meld[dside]
            counted[dside] = True
            for sd in sides:
                if sd == rside:
                    side_delta[sd] = -bid
                elif sd != dside:
                    side_delta[sd] = side_meld[sd]
                    counted[sd] = True
    elif g.conceded:
        made = False
        if unseen:
            outcome = "conceded unseen"
            side_delta[dside] = -bid
        elif r.voluntary_set:
            outcome = "voluntary set"
            side_delta[dside] = -bid
        else:
            outcome = "conceded"
            side_delta[dside] = -bid
            opp_meld = r.melds_all
            for sd in sides:
                if sd != dside and opp_meld:
                    side_delta[sd] = side_meld[sd]
                    counted[sd] = True
    elif r.unburied_forfeit and r.bury and played and not g.bury_done:
        # 003: not burying, found at the end, forfeits the hand: "going up" and "each opponent
        # receiving 12 points for trick play" (with their meld, saved by those points)
        outcome, made, note = "forfeit", False, "the declarer did not bury"
        side_delta[dside] = -bid
        tricks = [r.unburied_forfeit if s in g.active and side_of(r, s) != dside else 0
                  for s in range(n)]
        for sd in sides:
            if sd != dside:
                counted[sd] = r.melds_all
                side_delta[sd] = (side_meld[sd] if counted[sd] else 0) + sum(
                    tricks[s] for s in members[sd])
    elif claim_made is not None:  # settled by the result: the claim is the result
        made = claim_made
        outcome = "made" if made else "set"
        side_delta[dside] = side_meld[dside] + side_tricks[dside] if made else -bid
        counted[dside] = made
        note = "the rest claimed" if claim is None or made or side_of(r, claim) != dside \
            else "defeat acknowledged"
    else:
        # 000, 003, 004: the declarer too must save his meld; 002 asks it of the other team only
        dsaved = not r.declarer_saves_meld or meld_saved(g, members[dside], claim)
        total = (side_meld[dside] if dsaved else 0) + side_tricks[dside]
        made = total >= bid
        outcome = "made" if made else "set"
        if made:
            side_delta[dside] = total
            counted[dside] = dsaved
        else:
            side_delta[dside] = -bid
        for sd in sides:
            if sd == dside:
                continue
            keep = meld_saved(g, members[sd], claim)
            counted[sd] = keep and r.melds_all
            side_delta[sd] = (side_meld[sd] if counted[sd] else 0) + side_tricks[sd]
        if claim is not None:
            note = "the rest claimed"
        elif not played:
            note = "hand not played out"

    score = [0] * n
    for s in range(n):
        sd = side_of(r, s)
        if sd in side_delta:
            score[s] = side_delta[sd]
    ledger, pot = _money(g, made, outcome, unseen)
    checks = _checks(g, made, outcome)
    sets = [0] * n
    if r.set_stake and not made:
        sets[d] = 1 if outcome in ("conceded", "conceded unseen", "voluntary set") else 2
    if renege is not None and side_of(r, renege.seat) != dside and r.set_stake:
        sets[renege.seat] = 1
    meld_counted = tuple(counted.get(side_of(r, s), False) for s in range(n))
    if r.scoring in (Scoring.STAKES, Scoring.POT, Scoring.ALTERNATE):
        score = _alternate(g, made) if r.scoring is Scoring.ALTERNATE else [0] * n
    return HandResult(
        g.hand_number, g.dealer, d, bid, g.trump, outcome, made, tuple(meld), meld_counted,
        tuple(tricks), tuple(score), tuple(ledger), tuple(checks), tuple(sets), pot, note,
        opponents_score_meld=opp_meld,
    )


def _alternate(g: Game, made: bool | None) -> list[int]:
    """003 alternate: made +2; set (or thrown in) -1 and each opponent +1."""
    r = g.rules
    out = [0] * r.table_seats
    d = g.declarer
    assert d is not None
    if made:
        out[d] = r.alternate_made
    else:
        out[d] = r.alternate_set
        for s in g.active:
            if s != d:
                out[s] = r.alternate_opponent
    return out


def _money(g: Game, made: bool | None, outcome: str, unseen: bool) -> tuple[list[int], int]:
    """Stakes (001) or the pot (001 pot version): what each seat wins or pays, in stake units."""
    r = g.rules
    n = r.table_seats
    ledger = [0] * n
    d = g.declarer
    bid = g.bid
    assert d is not None and bid is not None
    payers = [s for s in range(n) if s != d]  # the player sitting out pays or collects too
    voluntary = outcome in ("voluntary set", "conceded", "conceded unseen")
    mult = _trump_multiplier(g) if not voluntary or r.scoring is Scoring.POT else 1
    pot = 0
    if r.scoring is Scoring.STAKES:
        row = r.stake_row(bid)
        each = (row.win if made or voluntary else row.set) * mult
        sign = 1 if made else -1
        for s in payers:
            ledger[s] -= sign * each
        ledger[d] += sign * each * len(payers)
    elif r.scoring is Scoring.POT:
        # "divide the bid by 10 and round down to the next 5 cents" (the bid as written)
        unit = (bid * r.scale // 10) // 5 * 5
        if made:
            for s in payers:
                ledger[s] -= unit * mult
            ledger[d] += unit * mult * len(payers)
            if bid >= r.pot_min_bid:
                ledger[d] += g.pot
                pot = -g.pot + r.pot_ante * n  # everyone antes again
                for s in range(n):
                    ledger[s] -= r.pot_ante
        else:
            each = unit * mult * (1 if voluntary else 2)
            for s in payers:
                ledger[s] += each
            ledger[d] -= each * (len(payers) + 1)
            pot = each
    return ledger, pot


def _checks(g: Game, made: bool | None, outcome: str) -> list[int]:
    """004 check pinochle: checks for meld shown, for losing after looking, for the game."""
    r = g.rules
    out = [0] * r.table_seats
    if r.scoring is not Scoring.CHECKS:
        return out
    c = r.checks
    for s, m in enumerate(g.melds):
        if m is None:
            continue
        names = [x.name for x in m.melds]
        # a double counts as the two singles it holds, so scoring doubles as two singles
        # (double_bonuses=no) changes no check
        out[s] += c.run * (_singles(names, "run") + sum(1 for x in names
                                                         if x.startswith("run with")))
        out[s] += c.aces_around * _singles(names, "aces around")
        if _roundtable(g.meld_cards[s]):
            out[s] += c.roundtable
        out[s] += c.double_pinochle * (_singles(names, "pinochle") // 2)
        out[s] += c.double_around * sum(_singles(names, f"{rank} around") // 2
                                        for rank in ("aces", "kings", "queens", "jacks"))
        if c.double_marriage:
            out[s] += c.double_marriage * _double_marriages(g.meld_cards[s])
        # "7 nines ... (do not need to win the bid to get credit)": shown with the meld
        if c.seven_nines and sum(1 for x in g.meld_cards[s] if x.rank is Rank.NINE) >= 7:
            out[s] += c.seven_nines
    d = g.declarer
    assert d is not None
    if not made and outcome != "conceded unseen":
        out[d] += c.looked_and_lost
        if outcome in ("set", "renege", "forfeit"):
            out[d] += c.played_and_lost
    return out


def _singles(names: list[str], single: str) -> int:
    """How many of the meld `single` the named melds hold (a double holds two)."""
    return sum(1 for x in names if x == single) + 2 * sum(1 for x in names
                                                          if x == "double " + single)


def _roundtable(cards: tuple[Card, ...]) -> bool:
    return all(any(x.suit is s and x.rank is Rank.KING for x in cards) and
               any(x.suit is s and x.rank is Rank.QUEEN for x in cards) for s in Suit)


def _double_marriages(cards: tuple[Card, ...]) -> int:
    return sum(1 for s in Suit
               if sum(1 for x in cards if x.suit is s and x.rank is Rank.KING) >= 2
               and sum(1 for x in cards if x.suit is s and x.rank is Rank.QUEEN) >= 2)


def add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def decide(g: Game, result: HandResult) -> tuple[int | None, int, list[int]]:
    """(winner seat or None, the target now, the seats tied for a tie-break hand)."""
    r = g.rules
    target = g.target
    if r.scoring in (Scoring.STAKES, Scoring.POT):
        return None, target, []
    seats = _side_heads(r)
    score = {s: g.scores[s] for s in seats}
    best = max(score.values())
    # "goes beyond" the limit: below it (or, as an option, at it)
    low = r.negative_limit + (1 if r.negative_limit_reached else 0)
    if r.negative_limit and any(v < low for v in score.values()) and best > 0:
        return _highest(score)
    if r.deals and g.deals_done >= r.deals:
        return _highest(score)
    if not target:
        return None, target, []
    reached = [s for s in seats if score[s] >= target]
    if not reached:
        return None, target, []
    if len(reached) == 1:
        return reached[0], target, []
    if r.tie_break is TieBreak.OVERTIME:
        return None, target + r.overtime_step, []
    if r.tie_break is TieBreak.BIDDER_OUT and result.declarer is not None:
        dhead = _head(r, result.declarer)
        if dhead in reached:
            return dhead, target, []
    return _highest({s: score[s] for s in reached}, target)


def _highest(score: dict[int, int], target: int = 0) -> tuple[int | None, int, list[int]]:
    best = max(score.values())
    top = [s for s, v in score.items() if v == best]
    if len(top) == 1:
        return top[0], target, []
    return None, target, top


def _side_heads(r: Rules) -> list[int]:
    """One seat per side: every seat, or seats 0 and 1 for the two partnerships."""
    return [0, 1] if r.partnerships else list(range(r.table_seats))


def _head(r: Rules, seat: int) -> int:
    return seat % 2 if r.partnerships else seat


def settled(g: Game, winner: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The checks and ledger once `winner` has won the game: pinochle's game checks, 000's
    game and set stakes."""
    r = g.rules
    n = r.table_seats
    checks = list(g.checks)
    ledger = list(g.ledger)
    if r.scoring is Scoring.CHECKS:
        checks[winner] += r.checks.game
    if r.game_stake or r.set_stake:
        for s in range(n):
            if s == winner:
                continue
            owed = r.game_stake + r.set_stake * g.sets[s]
            ledger[s] -= owed
            ledger[winner] += owed
    return tuple(checks), tuple(ledger)
