"""The JSON API behind the page: read the state and the journal; act with the table PIN."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask import Blueprint, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException

from table.rules import PRESET_NAMES, Card, CardPlayed, Event, preset
from table.rules.game import Game
from table.rules.notation import public_event
from table.rules.options import option_names
from table.session import Session, SessionError

from . import actions
from .actions import ActionError
from .camera import ConfirmsCards
from .context import web_table
from .guard import BadInput, json_body, whole_number
from .pin import HEADER
from .words import describe

bp = Blueprint("api", __name__, url_prefix="/api")

Reply = tuple[Response, int]
View = TypeVar("View", bound=Callable[..., Any])


def _error(status: int, message: str, **extra: Any) -> Reply:
    return jsonify({"error": message, **extra}), status


@bp.errorhandler(ActionError)
def _action_error(exc: ActionError) -> Reply:
    return _error(exc.status, exc.message)


def http_error(exc: HTTPException) -> Reply | HTTPException:
    """Errors under /api/ in JSON (the app registers this: routing errors such as 404 and
    405 happen before any blueprint is chosen)."""
    if not request.path.startswith(bp.url_prefix or "/api"):
        return exc
    return _error(exc.code or 500, exc.description or exc.name)


@bp.errorhandler(BadInput)
def _bad_input(exc: BadInput) -> Reply:
    return _error(exc.status, exc.message)


def _body() -> dict[str, Any]:
    return json_body()


def needs_pin(view: View) -> View:
    """Refuse the request (401/403/429, nothing changed) unless it carries the table PIN. The
    header is checked before the body is read; only a request without it has its (small, see
    guard.py) body looked at for `pin`."""
    @functools.wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        given = request.headers.get(HEADER)
        if given is None and request.content_length and request.is_json:
            pin = json_body().get("pin")
            given = pin if isinstance(pin, str) else None
        refusal = web_table().guard.check(given, request.remote_addr or "?")
        if refusal is not None:
            return _error(refusal.status, refusal.message)
        return view(*args, **kwargs)
    return cast(View, guarded)


def _session() -> Session:
    session = web_table().live.session
    if session is None:
        raise ActionError(409, "no game yet: start one first")
    return session


def _game() -> Game:
    return _session().game


def _submit(event: Event) -> Reply:
    """Hand `event` to the session and answer with its outcome."""
    session = _session()
    try:
        outcome = session.submit(event, timeout=float(current_app.config["SUBMIT_TIMEOUT_S"]))
    except TimeoutError:
        return _error(503, "the table is busy and did not answer in time; look at the page "
                           "before trying again")
    except SessionError as exc:
        return _error(503, str(exc))
    text = describe(event, outcome.game.names)
    if not outcome.accepted:
        return _error(409, f"{text}: refused, {outcome.reason}", reason=outcome.reason,
                      number=outcome.number, accepted=False)
    return jsonify({"accepted": True, "number": outcome.number, "text": text,
                    "state": web_table().live.state()}), 200


# -- reading -------------------------------------------------------------------------------

@bp.get("/state")
def state() -> Response:
    return jsonify(web_table().live.state())


@bp.get("/history")
def history() -> Response:
    """The journal of the game, refused entries too, a page at a time: the entries after
    `since` (a journal number), at most `limit` of them; `next` is the `since` of the next page
    (None on the last). Answers are cached and carry an ETag (the journal only grows)."""
    session = _session()
    since = whole_number(request.args.get("since", "0"))
    if since is None or since < 0:
        raise ActionError(400, "'since' is a journal number, like ?since=40")
    most = int(current_app.config["HISTORY_PAGE"])
    limit = whole_number(request.args.get("limit", str(most)))
    if limit is None or not 1 <= limit <= most:
        raise ActionError(400, f"'limit' is how many entries to send, 1 to {most}")
    journal = session.journal
    key = (session.game_id, session.last_number, journal.last_alert_id(session.game_id),
           since, limit)
    tag = '"' + "-".join(str(k) for k in key) + '"'
    if request.if_none_match.contains(tag.strip('"')):
        return Response(status=304, headers={"ETag": tag, "Cache-Control": "no-cache"})
    body = web_table().history.get(key, lambda: _history_page(session, since, limit, key[1]))
    return Response(body, mimetype="application/json",
                    headers={"ETag": tag, "Cache-Control": "no-cache"})


def _history_page(session: Session, since: int, limit: int, last: int) -> bytes:
    """The page of entries `since` < number <= `last` (the key it is cached under)."""
    names = session.names
    rules = session.game.rules
    records = [r for r in session.journal.events(session.game_id, after=since, limit=limit + 1)
               if r.number <= last]
    more = len(records) > limit
    records = records[:limit]
    upto = records[-1].number if more else None
    entries = [{"number": r.number, "logged": r.logged, "source": r.event.source,
                "accepted": r.accepted, "reason": r.reason, "text": describe(r.event, names),
                "event": public_event(r.event, rules).to_dict()} for r in records]
    alerts = [{"after": a.after_event, "logged": a.logged, **a.alert.to_dict()}
              for a in session.journal.alerts(session.game_id, after_event=since)
              if upto is None or a.after_event < upto]
    out = {"game_id": session.game_id, "names": list(names), "entries": entries,
           "alerts": alerts, "next": upto, "last_number": last,
           "hands": [h["text"] for h in session.game.view()["history"]]}
    return json.dumps(out, ensure_ascii=False, separators=(",", ":")).encode()


@bp.get("/presets")
def presets() -> Response:
    out = []
    for name in PRESET_NAMES:
        rules = preset(name)
        out.append({"name": name, "description": rules.description, "seats": rules.table_seats,
                    "target": rules.target, "min_bid": rules.min_bid,
                    "fields": actions.option_fields(rules)})
    return jsonify({"presets": out, "options": option_names()})


@bp.get("/camera")
def camera() -> Reply:
    cam = web_table().camera
    if cam is None:
        return _error(404, "this table has no camera view")
    return jsonify(cam.status()), 200


# -- acting (PIN) ----------------------------------------------------------------------------

@bp.post("/pin")
@needs_pin
def check_pin() -> Reply:
    """Lets a phone check the PIN before it keeps it."""
    return jsonify({"ok": True}), 200


@bp.post("/game")
@needs_pin
def start_game() -> Reply:
    table = web_table()
    if not table.can_start:
        return _error(409, "this server cannot start games (it was given no journal)")
    current = table.live.session
    rules, names, dealer = actions.new_game(_body(), current.game if current else None)
    try:
        session = table.begin(rules, names, dealer)
    except SessionError as exc:
        return _error(409, str(exc))
    return jsonify({"game_id": session.game_id, "state": table.live.state()}), 201


_SIMPLE: dict[str, Callable[[dict[str, Any], Game], Event]] = {
    "bid": actions.bid, "pass": actions.pass_, "trump": actions.trump,
    "concede": actions.concede, "deal": actions.deal, "undo": actions.undo,
    # what the camera would see, entered by hand
    "play": actions.play, "kitty": actions.kitty, "meld": actions.meld, "bury": actions.bury,
    "pass-cards": actions.pass_cards, "gather": actions.gather, "push": actions.push,
    "draw": actions.draw, "claim": actions.claim, "agree": actions.agree,
}


@bp.post("/<any(bid, pass, trump, concede, deal, undo, play, kitty, meld, bury, 'pass-cards', "
         "gather, push, draw, claim, agree):action>")
@needs_pin
def simple_action(action: str) -> Reply:
    return _submit(_SIMPLE[action](_body(), _game()))


@bp.post("/correct")
@needs_pin
def correct() -> Reply:
    session = _session()
    return _submit(actions.correct(_body(), session.game, session.accepted()))


@bp.post("/events")
@needs_pin
def post_event() -> Reply:
    body = _body()
    return _submit(actions.event(body.get("event", body)))


@bp.post("/alerts/<int:alert_id>/confirm")
@needs_pin
def confirm(alert_id: int) -> Reply:
    table = web_table()
    item = table.live.board.get(alert_id)
    if item is None or item.kind != "camera-unsure":
        return _error(404, f"there is no unsure card #{alert_id} waiting (already settled?)")
    session = _session()
    area = item.details.get("area", "play")
    if area != "play":
        return _confirm_on_mat(alert_id, actions.chosen_card(_body().get("card"),
                                                             item.candidates), item.seat, area)
    guessed = item.details.get("number")
    event = actions.confirm_card(_body().get("card"), item.candidates, item.seat,
                                 guessed if isinstance(guessed, int) else None,
                                 session.accepted())
    if event is None:
        table.live.board.dismiss(alert_id)
        table.live.refresh()
        return jsonify({"accepted": True, "number": None, "text": "the camera read it right",
                        "state": table.live.state()}), 200
    reply = _submit(event)
    if reply[1] == 200:
        table.live.board.dismiss(alert_id)
        table.live.refresh()
        if isinstance(event, CardPlayed):
            _tell_camera(event.card, event.seat, "play")
    return reply


def _confirm_on_mat(alert_id: int, card: Card, seat: int | None, area: str) -> Reply:
    """An unsure card in a meld or the kitty: the camera counts it, and reports the meld or
    kitty as a whole once it has settled."""
    table = web_table()
    where = "kitty" if area == "kitty" else "meld"
    if not _tell_camera(card, seat, area):
        return _error(409, f"the camera no longer waits for that card; enter the {where} in "
                           "the card entry panel instead")
    table.live.board.dismiss(alert_id)
    table.live.refresh()
    return jsonify({"accepted": True, "number": None,
                    "text": f"the camera counts the {card.name}; the {where} follows",
                    "state": table.live.state()}), 200


def _tell_camera(card: Card, seat: int | None, area: str) -> bool:
    """Hand a card settled on the page to the camera, where it can take one (see
    table.live.camera.CameraFeed.confirm)."""
    camera = web_table().camera
    return isinstance(camera, ConfirmsCards) and camera.confirm(card, seat, area)


@bp.post("/alerts/<int:alert_id>/dismiss")
@needs_pin
def dismiss(alert_id: int) -> Reply:
    live = web_table().live
    if not live.board.dismiss(alert_id):
        return _error(404, f"alert #{alert_id} is not up (already settled?)")
    live.refresh()
    return jsonify({"dismissed": alert_id, "state": live.state()}), 200
