"""Past games and player records, read from the journal: the list of games, one game's hands
and moves, each player's record across games (the same name is the same person), and the
command line's CSV exports (`pinochle-table export --format csv|records`) as downloads.

Answers are built once per state of the journal (it only grows) and kept in the table's
answer cache, so many phones opening the list replay each game once.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from table.export import hands_played, player_records, records_csv, score_sheet
from table.journal import GameRecord, Journal, JournalError
from table.rules import HandDealt, Scoring, in_effect
from table.rules.game import Game
from table.rules.notation import public_event
from table.session import SessionError, replay_journal

from .actions import ActionError
from .context import web_table
from .guard import whole_number
from .words import describe

bp = Blueprint("games", __name__, url_prefix="/api")


@bp.errorhandler(ActionError)
def _error(exc: ActionError) -> tuple[Response, int]:
    return jsonify({"error": exc.message}), exc.status

GAMES_LISTED = 100
REPLAYS_KEPT = 200  # games kept replayed, so that a finished game is replayed once
SAME_PERSON = "A player is a name: the same name in two games is taken to be the same person."


def _journal() -> Journal:
    journal = web_table().journal
    if journal is None:
        raise ActionError(404, "this table keeps no journal, so it has no past games")
    return journal


def _record(journal: Journal, game_id: int) -> GameRecord:
    try:
        return journal.game(game_id)
    except JournalError:
        raise ActionError(404, f"there is no game {game_id} in the journal") from None


def _replayed(journal: Journal, record: GameRecord) -> Game:
    """The game as its journal leaves it, replayed once per state (a finished game, once)."""
    cache: OrderedDict[tuple[int, int], Game] = current_app.extensions.setdefault(
        "pinochle-replays", OrderedDict())
    key = (record.id, record.accepted)
    game = cache.get(key)
    if game is None:
        try:
            game = replay_journal(journal, record)
        except SessionError as exc:
            raise ActionError(409, str(exc)) from None
        cache[key] = game
        while len(cache) > REPLAYS_KEPT:
            cache.popitem(last=False)
    return game


def _cached(key: tuple[Any, ...], build: Any, mimetype: str, filename: str | None = None
            ) -> Response:
    body = web_table().history.get(key, build)
    headers = {"Cache-Control": "no-cache"}
    if filename:
        headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return Response(body, mimetype=mimetype, headers=headers)


def _json(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def _money(game: Game) -> bool:
    return game.rules.scoring in (Scoring.STAKES, Scoring.POT)


def _summary(record: GameRecord, game: Game) -> dict[str, Any]:
    money = _money(game)
    return {"id": record.id, "variant": record.variant, "names": list(record.names),
            "options": record.options, "created": record.created,
            "phase": game.phase.value, "hands": game.hand_number,
            "winner": None if game.winner is None else record.names[game.winner],
            "unit": "stakes" if money else "score",
            "scores": list(game.ledger if money else game.scores)}


@bp.get("/games")
def games() -> Response:
    """The journal's games, the most recently played first."""
    journal = _journal()
    records = journal.games()[:GAMES_LISTED]
    key = ("games", tuple((r.id, r.accepted) for r in records))

    def build() -> bytes:
        return _json({"games": [_summary(r, _replayed(journal, r)) for r in records]})
    return _cached(key, build, "application/json")


@bp.get("/games/<int:game_id>")
def game(game_id: int) -> Response:
    """One game: its hands; with `?hand=N`, the moves of hand N as they stand (undone moves
    left out, corrections applied)."""
    journal = _journal()
    record = _record(journal, game_id)
    hand_text = request.args.get("hand")
    hand = None if hand_text is None else whole_number(hand_text)
    if hand_text is not None and (hand is None or hand < 1):
        raise ActionError(400, "'hand' is the number of a hand, like ?hand=2")
    key = ("game", game_id, record.accepted, hand)

    def build() -> bytes:
        g = _replayed(journal, record)
        out = _summary(record, g)
        out["hand_results"] = [_hand(h, record.names) for h in hands_played(g)]
        if hand is not None:
            out["hand"] = hand
            out["moves"] = _moves(journal, record, g, hand)
        return _json(out)
    return _cached(key, build, "application/json")


def _hand(h: Any, names: tuple[str, ...]) -> dict[str, Any]:
    return {"hand": h.hand_number, "text": h.describe(names), "declarer": h.declarer,
            "bid": h.bid, "outcome": h.outcome, "meld": list(h.meld), "tricks": list(h.tricks),
            "score_change": list(h.score_change), "ledger_change": list(h.ledger_change)}


def _moves(journal: Journal, record: GameRecord, game: Game, hand: int) -> list[dict[str, Any]]:
    moves = in_effect(journal.accepted_events(record.id))
    dealt = 0
    out = []
    for number, event in moves:
        if isinstance(event, HandDealt):
            dealt += 1
        if dealt == hand:
            shown = public_event(event, game.rules)
            out.append({"number": number, "text": describe(shown, record.names)})
    return out


@bp.get("/games/<int:game_id>/sheet.csv")
def sheet(game_id: int) -> Response:
    journal = _journal()
    record = _record(journal, game_id)
    return _cached(("sheet", game_id, record.accepted),
                   lambda: score_sheet(journal, game_id).encode(), "text/csv",
                   f"pinochle-game-{game_id}.csv")


def _all(journal: Journal) -> tuple[tuple[Any, ...], list[GameRecord]]:
    records = journal.games()
    return ("records", tuple((r.id, r.accepted) for r in records)), records


@bp.get("/records")
def records() -> Response:
    """Each player's record across the journal's games."""
    journal = _journal()
    key, found = _all(journal)

    def build() -> bytes:
        players = player_records((r, _replayed(journal, r)) for r in found)
        return _json({"note": SAME_PERSON, "games": len(found),
                      "players": [p.to_dict() for p in players]})
    return _cached(key, build, "application/json")


@bp.get("/records.csv")
def records_download() -> Response:
    journal = _journal()
    key, found = _all(journal)
    return _cached(key + ("csv",), lambda: records_csv(player_records(
        (r, _replayed(journal, r)) for r in found)).encode(), "text/csv",
        "pinochle-records.csv")
