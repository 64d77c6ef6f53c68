"""The JSON API through `app.test_client()`, against a real session and journal file."""

from __future__ import annotations

import json

import pytest
from flask import Flask
from flask.testing import FlaskClient

from table.alerts import Alert
from table.journal import Journal
from table.rules import CardPlayed, Corrected, in_effect, legal_plays
from table.rules.game import Phase
from table.session import Session
from web_ui.app import create_app, web_table

from .conftest import NAMES, PIN, moves, pin_headers, play_until, wait_for


def test_the_state_is_the_rules_cores_view_with_journal_numbers(
        client: FlaskClient, session: Session) -> None:
    game = play_until(session, lambda g: g.phase is Phase.PLAY and len(g.trick) == 2)
    state = client.get("/api/state").get_json()
    assert state["game"] == json.loads(json.dumps(game.view()))
    assert state["number"] == session.last_number
    assert state["game_id"] == session.game_id
    # the journal numbers of the cards on the mat name exactly those plays
    effect = dict(in_effect(session.accepted()))
    for number, shown in zip(state["plays"]["trick"], state["game"]["trick"]["cards"],
                             strict=True):
        event = effect[number]
        assert isinstance(event, CardPlayed)
        assert (event.seat, str(event.card)) == (shown["seat"], shown["card"])
    assert state["moves"][0]["number"] == session.last_number
    assert state["moves"][0]["text"].startswith(NAMES[shown["seat"]] + " played ")


def test_no_game_yet_shows_an_empty_table_and_actions_say_so(journal: Journal) -> None:
    app = create_app({"JOURNAL": journal, "PIN": PIN})
    client = app.test_client()
    try:
        state = client.get("/api/state").get_json()
        assert state["game"] is None and state["table"]["new_games"] is True
        assert client.get("/").status_code == 200
        reply = client.post("/api/undo", json={}, headers=pin_headers())
        assert reply.status_code == 409
        assert "start one" in reply.get_json()["error"]
    finally:
        web_table(app).close()


@pytest.mark.parametrize(("headers", "status"), [
    ({}, 401), ({"X-Table-PIN": "0000"}, 403), ({"X-Table-PIN": ""}, 401)])
def test_an_action_without_the_pin_changes_nothing(
        client: FlaskClient, session: Session, headers: dict[str, str], status: int) -> None:
    play_until(session, lambda g: g.phase is Phase.AUCTION)
    before, number = session.game, session.last_number
    reply = client.post("/api/pass", json={}, headers=headers)
    assert reply.status_code == status
    assert "PIN" in reply.get_json()["error"]
    assert session.game == before and session.last_number == number


def test_the_pin_may_come_in_the_body(client: FlaskClient, session: Session) -> None:
    play_until(session, lambda g: g.phase is Phase.AUCTION)
    seat = session.game.turn
    assert client.post("/api/pass", json={"pin": PIN}).status_code == 200
    assert seat in session.game.passed


def test_wrong_pins_lock_the_whole_table_and_are_shown(client: FlaskClient,
                                                        session: Session) -> None:
    for i in range(5):  # from five addresses: the lockout counts for the table, not per phone
        reply = client.post("/api/undo", json={}, headers={"X-Table-PIN": "9"},
                            environ_base={"REMOTE_ADDR": f"192.168.1.{10 + i}"})
        assert reply.status_code == 403
    reply = client.post("/api/undo", json={}, headers=pin_headers(),
                        environ_base={"REMOTE_ADDR": "192.168.1.99"})
    assert reply.status_code == 429
    assert "locked" in reply.get_json()["error"]
    wait_for(lambda: any(a["kind"] == "wrong-pin" for a in client.get("/api/state")
                         .get_json()["alerts"]))
    texts = [a["text"] for a in client.get("/api/state").get_json()["alerts"]
             if a["kind"] == "wrong-pin"]
    assert any("192.168.1.14" in t and "locked" in t for t in texts)


def test_a_table_without_a_pin_only_watches(session: Session) -> None:
    app = create_app({"SESSION": session})
    try:
        reply = app.test_client().post("/api/undo", json={}, headers=pin_headers())
        assert reply.status_code == 403 and "--pin" in reply.get_json()["error"]
    finally:
        web_table(app).close()


def test_bids_and_passes_go_through_the_session_from_the_web(
        client: FlaskClient, session: Session) -> None:
    play_until(session, lambda g: g.phase is Phase.AUCTION)
    seat, amount = session.game.turn, session.game.legal_bid_range[0]
    reply = client.post("/api/bid", json={"amount": amount}, headers=pin_headers())
    assert reply.status_code == 200, reply.get_json()
    body = reply.get_json()
    assert body["accepted"] and body["text"] == f"{NAMES[seat]} bid {amount}"
    assert body["state"]["game"]["high_bid"] == amount
    entry = session.history()[-1]
    assert entry.accepted and entry.event.source == "web" and entry.number == body["number"]
    nxt = session.game.turn
    assert client.post("/api/pass", json={"seat": NAMES[nxt]},
                       headers=pin_headers()).status_code == 200
    assert nxt in session.game.passed


def test_a_refused_action_says_why_and_is_journalled(
        client: FlaskClient, session: Session) -> None:
    play_until(session, lambda g: g.phase is Phase.AUCTION)
    before = session.game
    wrong = (session.game.turn + 1) % 3
    reply = client.post("/api/pass", json={"seat": wrong}, headers=pin_headers())
    assert reply.status_code == 409
    body = reply.get_json()
    assert body["accepted"] is False and body["reason"]
    assert body["error"].startswith(f"{NAMES[wrong]} passed: refused")
    assert session.game == before
    last = session.history()[-1]
    assert not last.accepted and last.reason == body["reason"]
    # the refusal is up on the page until the table moves on
    wait_for(lambda: any(a["kind"] == "refused" for a in client.get("/api/state")
                         .get_json()["alerts"]))
    assert client.post("/api/pass", json={}, headers=pin_headers()).status_code == 200
    wait_for(lambda: not client.get("/api/state").get_json()["alerts"])


@pytest.mark.parametrize(("path", "body", "words"), [
    ("/api/bid", {}, "whole number"),
    ("/api/bid", {"amount": "lots"}, "whole number"),
    ("/api/bid", {"amount": 260, "seat": 7}, "no seat 7"),
    ("/api/trump", {"suit": "X", "seat": 0}, "not a suit"),
    ("/api/correct", {"target": 1}, "what move #1 should have been"),
    ("/api/correct", {"target": 999, "card": "QS"}, "not in effect"),
    ("/api/events", {"type": "Nonsense"}, "unknown event type"),
    ("/api/game", {"preset": "bison", "names": ["A", "B"]}, "3 seats"),
    ("/api/game", {"preset": "poker", "names": NAMES}, "preset"),
    ("/api/game", {"preset": "bison", "names": ["A", "A", "B"]}, "different name"),
    ("/api/game", {"preset": "bison", "names": NAMES, "options": {"min_bid": "x"}}, "min_bid"),
])
def test_bad_requests_get_a_message_a_player_can_act_on(
        client: FlaskClient, session: Session, path: str, body: dict[str, object],
        words: str) -> None:
    play_until(session, lambda g: g.phase is Phase.AUCTION)
    number = session.last_number
    reply = client.post(path, json=body, headers=pin_headers())
    assert reply.status_code in (400, 409)
    assert words in reply.get_json()["error"]
    assert session.last_number == number


def test_not_json_is_refused(client: FlaskClient) -> None:
    reply = client.post("/api/bid", data="amount=250", headers=pin_headers(),
                        content_type="application/x-www-form-urlencoded")
    assert reply.status_code == 415 and "JSON" in reply.get_json()["error"]
    reply = client.post("/api/bid", data="amount=250", headers=pin_headers(),
                        content_type="application/json")
    assert reply.status_code == 400 and "JSON" in reply.get_json()["error"]


def test_unknown_api_paths_answer_in_json(client: FlaskClient) -> None:
    assert client.get("/api/nothing").status_code == 404
    reply = client.get("/api/bid")
    assert reply.status_code == 405 and reply.get_json()["error"]


def test_naming_trump_from_the_page(client: FlaskClient, session: Session) -> None:
    game = play_until(session, lambda g: g.phase is Phase.TRUMP and g.kitty_shown)
    reply = client.post("/api/trump", json={"suit": "♥"}, headers=pin_headers())
    assert reply.status_code == 200, reply.get_json()
    contract = reply.get_json()["state"]["game"]["contract"]
    assert contract == {"declarer": game.declarer, "bid": game.bid, "trump": "H"}


def test_correcting_a_misread_card(client: FlaskClient, session: Session) -> None:
    game = play_until(session, lambda g: g.phase is Phase.PLAY and len(g.trick) == 1)
    seat = game.turn
    assert seat is not None and game.hands is not None
    options = legal_plays(game.hands[seat], [c for _, c in game.trick], game.trump,
                          game.rules, False)
    right = options[0]
    wrong = next((c for c in options if c != right), None)
    assert wrong is not None
    misread = session.submit(CardPlayed(seat=seat, card=wrong, source="camera"))
    assert misread.accepted
    reply = client.post("/api/correct", json={"target": misread.number, "card": str(right)},
                        headers=pin_headers())
    assert reply.status_code == 200, reply.get_json()
    state = reply.get_json()["state"]
    assert state["game"]["trick"]["cards"][-1] == {"seat": seat, "card": str(right)}
    assert state["plays"]["trick"][-1] == misread.number
    fix = session.history()[-1].event
    assert isinstance(fix, Corrected) and fix.target == misread.number
    assert fix.source == "web" and fix.replacement == CardPlayed(seat=seat, card=right,
                                                                 source="web")


def test_undo_takes_back_the_last_move(client: FlaskClient, session: Session) -> None:
    play_until(session, lambda g: g.phase is Phase.AUCTION and len(g.bids) == 1)
    before_bid = session.game
    seat = before_bid.turn
    assert client.post("/api/pass", json={}, headers=pin_headers()).status_code == 200
    assert seat in session.game.passed
    target = client.get("/api/state").get_json()["undo_target"]
    assert target == session.last_number
    reply = client.post("/api/undo", json={"target": target}, headers=pin_headers())
    assert reply.status_code == 200
    assert session.game == before_bid
    assert reply.get_json()["state"]["game"]["turn"] == seat
    # a double tap (or a second phone) names the same move: refused, nothing more undone
    again = client.post("/api/undo", json={"target": target}, headers=pin_headers())
    assert again.status_code == 409 and f"#{target}" in again.get_json()["error"]
    assert session.game == before_bid
    assert client.post("/api/undo", json={}, headers=pin_headers()).status_code == 400


def test_conceding_ends_the_hand(client: FlaskClient, session: Session) -> None:
    play_until(session, lambda g: g.phase is Phase.MELD)
    declarer = session.game.declarer
    reply = client.post("/api/concede", json={}, headers=pin_headers())
    assert reply.status_code == 200, reply.get_json()
    view = reply.get_json()["state"]["game"]
    assert view["phase"] in ("hand-over", "game-over")
    assert view["result"]["declarer"] == declarer and view["result"]["made"] is False


def test_dealing_and_any_event_as_json(client: FlaskClient, session: Session) -> None:
    reply = client.post("/api/deal", json={}, headers=pin_headers())
    assert reply.status_code == 200
    assert reply.get_json()["state"]["game"]["phase"] == "auction"
    seat = session.game.turn
    reply = client.post("/api/events", json={"event": {"type": "Passed", "seat": seat}},
                        headers=pin_headers())
    assert reply.status_code == 200
    assert session.history()[-1].event.source == "web"


def test_starting_a_new_game(client: FlaskClient, app: Flask, session: Session) -> None:
    play_until(session, lambda g: g.phase is Phase.AUCTION)
    reply = client.post("/api/game", headers=pin_headers(), json={
        "preset": "racehorse", "names": ["N", "E", "S", "W"], "dealer": 1,
        "options": {"min_bid": "300"}})
    assert reply.status_code == 201, reply.get_json()
    body = reply.get_json()
    assert body["game_id"] != session.game_id
    view = client.get("/api/state").get_json()["game"]
    assert view["variant"] == "racehorse" and view["names"] == ["N", "E", "S", "W"]
    assert view["dealer"] == 1 and view["options"] == {"min_bid": "300"}
    new = web_table(app).live.session
    assert new is not None and new is not session
    new.stop(5)


def test_the_journal_with_refused_entries_and_alerts(
        client: FlaskClient, session: Session) -> None:
    play_until(session, lambda g: g.phase is Phase.AUCTION)
    client.post("/api/pass", json={"seat": (session.game.turn + 1) % 3}, headers=pin_headers())
    session.alert(Alert(kind="note", text="Cy arrived late", source="web")).result()
    body = client.get("/api/history").get_json()
    assert [e["number"] for e in body["entries"]] == list(range(1, session.last_number + 1))
    assert body["entries"][-1]["accepted"] is False and body["entries"][-1]["reason"]
    assert body["alerts"][-1]["text"] == "Cy arrived late"
    since = client.get(f"/api/history?since={session.last_number - 1}").get_json()
    assert len(since["entries"]) == 1
    assert client.get("/api/history?since=x").status_code == 400


def test_presets_list_every_variant(client: FlaskClient) -> None:
    body = client.get("/api/presets").get_json()
    names = {p["name"]: p for p in body["presets"]}
    assert names["racehorse"]["seats"] == 4 and names["bison"]["seats"] == 3
    assert "min_bid" in body["options"]


def test_an_unsure_card_is_confirmed_by_a_tap(client: FlaskClient, session: Session) -> None:
    game = play_until(session, lambda g: g.phase is Phase.PLAY and not g.trick)
    seat = game.turn
    assert seat is not None and game.hands is not None
    card = legal_plays(game.hands[seat], [], game.trump, game.rules, not game.tricks)[0]
    other = next(str(c) for c in game.hands[seat] if c != card)
    session.alert(Alert(kind="camera-unsure", text="Which card?", source="camera", seat=seat,
                        details={"candidates": [other, str(card)]})).result()
    wait_for(lambda: client.get("/api/state").get_json()["alerts"])
    alert = client.get("/api/state").get_json()["alerts"][0]
    assert alert["candidates"] == [other, str(card)]
    bad = client.post(f"/api/alerts/{alert['id']}/confirm", json={"card": "9C" if other != "9C"
                      and str(card) != "9C" else "9D"}, headers=pin_headers())
    assert bad.status_code == 400 and "pick one of" in bad.get_json()["error"]
    reply = client.post(f"/api/alerts/{alert['id']}/confirm", json={"card": str(card)},
                        headers=pin_headers())
    assert reply.status_code == 200, reply.get_json()
    assert session.game.trick == ((seat, card),)
    wait_for(lambda: not client.get("/api/state").get_json()["alerts"])
    gone = client.post(f"/api/alerts/{alert['id']}/confirm", json={"card": str(card)},
                       headers=pin_headers())
    assert gone.status_code == 404


def test_confirming_the_other_card_corrects_the_cameras_guess(
        client: FlaskClient, session: Session) -> None:
    game = play_until(session, lambda g: g.phase is Phase.PLAY and not g.trick)
    seat = game.turn
    assert seat is not None and game.hands is not None
    first = not game.tricks
    right, guess = legal_plays(game.hands[seat], [], game.trump, game.rules, first)[:2]
    posted = session.submit(CardPlayed(seat=seat, card=guess, source="camera"))
    session.alert(Alert(kind="camera-unsure", text="Sure?", source="camera", seat=seat,
                        details={"candidates": [str(guess), str(right)],
                                 "number": posted.number})).result()
    wait_for(lambda: client.get("/api/state").get_json()["alerts"])
    alert_id = client.get("/api/state").get_json()["alerts"][0]["id"]
    reply = client.post(f"/api/alerts/{alert_id}/confirm", json={"card": str(right)},
                        headers=pin_headers())
    assert reply.status_code == 200, reply.get_json()
    assert session.game.trick == ((seat, right),)
    assert isinstance(session.history()[-1].event, Corrected)


def test_device_alerts_stay_up_until_the_device_is_back(
        client: FlaskClient, session: Session) -> None:
    def kinds() -> list[str]:
        return [a["kind"] for a in client.get("/api/state").get_json()["alerts"]]

    session.alert(Alert(kind="device-unplugged", text="The button board was unplugged",
                        source="serial")).result()
    wait_for(lambda: kinds() == ["device-unplugged"])
    session.alert(Alert(kind="camera-moved", text="The camera moved", source="camera")).result()
    wait_for(lambda: kinds() == ["device-unplugged", "camera-moved"])
    session.alert(Alert(kind="device-connected", text="The button board is back.",
                        source="serial")).result()
    wait_for(lambda: kinds() == ["camera-moved"])
    news = client.get("/api/state").get_json()["news"]
    assert news[-1]["text"] == "The button board is back."
    alert_id = client.get("/api/state").get_json()["alerts"][0]["id"]
    assert client.post(f"/api/alerts/{alert_id}/dismiss", json={}).status_code == 401
    assert client.post(f"/api/alerts/{alert_id}/dismiss", json={},
                       headers=pin_headers()).status_code == 200
    wait_for(lambda: kinds() == [])
    assert client.post(f"/api/alerts/{alert_id}/dismiss", json={},
                       headers=pin_headers()).status_code == 404


def test_a_lamp_past_correcting_stays_up_until_the_light_is_right(
        client: FlaskClient, session: Session) -> None:
    def kinds() -> list[str]:
        return [a["kind"] for a in client.get("/api/state").get_json()["alerts"]]

    session.alert(Alert(kind="camera-dark", text="The mat is too dark", source="camera")
                  ).result()
    wait_for(lambda: kinds() == ["camera-dark"])
    session.alert(Alert(kind="camera-light-ok", text="The light is good again",
                        source="camera")).result()
    wait_for(lambda: kinds() == [])


def test_the_page_carries_the_present_state(client: FlaskClient, session: Session) -> None:
    play_until(session, lambda g: g.phase is Phase.AUCTION and len(g.bids) == 2)
    html = client.get("/").get_data(as_text=True)
    assert 'id="initial-state"' in html
    embedded = html.split('id="initial-state" type="application/json">')[1].split("</script>")[0]
    assert json.loads(embedded)["number"] == session.last_number


def test_the_page_weighs_under_150_kb_and_loads_nothing_from_elsewhere(
        client: FlaskClient, session: Session) -> None:
    for event, _ in moves()[:40]:
        session.submit(event)
    html = client.get("/").get_data(as_text=True)
    total = len(html.encode())
    for asset in ("/static/table.css", "/static/table.js"):
        reply = client.get(asset)
        assert reply.status_code == 200
        total += len(reply.get_data())
        reply.close()
    assert total < 150_000
    assert "http://" not in html and "https://" not in html and "//cdn" not in html


class WaitingCamera:
    """A camera that waits for one unsure card in West's meld."""

    def __init__(self) -> None:
        self.told: list[tuple[str, int | None, str]] = []

    def jpeg(self) -> bytes | None:
        return None

    def status(self) -> dict[str, object]:
        return {"calibrated": True, "text": "calibrated"}

    def confirm(self, card: object, seat: int | None, area: str) -> bool:
        waiting = (seat, area) == (1, "meld") and not self.told
        self.told.append((str(card), seat, area))
        return waiting


def test_an_unsure_meld_card_is_settled_with_the_camera_not_played(session: Session) -> None:
    camera = WaitingCamera()
    app = create_app({"SESSION": session, "CAMERA": camera, "PIN": PIN})
    client = app.test_client()
    try:
        before = len(session.history())
        for _ in range(2):
            session.alert(Alert(kind="camera-unsure", text="Which card in West's meld?",
                                source="camera", seat=1,
                                details={"candidates": ["QS", "QC"], "area": "meld"})).result()
        wait_for(lambda: len(client.get("/api/state").get_json()["alerts"]) == 2)
        first, second = client.get("/api/state").get_json()["alerts"]
        reply = client.post(f"/api/alerts/{first['id']}/confirm", json={"card": "QC"},
                            headers=pin_headers())
        assert reply.status_code == 200, reply.get_json()
        assert "counts the queen of clubs" in reply.get_json()["text"]
        assert camera.told == [("QC", 1, "meld")]
        assert len(session.history()) == before          # nothing played or entered
        late = client.post(f"/api/alerts/{second['id']}/confirm", json={"card": "QS"},
                           headers=pin_headers())
        assert late.status_code == 409
        assert "enter the meld in the card entry panel" in late.get_json()["error"]
        assert len(session.history()) == before
    finally:
        web_table(app).close()
