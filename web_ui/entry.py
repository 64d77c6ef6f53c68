"""What a person may enter on the page in place of the camera, for the position as it stands.

A table without a camera (or with one that is covered or switched off) is played from a phone:
the card a seat plays, the kitty shown, each seat's meld, the declarer's bury and the racehorse
pass (both face down), a trick gathered, Brooklyn's push of a 300 bid to the dealer, each
two-handed turn at the stock (first card kept or rejected) and a claim of the rest of the hand.
The page shows only the controls the position calls for; the game still judges every entry.

A camera could enter the two-handed draws too: it would need to see, per turn, which seat took
the top card and whether that card went to the hand or face down to the seat's discard pile
(two card-back movements from the stock area to a seat's hand or pile area; the faces stay
private, so it would never read them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from table.rules import Card, Rank, Scoring, StockDrawn, Suit, WhoMelds
from table.rules.game import Game, Phase
from table.rules.seats import partner_of

# the order of the page's card pickers: one row per suit, high to low
_SUITS = ("S", "H", "D", "C")
_RANKS = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE)


def faces(nines: bool) -> list[str]:
    """The faces of the deck ("AS", "10S" ...): 24, or 20 without nines (the double deck)."""
    return [str(Card(Suit.parse(s), r)) for s in _SUITS for r in _RANKS
            if nines or r is not Rank.NINE]


def gone(game: Game) -> list[str]:
    """Faces whose every copy has been played this hand (the card pickers dim them)."""
    played = [c for t in game.tricks for _, c in t]
    if game.trick and not game.trick_full:
        played += [c for _, c in game.trick]
    copies = game.rules.copies
    return sorted({str(c) for c in played if played.count(c) >= copies})


def next_pass(game: Game) -> tuple[int, int] | None:
    """(from, to) of the partners' next pass of cards (002), or None when none is due."""
    r = game.rules
    d = game.declarer
    if not r.pass_cards or d is None or game.trump is None \
            or game.phase not in (Phase.PASSING, Phase.MELD):
        return None
    partner = partner_of(r, d)
    if partner is None:
        return None
    return [(partner, d), (d, partner)][len(game.passes)] if len(game.passes) < 2 else None


def _meld_seats(game: Game) -> list[int]:
    r = game.rules
    d = game.declarer
    late = game.result is not None and game.result.opponents_score_meld
    if game.phase is Phase.HAND_OVER and game.conceded and late and d is not None \
            and game.trump is not None:  # after a concession the others may still meld
        return [s for s in game.active if game.side(s) != game.side(d)]
    if d is None or game.trump is None or game.phase not in (Phase.MELD, Phase.PASSING):
        return []
    if game.phase is Phase.PASSING or r.who_melds is WhoMelds.DECLARER \
            or (r.pass_cards and len(game.passes) < 2):
        return [d]
    return list(game.active)


def _bury(game: Game) -> dict[str, int] | None:
    r = game.rules
    d = game.declarer
    if not r.bury or r.draw_from_stock or game.bury_done or d is None:
        return None
    kitty_in = game.kitty_shown or not r.kitty_size
    due = (game.phase is Phase.BURY or (game.phase is Phase.TRUMP and kitty_in)
           or (game.phase is Phase.MELD and r.meld_before_bury))
    return {"seat": d, "count": r.bury} if due else None


def _play(game: Game) -> dict[str, Any] | None:
    seat = game.turn
    if seat is None or len(game.tricks) >= game.rules.hand_size:
        return None
    if game.phase is Phase.MELD:
        if seat != game.declarer or game.first_lead_refusal() is not None:
            return None
        return {"seat": seat, "lead": True}
    if game.phase is Phase.PLAY:
        return {"seat": seat, "lead": game.trick_full or not game.trick}
    return None


def _draw(game: Game) -> dict[str, Any] | None:
    """Two-handed: whose turn at the stock, and how many turns are left."""
    if game.phase is not Phase.DRAW or game.turn is None:
        return None
    done = sum(1 for e in game.events if isinstance(e, StockDrawn))
    return {"seat": game.turn, "left": game.rules.deck_size // 2 - done}


def _piles(game: Game) -> dict[str, Any] | None:
    """Two-handed: the discard piles still to be shown (they count), from the play on."""
    r = game.rules
    if not r.draw_from_stock or game.phase is not Phase.PLAY:
        return None
    seats = [s for s in game.active if game.discards[s] is None]
    return {"seats": seats, "count": r.hand_size} if seats else None


def _claim(game: Game) -> dict[str, Any] | None:
    """During the play, between tricks: who may claim the rest (the game judges the claim), and
    whether the declarer may acknowledge defeat (where only the result counts: 001's pot)."""
    if game.phase is not Phase.PLAY or (game.trick and not game.trick_full) \
            or game.declarer is None:
        return None
    by_result = game.rules.scoring in (Scoring.STAKES, Scoring.POT, Scoring.ALTERNATE)
    return {"seats": list(game.active), "declarer": game.declarer, "defeat": by_result}


def card_entry(game: Game) -> dict[str, Any]:
    """The controls the page offers now (each None or empty when not called for)."""
    r = game.rules
    passing = next_pass(game)
    kitty_due = r.kitty_size and not game.kitty_shown and game.phase in (Phase.TRUMP, Phase.PUSH)
    out: dict[str, Any] = {
        "faces": faces(r.nines),
        "copies": r.copies,
        "play": _play(game),
        "kitty": {"seat": game.declarer, "count": r.kitty_size} if kitty_due else None,
        "meld": _meld_seats(game),
        "bury": _bury(game),
        "pass": None if passing is None else
        {"seat": passing[0], "to_seat": passing[1], "count": r.pass_cards},
        # not once the hand is scored: the page moves on to the deal (the camera may still)
        "gather": bool(game.trick_full and game.trick and game.phase is Phase.PLAY),
        "gone": gone(game),
        "agree": list(game.agreement_due),
        "push": {"seat": game.turn, "dealer": game.dealer, "bid": r.push_to_dealer}
        if game.phase is Phase.PUSH else None,
        "draw": _draw(game),
        "piles": _piles(game),
        "claim": _claim(game),
    }
    return out


def camera_state(present: bool, status: Mapping[str, Any] | None,
                 alerts: list[dict[str, Any]]) -> dict[str, Any]:
    """Whether a camera is reading the mat now. When it is not (none, not calibrated, moved or
    covered), the page opens its card entry by default."""
    if not present:
        return {"present": False, "watching": False, "text": "no camera: enter the cards here"}
    status = status or {}
    moved = any(a.get("kind") == "camera-moved" for a in alerts)
    watching = bool(status.get("calibrated")) and not status.get("paused") and not moved
    text = str(status.get("text") or ("the camera reads the mat" if watching
                                      else "the camera is not reading the mat"))
    return {"present": True, "watching": watching, "text": text}
