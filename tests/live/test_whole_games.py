"""Whole simulated games at the variants' real targets, through the same real inputs as
test_games.py (camera frames of the rendered mat at 1280x720, mock pins, the pty board, the
session and its journal, the page's HTTP API): bison and racehorse to 1500, family to 120, and
brooklyn, settled in stakes with no target, for a round in which each seat deals once. The
final score must be the rules core's from the true cards, with all four deliberate mistakes (a
press out of turn, a renege, a smudged card, a knocked camera) caught and put right.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from table.rules import Phase, preset

from .helpers import check_true_score, start_table

# Seeds with short games (the players' deals and bids decide the length): bison 7 hands (3
# played out), brooklyn 3 (2 played out, one passed in), racehorse 4, family 4.
WHOLE = [  # preset, seed
    ("bison", 7),
    ("brooklyn", 2),
    ("racehorse", 27),
    ("family", 16),
]
MISTAKES = {"out-of-turn", "renege", "unreadable", "bumped"}


@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize(("name", "seed"), WHOLE, ids=[g[0] for g in WHOLE])
def test_a_whole_game_ends_with_the_true_score(tmp_path: Path, name: str, seed: int) -> None:
    rules = preset(name)
    round_only = rules.target == 0  # stakes: no end of its own
    hands = rules.table_seats if round_only else None
    table = start_table(tmp_path / "table.sqlite3", name, {}, hands, seed)
    try:
        assert table.stopping.wait(840), "the simulated game did not finish"
        truth = check_true_score(table, MISTAKES)
        if round_only:
            assert truth.hand_number == rules.table_seats
        else:
            assert truth.phase is Phase.GAME_OVER and truth.winner is not None
    finally:
        table.stop()
