"""`pinochle-table new | resume | history | export`, run in-process as a user would."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest

from table.cli import main
from table.journal import Journal
from table.rules import preset, with_options

from .scripted import scripted_game

NAMES = ("Ann", "Bob", "Cy")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "table.sqlite3"
    monkeypatch.setenv("PINOCHLE_DB", str(path))
    return path


def _new(capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str, str]:
    seats = [arg for name in NAMES for arg in ("--seat", name)]
    return _run(capsys, "new", "--variant", "bison", *seats, *extra)


def _script(tmp_path: Path, hands: int, mischief: float) -> tuple[Path, int]:
    rules = with_options(preset("bison"), {"target": "1000", "spades_double": "no"})
    steps = scripted_game(rules, NAMES, seed=8, hands=hands, mischief=mischief)
    path = tmp_path / "events.jsonl"
    path.write_text("# a scripted game\n\n" + "".join(
        json.dumps(s.event.to_dict()) + "\n" for s in steps))
    return path, sum(not s.accepted for s in steps)


def test_new_resume_history_export(db: Path, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _new(capsys, "--option", "target=1000", "--option", "spades_double=no")
    assert code == 0 and "game 1 started" in out and "target=1000" in out
    events, refusals = _script(tmp_path, hands=2, mischief=0.1)
    assert refusals
    code, out, _ = _run(capsys, "resume", "--events", str(events))
    assert code == 1  # some events were refused, as the script meant
    assert out.count("refused:") == refusals and "seat=Bob" in out
    assert "hand-over" in out

    code, out, _ = _run(capsys, "history")
    assert code == 0 and "bison" in out and "Ann, Bob, Cy" in out
    code, out, _ = _run(capsys, "history", "--game", "1")
    assert code == 0 and out.count("REFUSED") == refusals and "target=1000" in out

    code, out, _ = _run(capsys, "export", "--format", "csv")
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0][:6] == ["hand", "dealer", "declarer", "bid", "trump", "outcome"]
    hands = [int(r[0]) for r in rows[1:-1]]
    assert hands == list(range(1, len(hands) + 1)) and rows[-1][0] == "total"
    assert sum(r[2] != "" for r in rows[1:-1]) == 2  # two hands bid and played out
    with Journal(db) as journal:
        record = journal.game(1)
        scores = record.standing.scores
        assert record.rules().target == 1000 and record.rules().spades_double is False
    totals = [int(rows[-1][6 + 4 * seat + 3]) for seat in range(3)]
    assert tuple(totals) == scores and any(totals)
    assert [int(rows[-2][6 + 4 * seat + 3]) for seat in range(3)] == totals

    out_file = tmp_path / "game.json"
    code, _, _ = _run(capsys, "export", "--format", "json", "--game", "1", "-o", str(out_file))
    data = json.loads(out_file.read_text())
    assert code == 0 and data["game"]["options"] == {"spades_double": "no", "target": "1000"}
    assert sum(not e["accepted"] for e in data["entries"]) == refusals
    assert [h["hand"] for h in data["hands"]] == hands
    assert data["standing"]["scores"] == dict(zip(NAMES, scores, strict=True))

    code, out, _ = _run(capsys, "export", "--format", "records")
    records = {r[0]: r for r in csv.reader(io.StringIO(out))}
    assert code == 0 and records["player"][:3] == ["player", "games", "won"]
    assert {n: records[n][1] for n in NAMES} == {n: "1" for n in NAMES}
    assert sum(int(records[n][4]) for n in NAMES) == 2  # the two bids taken


def test_a_new_game_becomes_the_one_resumed(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _new(capsys)
    _run(capsys, "new", "--variant", "racehorse", "--seat", "A", "--seat", "B", "--seat", "C",
         "--seat", "D", "--dealer", "C")
    code, out, _ = _run(capsys, "resume")
    assert code == 0 and "game 2: racehorse" in out and " d2 " in out
    code, out, _ = _run(capsys, "resume", "--game", "1")
    assert "game 1: bison" in out
    code, out, _ = _run(capsys, "resume")
    assert "game 1: bison" in out


@pytest.mark.parametrize(("argv", "words"), [
    (["new", "--variant", "bisn", "--seat", "A"], ["unknown variant 'bisn'", "bison"]),
    (["new", "--variant", "bison", "--seat", "A", "--seat", "B"], ["3 seats", "got 2"]),
    (["new", "--variant", "bison", "--seat", "A", "--seat", "B", "--seat", "C", "--option",
      "min_bd=300"], ["'min_bd'", "min_bid"]),
    (["new", "--variant", "bison", "--seat", "A", "--seat", "B", "--seat", "C", "--option",
      "beat=sometimes"], ["beat", "trump-led"]),
    (["new", "--variant", "bison", "--seat", "A", "--seat", "B", "--seat", "C", "--option",
      "min_bid"], ["FIELD=VALUE"]),
    (["new", "--variant", "bison", "--seat", "A", "--seat", "A", "--seat", "C"],
     ["different name"]),
    (["new", "--variant", "bison", "--seat", "A", "--seat", "B", "--seat", "C", "--dealer",
      "Zed"], ["--dealer", "A, B, C"]),
    (["resume"], ["no game yet", "pinochle-table new"]),
    (["export"], ["no game yet"]),
    (["history", "--game", "4"], ["no game 4"]),
    (["resume", "--game", "4"], ["no game 4"]),
])
def test_bad_arguments_get_a_clear_message_and_a_failing_exit(
        db: Path, capsys: pytest.CaptureFixture[str], argv: list[str], words: list[str]) -> None:
    code, out, err = _run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith(f"pinochle-table {argv[0]}: ")
    for word in words:
        assert word in err
    with Journal(db) as journal:
        assert journal.games() == []


def test_argparse_mistakes_exit_two(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["new", "--seat", "A"])
    assert caught.value.code == 2 and "--variant" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["export", "--format", "pdf"])
    assert "invalid choice: 'pdf'" in capsys.readouterr().err


def test_a_bad_events_line_stops_the_feed_and_keeps_what_came_before(
        db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _new(capsys)
    events, _ = _script(tmp_path, hands=1, mischief=0.0)
    lines = events.read_text().splitlines()
    events.write_text("\n".join([*lines[:5], '{"type": "BidMade", "seat": "Bob"}']))
    code, out, err = _run(capsys, "resume", "--events", str(events))
    assert code == 2 and "line 6" in err and "BidMade.seat" in err
    assert out.count("accepted:") == 3  # two comment lines, then three events
    code, _, err = _run(capsys, "resume", "--events", str(tmp_path / "missing.jsonl"))
    assert code == 2 and "cannot read" in err
    with Journal(db) as journal:
        assert journal.last_number(1) == 3


def test_a_foreign_journal_is_refused_and_left_alone(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "recipes.sqlite3"
    foreign = sqlite3.connect(path)
    foreign.execute("CREATE TABLE recipes (name TEXT)")
    foreign.commit()
    foreign.close()
    before = path.read_bytes()
    for argv in (["history"], ["resume"], ["export"],
                 ["new", "--variant", "bison", "--seat", "A", "--seat", "B", "--seat", "C"]):
        code, _, err = _run(capsys, *argv, "--db", str(path))
        assert code == 2 and "another program" in err and "untouched" in err
    assert path.read_bytes() == before


def test_history_of_an_empty_journal(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "history")
    assert code == 0 and "no games yet" in out


@pytest.mark.parametrize("command", [["history"], ["export"], ["history", "--game", "1"]])
def test_a_read_command_with_a_mistyped_db_says_so_and_creates_nothing(
        db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    wrong = tmp_path / "typo" / "tabel.sqlite3"
    code, _, err = _run(capsys, *command, "--db", str(wrong))
    assert code == 2 and f"there is no journal at {wrong}" in err and "--db" in err
    assert not wrong.parent.exists() and not db.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_export_with_no_journal_yet_creates_none(db: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "export")
    assert code == 2 and "has no game yet" in err and not db.exists()
