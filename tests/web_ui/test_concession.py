"""Conceding from the page: offered only where the game allows it (asked of the game), and a
throw-in by agreement (002) only with every player's agreement."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from table.journal import Journal
from table.rules import Phase, play_game, preset
from table.session import Session
from web_ui.app import create_app, web_table
from web_ui.state import concession

from .conftest import PIN, pin_headers, play_until

FOUR = ["Ann", "Bob", "Cy", "Dee"]


def test_the_page_offers_a_concession_only_while_the_game_allows_one(
        client: FlaskClient, session: Session) -> None:
    assert client.get("/api/state").get_json()["concession"] is None  # no contract yet
    play_until(session, lambda g: g.phase is Phase.MELD)
    declarer = session.game.declarer
    offer = client.get("/api/state").get_json()["concession"]
    assert offer == {"seat": declarer, "seats": [declarer], "agreed": False, "players": [],
                     "alone": None}
    reply = client.post("/api/concede", json={"seat": declarer}, headers=pin_headers())
    assert reply.status_code == 200, reply.get_json()
    state = reply.get_json()["state"]
    assert state["game"]["result"]["declarer"] == declarer
    assert state["concession"] is None  # the hand is over


def test_no_concession_once_the_play_has_begun(client: FlaskClient, session: Session) -> None:
    play_until(session, lambda g: g.phase is Phase.PLAY)
    assert client.get("/api/state").get_json()["concession"] is None
    reply = client.post("/api/concede", json={}, headers=pin_headers())
    assert reply.status_code == 409 and "before the first lead" in reply.get_json()["error"]


@pytest.fixture
def racehorse(tmp_path: Path) -> Iterator[tuple[Session, FlaskClient]]:
    journal = Journal(tmp_path / "racehorse.sqlite3")
    session = Session.create(journal, preset("racehorse"), FOUR).start()
    app = create_app({"SESSION": session, "PIN": PIN, "HEARTBEAT_S": 0.05, "TESTING": True})
    yield session, app.test_client()
    web_table(app).close()
    session.stop(5)
    journal.close()


def _to_an_agreed_throw_in(session: Session) -> None:
    """Play a simulated racehorse hand until its declaring side could throw in only by
    agreement (melded, and the bid within 250 of the meld)."""
    for event, _ in play_game(preset("racehorse"), random.Random(1), names=FOUR, max_hands=1):
        offer = concession(session.game)
        if offer is not None and offer["agreed"]:
            return
        assert session.game.phase is not Phase.PLAY, "the hand was played without one"
        assert session.submit(event).accepted


def test_a_throw_in_within_the_margin_needs_everybody(
        racehorse: tuple[Session, FlaskClient]) -> None:
    session, client = racehorse
    _to_an_agreed_throw_in(session)
    offer = client.get("/api/state").get_json()["concession"]
    declarer = session.game.declarer
    assert offer["agreed"] is True and offer["players"] == [0, 1, 2, 3]
    assert offer["seat"] == declarer and sorted(offer["seats"]) == [declarer % 2, declarer % 2 + 2]
    assert "unless everybody agrees" in offer["alone"]
    before = session.game
    alone = client.post("/api/concede", json={}, headers=pin_headers())
    assert alone.status_code == 409 and "unless everybody agrees" in alone.get_json()["error"]
    no_list = client.post("/api/concede", json={"agreed": True}, headers=pin_headers())
    assert no_list.status_code == 400 and "'agree'" in no_list.get_json()["error"]
    three = client.post("/api/concede", json={"agreed": True, "agree": [0, "Bob", 3]},
                        headers=pin_headers())
    assert three.status_code == 400
    assert three.get_json()["error"] == ("everybody must agree to throw the hand in: Cy did "
                                         "not")
    assert session.game == before  # nothing refused changed the game
    everyone = client.post("/api/concede", json={"agreed": True, "agree": FOUR},
                           headers=pin_headers())
    assert everyone.status_code == 200, everyone.get_json()
    assert everyone.get_json()["text"].endswith("conceded (all agreed)")
    assert session.game.result is not None and session.game.result.declarer == declarer
