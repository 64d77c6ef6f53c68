"""Whole simulated games through the real inputs: camera frames of the rendered mat read by
the vision tracker, mock GPIO pins, the simulated serial board on a pty, the session and its
journal, and the page's HTTP API (a phone with the PIN). The final score must be the one the
rules core computes from the true cards, and every deliberate mistake must be caught.

Game lengths are cut down with the variants' own options so the set stays within minutes:
bison and racehorse to 300 (a made first contract usually ends it), family to 30, brooklyn
(stakes, no target) one hand; at most two hands each. The seeds give hands that are played
out (not passed in).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from table.live.phone import Phone
from table.rules import replay

from .helpers import PIN, start_table

GAMES = [
    ("bison", {"target": "300"}, 2, 1),
    ("brooklyn", {}, 1, 2),
    ("racehorse", {"target": "300"}, 2, 2),
    ("family", {"target": "30"}, 2, 1),
]


@pytest.mark.timeout(400)
@pytest.mark.parametrize(("preset", "options", "hands", "seed"), GAMES,
                         ids=[g[0] for g in GAMES])
def test_a_simulated_game_ends_with_the_true_score(tmp_path: Path, preset: str,
                                                   options: dict[str, str], hands: int,
                                                   seed: int) -> None:
    table = start_table(tmp_path / "table.sqlite3", preset, options, hands, seed)
    try:
        assert table.stopping.wait(360), "the simulated game did not finish"
        assert table.failure is None, table.failure
        players, session = table.players, table.session
        assert players is not None and session is not None and players.complete
        game = session.game
        truth = replay(game.rules, game.names, list(enumerate(players.true_events, 1)))
        assert game.hand_number == truth.hand_number >= 1
        assert game.scores == truth.scores
        assert game.ledger == truth.ledger
        assert game.view()["history"] == truth.view()["history"]
        page = Phone(table.url, PIN).state()
        assert page["game"]["scores"] == list(truth.scores)
        assert page["game"]["position"] == game.position()

        sources = {e.event.source for e in session.history()}
        assert {"camera", "gpio", "serial", "web"} <= sources
        kinds = {m.kind for m in players.mistakes}
        assert {"out-of-turn", "unreadable", "bumped"} <= kinds
        for mistake in players.mistakes:
            assert mistake.caught, mistake
        refused = [e for e in session.history() if not e.accepted]
        assert any(e.event.source in ("gpio", "serial") for e in refused)
        assert any("turn" in reason for reason in table.controls.panel.refusals)  # buzzed
    finally:
        table.stop()
