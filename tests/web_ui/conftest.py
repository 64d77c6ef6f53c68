"""Fixtures for the page's tests: a real journal file, a real session, the app around it."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from table.journal import Journal
from table.rules import Event, preset
from table.rules.game import Game
from table.rules.players import play_game
from table.session import Session
from web_ui.app import create_app, web_table

PIN = "2468"
NAMES = ["Ann", "Bob", "Cy"]


def moves(variant: str = "bison", seed: int = 7, hands: int = 1,
          names: list[str] | None = None) -> list[tuple[Event, Game]]:
    """A simulated game's events, each with the position after it."""
    rules = preset(variant)
    return list(play_game(rules, random.Random(seed), names=names or NAMES, max_hands=hands))


def wait_for(check: Callable[[], object], timeout: float = 5.0) -> None:
    """Poll until `check()` is true (the page's own thread takes notices a moment later)."""
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise AssertionError("the condition never came true")
        time.sleep(0.01)


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    j = Journal(tmp_path / "table.sqlite3")
    yield j
    j.close()


@pytest.fixture
def session(journal: Journal) -> Iterator[Session]:
    s = Session.create(journal, preset("bison"), NAMES).start()
    yield s
    s.stop(5)


@pytest.fixture
def app(session: Session) -> Iterator[Flask]:
    app = create_app({"SESSION": session, "PIN": PIN, "HEARTBEAT_S": 0.05, "TESTING": True})
    yield app
    web_table(app).close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def pin_headers() -> dict[str, str]:
    return {"X-Table-PIN": PIN}


def play_until(session: Session, stop: Callable[[Game], bool], variant: str = "bison",
               seed: int = 7) -> Game:
    """Submit a simulated game's events until `stop(game)` holds for the position reached."""
    for event, _ in moves(variant, seed, hands=3):
        if stop(session.game):
            break
        outcome = session.submit(event)
        assert outcome.accepted, outcome.reason
    assert stop(session.game), "the simulated game never reached the wanted position"
    return session.game
