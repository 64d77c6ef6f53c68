"""What held when issue 19's attacks were tried, kept tested: no route changes anything
without the PIN, the PIN is compared in constant time, no cookies or CORS, hidden cards never
reach the page or its history in the simulation."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from table.rules import Buried, CardsPassed, HandDealt
from table.session import Session
from web_ui import pin as pin_module
from web_ui.app import web_table

from .conftest import PIN, moves
from .test_fuzz import ROUTES


@pytest.mark.parametrize("headers", [{}, {"X-Table-PIN": "0000"}])
def test_no_route_changes_anything_without_the_pin(client: FlaskClient, app: Flask,
                                                   session: Session,
                                                   headers: dict[str, str]) -> None:
    for event, _ in moves()[:12]:
        session.submit(event)
    before = (session.last_number, session.accepted(), len(session.journal.games()),
              web_table(app).live.board.snapshot())
    bodies: list[dict[str, Any]] = [{}, {"amount": 300, "seat": 0, "target": 1, "card": "AS",
                                         "suit": "S", "preset": "bison",
                                         "names": ["A", "B", "C"]}]
    for path in ROUTES:
        for body in bodies:
            web_table(app).guard._wrong.clear()  # the lockout would answer 429 instead
            reply = client.post(path, json=body, headers=headers)
            assert reply.status_code in (401, 403), (path, reply.get_json())
            assert "PIN" in reply.get_json()["error"]
    after = (session.last_number, session.accepted(), len(session.journal.games()),
             [a for a in web_table(app).live.board.snapshot()[0] if a["kind"] != "wrong-pin"])
    assert after[:3] == before[:3] and after[3] == before[3][0]


def test_the_pin_is_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[bytes, bytes]] = []

    def compare(a: bytes, b: bytes) -> bool:
        calls.append((a, b))
        return a == b
    monkeypatch.setattr(pin_module.hmac, "compare_digest", compare)
    guard = pin_module.PinGuard("2468")
    assert guard.check("2468", "a") is None and guard.check("1234", "a") is not None
    assert calls == [(b"2468", b"2468"), (b"1234", b"2468")]


def test_no_cookies_and_no_cross_origin_reading(client: FlaskClient, session: Session) -> None:
    for path in ("/", "/setup", "/api/state", "/api/history", "/api/presets"):
        reply = client.get(path, headers={"Origin": "http://attacker.example"})
        assert "Set-Cookie" not in reply.headers, path
        assert not any(h.startswith("Access-Control-") for h, _ in reply.headers.items()), path


def _hidden_values(value: Any, path: str = "") -> list[str]:
    """Where a JSON value holds dealt hands or face-down cards."""
    found: list[str] = []
    if isinstance(value, dict):
        kind = value.get("type")
        for key, item in value.items():
            if key in ("hands", "kitty") and item is not None and kind == "HandDealt":
                found.append(f"{path}.hands")
            if key == "cards" and item is not None and kind in ("Buried", "CardsPassed"):
                found.append(f"{path}.cards")
            found += _hidden_values(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _hidden_values(item, f"{path}[{i}]")
    return found


@pytest.mark.parametrize("variant", ["bison", "racehorse"])
def test_hidden_cards_never_reach_the_page(client: FlaskClient, session: Session,
                                           variant: str) -> None:
    hidden_events = 0
    if variant != "bison":  # a game of another variant, started from the page
        reply = client.post("/api/game", headers={"X-Table-PIN": PIN}, json={
            "preset": variant, "names": ["Ann", "Bob", "Cy", "Di"]})
        assert reply.status_code == 201
    live = web_table(client.application).live.session
    assert live is not None
    names = list(live.names)
    for event, _ in moves(variant, names=names)[:60]:
        hidden_events += isinstance(event, HandDealt | Buried | CardsPassed) and any(
            getattr(event, k, None) for k in ("hands", "cards"))
        assert live.submit(event).accepted
        state = client.get("/api/state").get_json()
        assert _hidden_values(state) == []
        page = client.get("/").get_data(as_text=True)
        assert '"hands": [[' not in page and '"hands":[[' not in page
    history = client.get("/api/history").get_json()
    assert hidden_events and _hidden_values(history) == []
    assert json.dumps(history).count('"hands": null') >= 1
