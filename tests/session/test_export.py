"""The score sheet and the JSON record, for points, stakes and check scoring."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from table.export import game_json, score_sheet
from table.journal import Journal
from table.rules import preset
from table.session import Session

from .scripted import scripted_game


@pytest.mark.parametrize(("variant", "names", "money", "checks"), [
    ("racehorse", ("Ann", "Bob", "Cy", "Di"), False, False),
    ("brooklyn", ("Ann", "Bob", "Cy"), True, False),
    ("check", ("Ann", "Bob", "Cy"), False, True),
])
def test_the_sheet_adds_up_to_the_game(tmp_path: Path, variant: str, names: tuple[str, ...],
                                       money: bool, checks: bool) -> None:
    rules = preset(variant)
    steps = scripted_game(rules, names, seed=2, hands=3, mischief=0.05)
    with Journal(tmp_path / "t.sqlite3") as journal:
        with Session.create(journal, rules, names) as session:
            for step in steps:
                assert session.submit(step.event, timeout=30).accepted == step.accepted
        game = session.game
        rows = list(csv.reader(io.StringIO(score_sheet(journal, session.game_id))))
        record = game_json(journal, session.game_id)
    width = 5 if checks else 4
    header, hands, total = rows[0], rows[1:-1], rows[-1]
    assert header[6:6 + width] == ["Ann meld", "Ann tricks",
                                   "Ann stakes" if money else "Ann score", "Ann total",
                                   *(["Ann checks"] if checks else [])]
    assert len(hands) == len(game.history) + (game.result is not None)
    assert sum(h[2] != "" for h in hands) == 3  # three hands bid and played
    final = game.ledger if money else game.scores
    assert [int(total[6 + width * s + 3]) for s in range(len(names))] == list(final)
    if not money:
        assert [int(hands[-1][6 + width * s + 3]) for s in range(len(names))] == list(final)
    if checks:
        assert [int(total[6 + width * s + 4]) for s in range(len(names))] == list(game.checks)
        assert [sum(int(h[6 + width * s + 4]) for h in hands)
                for s in range(len(names))] == list(game.checks)
    if rules.partnerships:
        assert total[6 + 3] == total[6 + 2 * width + 3]  # partners share a score
    assert json.loads(json.dumps(record))["standing"]["position"] == game.position()
    assert len(record["entries"]) == len(steps)
