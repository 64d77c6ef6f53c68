"""Issue 19's fuzz: every API route's JSON, and every rule option's value.

No answer may be a 5xx, none may hang (each case has a time limit, `LIMIT_S`, far above what a
case takes: it catches a loop, not slowness), and the journal may hold nothing accepted that the
game would refuse: its accepted entries always replay to the game the table shows. Hypothesis
runs derandomized, so a run is the same on every machine.
"""

from __future__ import annotations

import random
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from table.journal import Journal
from table.rules import (
    EVENT_TYPES,
    PRESET_NAMES,
    IllegalAction,
    OptionError,
    option_names,
    preset,
    replay,
    with_options,
)
from table.rules.players import play_game
from table.session import Session
from web_ui import api
from web_ui.app import create_app, web_table

from .conftest import NAMES, PIN, play_until

LIMIT_S = 60
FUZZ = settings(max_examples=300, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))


@contextmanager
def time_limit(seconds: int = LIMIT_S) -> Iterator[None]:
    def fail(signum: int, frame: object) -> None:
        raise TimeoutError(f"no answer within {seconds} s: a hang")
    old = signal.signal(signal.SIGALRM, fail)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


KEYS = ["seat", "amount", "card", "cards", "suit", "target", "replacement", "event", "type",
        "options", "names", "preset", "dealer", "to_seat", "pin", "hands", "kitty", "source",
        "at"]
WORDS = ["²", "٣", "AS", "10H", "QS", "KD", "9C", "S", "H", "x", "300", "250", "-1", "0", "1",
         "Ann", "Bob", "bison", "racehorse", "none", "1e9", "", " ", "\x00", "T", PIN,
         *EVENT_TYPES]
scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 400), st.integers(),
                    st.floats(), st.text(max_size=8), st.sampled_from(WORDS))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=4), inner,
                                        max_size=4), max_leaves=16)
events = st.fixed_dictionaries({"type": st.sampled_from(list(EVENT_TYPES))},
                               optional={k: values for k in KEYS if k != "type"})
bodies = st.one_of(st.dictionaries(st.sampled_from(KEYS), values, max_size=6),
                   events, st.fixed_dictionaries({"event": events}),
                   st.fixed_dictionaries({"target": st.integers(-2, 60),
                                          "replacement": events}))


def _post_paths(app: Flask) -> list[str]:
    """Every POST route of the API, with its path filled in."""
    paths: list[str] = []
    for rule in app.url_map.iter_rules():
        if "POST" not in (rule.methods or ()):
            continue
        if "action" in rule.arguments:
            paths += [f"/api/{action}" for action in api._SIMPLE]
        elif "alert_id" in rule.arguments:
            paths += [rule.rule.replace("<int:alert_id>", str(n)) for n in (0, 1, 2)]
        else:
            paths.append(rule.rule)
    return paths


def _run(case: Callable[[], None], app: Flask, journal: Journal, *sessions: Session) -> None:
    """Run the fuzz `case`; then stop the page, every session it used and the journal."""
    try:
        case()
    finally:
        web_table(app).close()
        live = web_table(app).live.session
        for s in {id(x): x for x in (*sessions, live) if x is not None}.values():
            s.stop(5)
        journal.close()


def _journal_agrees(app: Flask) -> None:
    session = web_table(app).live.session
    assert session is not None
    journalled = session.journal.accepted_events(session.game_id)
    assert journalled == session.accepted()
    assert replay(session.rules, session.names, journalled, session.first_dealer) == session.game


ROUTES = _post_paths(create_app({"TESTING": True}))


def test_the_fuzz_knows_every_route() -> None:
    assert {"/api/bid", "/api/undo", "/api/correct", "/api/events", "/api/game", "/api/pin",
            "/api/alerts/1/confirm", "/api/pass-cards"} <= set(ROUTES)


@pytest.mark.parametrize("path", ROUTES)
def test_every_route_takes_any_json_without_a_5xx(tmp_path: Path, path: str) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    session = Session.create(journal, preset("bison"), NAMES).start()
    play_until(session, lambda g: g.phase.value == "auction")
    app = create_app({"SESSION": session, "JOURNAL": journal, "PIN": PIN, "TESTING": True})
    client = app.test_client()

    @settings(FUZZ, max_examples=60)
    @given(body=bodies, pin=st.booleans())
    def case(body: dict[str, Any], pin: bool) -> None:
        with time_limit():
            reply = client.post(path, json=body, headers={"X-Table-PIN": PIN} if pin else {})
        assert reply.status_code < 500, (path, body, reply.get_data()[:300])
        if reply.status_code >= 400:
            assert reply.get_json()["error"], (path, body)
        _journal_agrees(app)

    _run(case, app, journal, session)


def test_reading_routes_take_any_query_without_a_5xx(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    session = Session.create(journal, preset("bison"), NAMES).start()
    play_until(session, lambda g: g.phase.value == "play")
    app = create_app({"SESSION": session, "PIN": PIN, "TESTING": True})
    client = app.test_client()
    query = st.text(max_size=12) | st.integers(-3, 10**12).map(str) | st.sampled_from(WORDS)

    @FUZZ
    @given(path=st.sampled_from(["/api/history", "/api/state", "/api/presets", "/api/camera",
                                 "/", "/setup"]),
           since=query, limit=query)
    def case(path: str, since: str, limit: str) -> None:
        with time_limit():
            reply = client.get(path, query_string={"since": since, "limit": limit})
        assert reply.status_code < 500, (path, since, limit)

    _run(case, app, journal, session)


def _option_values() -> st.SearchStrategy[str]:
    numbers = st.integers(-10**7, 10**7).map(str)
    small = st.integers(-20, 1000).map(str)
    listed = st.lists(st.integers(-5, 120), max_size=6).map(lambda v: "+".join(map(str, v)))
    points = st.lists(st.integers(-3, 20), min_size=7, max_size=7).map(
        lambda v: "/".join(map(str, v)))
    stakes = st.lists(st.tuples(st.integers(-5, 600), st.integers(-5, 40), st.integers(-5, 80)),
                      max_size=4).map(lambda rows: "+".join(f"{a}:{b}:{c}" for a, b, c in rows))
    return st.one_of(small, numbers, listed, points, stakes, st.text(max_size=10),
                     st.sampled_from(["yes", "no", "none", "", "counters", "classical",
                                      "trump-led", "7-nines", "dealer-forced", "²", "1e3"]))


@pytest.mark.parametrize("name", option_names())
def test_every_rule_option_takes_any_value_or_refuses_it(tmp_path: Path, name: str) -> None:
    """Every option, every preset: a clear refusal naming the option, or rules a game can be
    started with from the page and a simulated hand played by, within the time limit."""
    journal = Journal(tmp_path / "j.sqlite3")
    app = create_app({"JOURNAL": journal, "PIN": PIN, "TESTING": True})
    client = app.test_client()

    @settings(FUZZ, max_examples=25)
    @given(variant=st.sampled_from(PRESET_NAMES), value=_option_values())
    def case(variant: str, value: str) -> None:
        try:
            rules = with_options(preset(variant), {name: value})
        except OptionError as exc:
            assert name in str(exc) or "every bid" in str(exc) or "cards" in str(exc) \
                or "seats" in str(exc) or "bury" in str(exc) or "partner" in str(exc) \
                or "stock" in str(exc), str(exc)
            rules = None
        seats = preset(variant).table_seats if rules is None else rules.table_seats
        with time_limit():
            reply = client.post("/api/game", headers={"X-Table-PIN": PIN}, json={
                "preset": variant, "names": [f"P{i}" for i in range(seats)],
                "options": {name: value}})
            assert reply.status_code == (400 if rules is None else 201), reply.get_json()
            if rules is None:
                return
            assert client.get("/api/state").status_code == 200
            try:
                for _ in play_game(rules, random.Random(0), max_hands=1):
                    pass
            except IllegalAction:
                pass  # a simulated player tried a move these rules refuse: refused, not a fault
        _journal_agrees(app)

    _run(case, app, journal)
