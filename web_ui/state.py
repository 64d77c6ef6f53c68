"""The page's state: the rules core's view of the game plus what only the table knows (journal
numbers of the moves, so a misread card can be corrected; the alerts that need a person)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from table.export import hands_played
from table.rules import (
    CardPlayed,
    Event,
    Game,
    HandDealt,
    Scoring,
    in_effect,
)

from .board import AlertBoard
from .entry import camera_state, card_entry
from .words import bid_words, describe

MOVES_SHOWN = 30


def _move(number: int, event: Event, names: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {"number": number, "type": type(event).__name__,
                           "text": describe(event, names), "source": event.source}
    seat = getattr(event, "seat", None)
    if isinstance(seat, int):
        out["seat"] = seat
    if isinstance(event, CardPlayed):
        out["card"] = str(event.card)
    return out


def hand_moves(accepted: Sequence[tuple[int, Event]]) -> list[tuple[int, Event]]:
    """The events in effect since the last deal (the deal included)."""
    moves = in_effect(accepted)
    start = max((i for i, (_, e) in enumerate(moves) if isinstance(e, HandDealt)), default=0)
    return moves[start:]


def play_numbers(game: Game, moves: Sequence[tuple[int, Event]]) -> dict[str, list[int]]:
    """Journal numbers of the cards of the trick on the mat and of the last trick, in the order
    the view lists them, so that tapping a card can correct exactly that entry."""
    plays = [n for n, e in moves if isinstance(e, CardPlayed)]
    view_trick = len(game.trick) if game.trick else 0
    done = list(game.tricks)
    if game.trick_full and done and done[-1] == game.trick:
        done = done[:-1]
    view_last = len(done[-1]) if done else 0
    trick = plays[len(plays) - view_trick:] if view_trick else []
    rest = plays[:len(plays) - view_trick]
    last = rest[len(rest) - view_last:] if view_last else []
    return {"trick": trick, "last_trick": last}


def road(game: Game) -> dict[str, Any]:
    """The road to the target: each side's running total after each hand (the stakes ledger
    in stakes and pot games), the target, and what each side still needs to reach it."""
    r = game.rules
    money = r.scoring in (Scoring.STAKES, Scoring.POT)
    seats = range(r.table_seats)
    sides = [[s for s in seats if s % 2 == k] for k in (0, 1)] if r.partnerships \
        else [[s] for s in seats]
    totals = game.ledger if money else game.scores
    hands = hands_played(game)
    out = []
    for side in sides:
        head = side[0]
        changes = [(h.ledger_change if money else h.score_change)[head] for h in hands]
        running = totals[head] - sum(changes)
        series = [running]
        for change in changes:
            running += change
            series.append(running)
        out.append({"seats": side, "series": series,
                    "needs": None if money or not game.target
                    else max(0, game.target - totals[head])})
    return {"target": None if money or not game.target else game.target,
            "unit": "stakes" if money else "score", "sides": out,
            "hands": [h.hand_number for h in hands]}


def concession(game: Game) -> dict[str, Any] | None:
    """Whether the declaring side may give up now, asked of the game itself
    (`Game.concede_refusal`). `seat`: the declarer,
    `seats`: the side that may concede; `agreed`: only if every player agrees (002, where the
    bid could still be made), `players` being who must, and `alone` why it cannot be conceded
    without them. None: no concession now."""
    d = game.declarer
    if d is None:
        return None
    seats = sorted(s for s in game.active if game.side(s) == game.side(d))
    alone = game.concede_refusal(d)
    if alone is None:
        return {"seat": d, "seats": seats, "agreed": False, "players": [], "alone": None}
    if game.concede_refusal(d, agreed=True) is not None:
        return None
    return {"seat": d, "seats": seats, "agreed": True, "players": sorted(game.active),
            "alone": alone}


def page_state(game: Game | None, accepted: Sequence[tuple[int, Event]], number: int,
               game_id: int | None, board: AlertBoard, table: dict[str, Any],
               camera: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything the page shows, JSON-ready. `number` is the last journal entry; `table` says
    what the page may offer (a PIN is set, a camera view, new games); `camera` is the camera's
    `status()` when the table has one."""
    alerts, news = board.snapshot()
    out: dict[str, Any] = {"game_id": game_id, "number": number, "table": table,
                           "alerts": alerts, "news": news, "game": None, "moves": [],
                           "plays": {"trick": [], "last_trick": []}, "next_dealer": None,
                           "kitty_size": 0, "entry": None, "undo_target": None,
                           "bid": None, "road": None, "concession": None,
                           "camera": camera_state(bool(table.get("camera")), camera, alerts)}
    if game is None:
        return out
    moves = hand_moves(accepted)
    out["game"] = view = game.view()
    out["bid"] = bid_words(view)
    out["road"] = road(game)
    out["moves"] = [_move(n, e, game.names) for n, e in moves[-MOVES_SHOWN:]][::-1]
    out["plays"] = play_numbers(game, moves)
    out["next_dealer"] = game.next_dealer
    out["kitty_size"] = game.rules.kitty_size
    out["entry"] = card_entry(game)
    out["undo_target"] = moves[-1][0] if moves else None  # what Undo takes back (its number)
    out["concession"] = concession(game)
    return out
