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

from table.rules import Card, Game, Phase, Rank, Scoring, Suit
from table.rules.expected import Due

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


def _due(due: Due | None, **extra: Any) -> dict[str, Any] | None:
    if due is None:
        return None
    out: dict[str, Any] = {"seat": due.seat, "count": due.count}
    if due.to_seat is not None:
        out["to_seat"] = due.to_seat
    return out | extra


def _claim(game: Game, seats: tuple[int, ...]) -> dict[str, Any] | None:
    """Who may claim the rest (the game judges the claim), and whether the declarer may
    acknowledge defeat (where only the result counts: 001's pot)."""
    if not seats:
        return None
    by_result = game.rules.scoring in (Scoring.STAKES, Scoring.POT, Scoring.ALTERNATE)
    return {"seats": list(seats), "declarer": game.declarer, "defeat": by_result}


def card_entry(game: Game) -> dict[str, Any]:
    """The controls the page offers now (each None or empty when not called for), as the game
    expects them (`Game.expected()`)."""
    r = game.rules
    x = game.expected()
    push = x.push
    draw = x.draw
    return {
        "faces": faces(r.nines),
        "copies": r.copies,
        "play": None if x.play is None else {"seat": x.play, "lead": x.lead},
        "kitty": _due(x.kitty),
        "meld": list(x.meld),
        "bury": _due(x.bury),
        "pass": _due(x.passing),
        # not once the hand is scored: the page moves on to the deal (the camera may still)
        "gather": x.gather and x.phase is Phase.PLAY,
        "gone": gone(game),
        "agree": list(x.agree),
        "push": None if push is None else
        {"seat": push.seat, "dealer": push.to_seat, "bid": push.count},
        "draw": None if draw is None else {"seat": draw.seat, "left": draw.count},
        "piles": {"seats": list(x.piles), "count": r.hand_size} if x.piles else None,
        "claim": _claim(game, x.claim),
    }


def camera_state(present: bool, status: Mapping[str, Any] | None,
                 alerts: list[dict[str, Any]]) -> dict[str, Any]:
    """Whether a camera is reading the mat now. When it is not (none, not calibrated, moved or
    covered, or the lamp past what it corrects), the page opens its card entry by default."""
    if not present:
        return {"present": False, "watching": False, "text": "no camera: enter the cards here"}
    status = status or {}
    blind = any(a.get("kind") in ("camera-moved", "camera-dark") for a in alerts)
    watching = bool(status.get("calibrated")) and not status.get("paused") and not blind
    text = str(status.get("text") or ("the camera reads the mat" if watching
                                      else "the camera is not reading the mat"))
    return {"present": True, "watching": watching, "text": text}
