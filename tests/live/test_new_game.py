"""A new game started from the page: the buttons, the camera and the players follow it."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from table.live.phone import Phone
from table.rules import BidMade, HandDealt, Passed

from .helpers import PIN, start_table


@pytest.mark.timeout(120)
def test_a_game_started_on_the_page_is_played_at_the_table(tmp_path: Path) -> None:
    table = start_table(tmp_path / "table.sqlite3", "bison", {}, hands=None)
    try:
        old = table.session
        assert old is not None
        answer = Phone(table.url, PIN).post(
            "/api/game", {"preset": "family", "names": ["Kim", "Lou", "Max"]})
        assert answer["state"]["game"]["variant"] == "family"
        new = table.session
        assert new is not None and new is not old and new.game_id == answer["game_id"]
        deadline = time.monotonic() + 90
        while True:  # the deal seen by the camera, then a press on a button
            entries = [e for e in new.history() if e.accepted]
            dealt = any(isinstance(e.event, HandDealt) and e.event.source == "camera"
                        for e in entries)
            pressed = any(isinstance(e.event, BidMade | Passed)
                          and e.event.source in ("gpio", "serial") for e in entries)
            if dealt and pressed:
                break
            assert table.failure is None, table.failure
            assert time.monotonic() < deadline, "the new game was not played at the table"
            time.sleep(0.1)
        assert all(e.event.source != "sim" for e in new.history())
        status = Phone(table.url, PIN).get("/api/camera")  # the page's setup view
        assert status["calibrated"] is True and status["frames"] > 0
        picture = table.feed.jpeg() if table.feed is not None else None
        assert picture is not None and picture[:2] == b"\xff\xd8"
    finally:
        table.stop()
