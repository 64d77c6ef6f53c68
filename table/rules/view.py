"""A JSON-ready summary of a position, for the page and the API (no hidden cards in it)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import Card
from .meld import MeldResult
from .notation import position_text
from .options import options_of
from .scoring import BidStanding, HandResult, bid_standing, buried_points
from .tricks import trick_winner
from .variants import Scoring

if TYPE_CHECKING:
    from .game import Game


def _cards(cards: tuple[Card, ...] | None) -> list[str] | None:
    return None if cards is None else [str(c) for c in cards]


def meld_view(m: MeldResult | None) -> dict[str, Any] | None:
    if m is None:
        return None
    return {"total": m.total, "melds": [
        {"name": x.name, "cards": [str(c) for c in x.cards], "points": x.points}
        for x in m.melds]}


def result_view(r: HandResult, names: tuple[str, ...]) -> dict[str, Any]:
    return {
        "hand": r.hand_number, "dealer": r.dealer, "declarer": r.declarer, "bid": r.bid,
        "trump": str(r.trump) if r.trump else None, "outcome": r.outcome, "made": r.made,
        "meld": list(r.meld), "meld_counted": list(r.meld_counted), "tricks": list(r.tricks),
        "score_change": list(r.score_change), "ledger_change": list(r.ledger_change),
        "checks_change": list(r.checks_change), "pot_change": r.pot_change, "note": r.note,
        "text": r.describe(names),
    }


def standing_view(b: BidStanding | None, g: Game) -> dict[str, Any] | None:
    if b is None:
        return None
    return {"declarer": b.declarer, "bid": b.bid, "side": list(b.side),
            "others": list(b.others), "meld": b.meld, "taken": b.taken, "buried": b.buried,
            "still_out": b.still_out, "needs": b.needs, "made": b.made, "to_set": b.to_set,
            "win_each": b.win_each, "set_each": b.set_each, "meld_saved": b.meld_saved,
            "meld_saving": g.rules.meld_saving.value}


def _trick_view(g: Game, plays: tuple[tuple[int, Card], ...]) -> dict[str, Any] | None:
    if not plays:
        return None
    win = plays[trick_winner([c for _, c in plays], g.trump)][0]
    return {"leader": plays[0][0], "cards": [{"seat": s, "card": str(c)} for s, c in plays],
            "winning": win, "complete": len(plays) == len(g.active)}


def game_view(g: Game) -> dict[str, Any]:
    r = g.rules
    n = r.table_seats
    kitty_visible = g.kitty_shown or (g.declarer is not None and g.kitty is not None
                                     and g.trump is not None)
    last = g.tricks[-1] if g.tricks and not (g.trick_full and g.trick == g.tricks[-1]) \
        else (g.tricks[-2] if len(g.tricks) > 1 else None)
    return {
        "variant": r.name, "description": r.description, "source": r.source,
        "options": options_of(r), "names": list(g.names), "seats": n,
        "partnerships": r.partnerships,
        "sides": [[s for s in range(n) if s % 2 == k] for k in (0, 1)] if r.partnerships
        else None,
        "scoring": r.scoring.value, "target": g.target,
        "phase": g.phase.value, "turn": g.turn, "dealer": g.dealer,
        "hand_number": g.hand_number, "active": list(g.active),
        "scores": list(g.scores),
        "ledger": list(g.ledger) if r.scoring in (Scoring.STAKES, Scoring.POT)
        or r.game_stake or r.set_stake else None,
        "pot": g.pot if r.scoring is Scoring.POT else None,
        "checks": list(g.checks) if r.scoring is Scoring.CHECKS else None,
        "auction": [{"seat": s, "bid": a} if a is not None else {"seat": s, "pass": True}
                    for s, a in g.bids],
        "high_bid": g.high_bid, "high_bidder": g.high_bidder,
        "next_bids": list(g.legal_bid_range),
        "must_bid": g.must_bid(g.turn) if g.turn is not None else None,
        "contract": None if g.declarer is None else {
            "declarer": g.declarer, "bid": g.bid, "trump": str(g.trump) if g.trump else None},
        "kitty": _cards(g.kitty) if kitty_visible else None,
        "meld": [meld_view(m) for m in g.melds],
        "trick": _trick_view(g, g.trick),
        "last_trick": _trick_view(g, last) if last else None,
        "tricks_played": len(g.tricks), "tricks_per_hand": r.hand_size,
        "tricks_won": list(g.won_tricks), "points_taken": list(g.taken),
        "reneges": [x.text for x in g.reneges],
        "result": result_view(g.result, g.names) if g.result else None,
        "history": [result_view(h, g.names) for h in g.history],
        "winner": g.winner,
        "standing": standing_view(bid_standing(g), g),
        "buried_points": buried_points(g) if g.declarer is not None else None,
        "agreement": {"due": list(g.agreement_due), "by": g.agreed_by}
        if r.agree_hands else None,
        "position": position_text(g, public=True),
    }
