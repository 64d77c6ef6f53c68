"""Short simulated games through the real inputs: camera frames of the rendered mat read by
the vision tracker, mock GPIO pins, the simulated serial board on a pty, the session and its
journal, and the page's HTTP API (a phone with the PIN). The final score must be the one the
rules core computes from the true cards, and every deliberate mistake must be caught.

Game lengths are cut down with the variants' own options so the set stays within minutes:
bison and racehorse to 300 (a made first contract usually ends it), family to 30, brooklyn
(stakes, no target) one hand; at most two hands each. The seeds give hands that are played
out (not passed in). Whole games at the real targets: test_whole_games.py (slow).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import check_true_score, start_table

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
        check_true_score(table, {"out-of-turn", "unreadable", "bumped"})
    finally:
        table.stop()
