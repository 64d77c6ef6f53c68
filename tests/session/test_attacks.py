"""Issue 19 on the journal and the command line: bad rule options (item 3), the CLI beside a
running table (8), damaged journals (9), odd input (10); and the held properties (a full disk
is refused and recovered from). Bounded: small journals in tmp_path, in-process CLI."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from table.alerts import Alert
from table.cli import main
from table.journal import Journal, JournalDamaged, JournalError
from table.live.runner import RunOptions, open_game
from table.rules import (
    PRESET_NAMES,
    BidMade,
    Corrected,
    OptionError,
    Passed,
    preset,
    replay,
    with_options,
)
from table.rules.domains import rule_problem
from table.session import Session, SessionError

from .scripted import scripted_game

NAMES = ("Ann", "Bob", "Cy")
BISON = preset("bison")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _played(path: Path, entries: int = 30) -> tuple[int, list[tuple[int, object]]]:
    """A journal at `path` with one game of `entries` scripted entries (some refused)."""
    steps = scripted_game(BISON, NAMES, seed=3, hands=2, mischief=0.1)[:entries]
    with Journal(path) as journal, Session.create(journal, BISON, NAMES) as session:
        for step in steps:
            session.submit(step.event)
        session.alert(Alert(kind="note", text="a note")).result(10)
        return session.game_id, list(session.accepted())


# -- 3: rule options ----------------------------------------------------------------------------

@pytest.mark.parametrize("value", ["0", "-10", "²", "99999999999999999999999"])
def test_a_bad_bid_step_is_refused_at_the_command_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str) -> None:
    code, _, err = _run(capsys, "new", "--db", str(tmp_path / "j.sqlite3"), "--variant",
                        "bison", "--seat", "A", "--seat", "B", "--seat", "C", "--option",
                        f"bid_step={value}")
    assert code == 2 and "bid_step" in err and "Traceback" not in err


def test_every_preset_is_within_the_domains_and_bad_values_are_named() -> None:
    for name in PRESET_NAMES:
        assert rule_problem(preset(name)) is None, name
    for options, words in (
            ({"bid_step": "-10"}, "bid_step must be a whole number from 1 to 1000, not -10"),
            ({"forbidden_endings": "+".join(str(e) for e in range(0, 100, 10))},
             "every bid ends in a forbidden ending"),
            ({"hand_size": "14"}, "make 45 cards, but the deck"),
            ({"partnerships": "yes"}, "partnerships need 4 players"),
            ({"stakes": "250:1:2+350:-2:4"}, "stakes must be at least one row"),
            ({"meld.run": "-150"}, "meld.run must be a whole number from 0"),
            ({"min_bid": "9" * 5000}, "bad value '9999")):
        with pytest.raises(OptionError) as caught:
            with_options(BISON, options)
        assert words in str(caught.value) and len(str(caught.value)) < 300, options


def test_an_old_journal_with_a_bad_option_cannot_brick_the_table(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal(path) as journal:  # as an older program wrote it, unchecked
        bad = journal.new_game("bison", {"bid_step": "-10"}, list(NAMES))
        journal.append(bad, 1, Passed(seat=1), True)
    with Journal(path) as journal:
        with pytest.raises(SessionError, match="bid_step must be a whole number from 1"):
            Session.resume(journal)
        session, how = open_game(journal, RunOptions(db=path))  # what `run` does
        assert session.game_id != bad and f"game {bad} could not be resumed" in how
        assert "bid_step" in how
    code, out, _ = _run(capsys, "history", "--db", str(path))
    assert code == 0 and str(bad) in out


# -- 8: the command line beside a running table -------------------------------------------------

def test_the_command_line_cannot_write_beside_a_running_table(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "j.sqlite3"
    events = tmp_path / "events.jsonl"
    steps = scripted_game(BISON, NAMES, seed=5, hands=1)
    events.write_text(json.dumps(steps[0].event.to_dict()) + "\n")
    with Journal(path, exclusive=True) as journal, \
            Session.create(journal, BISON, NAMES) as table:
        for argv in (["new", "--variant", "bison", "--seat", "A", "--seat", "B", "--seat", "C"],
                     ["resume", "--events", str(events)], ["resume"]):
            code, _, err = _run(capsys, *argv, "--db", str(path))
            assert code == 2 and "already running" in err, argv
        assert _run(capsys, "history", "--db", str(path))[0] == 0  # reading is fine
        for step in steps[:20]:  # the table goes on taking events
            outcome = table.submit(step.event)
            assert outcome.number is not None and outcome.accepted == step.accepted
        assert len(journal.games()) == 1


# -- 9: damage ---------------------------------------------------------------------------------

def _change(path: Path, sql: str, *args: object) -> None:
    db = sqlite3.connect(path)
    db.execute(sql, args)
    db.commit()
    db.close()


def _first_bid(path: Path, game: int) -> tuple[int, str]:
    db = sqlite3.connect(path)
    row = db.execute("SELECT number, data FROM events WHERE game_id = ? AND type = 'BidMade'"
                     " AND accepted = 1 ORDER BY number LIMIT 1", (game,)).fetchone()
    db.close()
    return int(row[0]), str(row[1])


def test_a_flipped_bit_in_a_bid_is_found_on_open_and_repair_keeps_what_is_sound(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "j.sqlite3"
    game, accepted = _played(path)
    number, data = _first_bid(path, game)
    flipped = data.replace('"amount": 2', '"amount": 3')  # one bit: '2' is 0x32, '3' 0x33
    assert flipped != data
    _change(path, "UPDATE events SET data = ? WHERE game_id = ? AND number = ?", flipped, game,
            number)
    with pytest.raises(JournalDamaged) as caught:
        Journal(path)
    message = str(caught.value)
    assert f"game {game}: entry {number} was changed" in message and "repair" in message
    for argv in (["history"], ["export"], ["resume"]):  # every command says so, none goes on
        code, _, err = _run(capsys, *argv, "--db", str(path))
        assert code == 2 and f"entry {number}" in err, argv

    code, out, _ = _run(capsys, "repair", "--db", str(path))
    assert code == 0 and f"kept entries 1 to {number - 1}" in out
    copy = Path(out.split(": ", 1)[1].splitlines()[0])
    with pytest.raises(JournalDamaged):
        Journal(copy)  # the copy is the file as it was
    with Journal(path) as journal, Session.resume(journal, game) as resumed:
        kept = [(n, e) for n, e in accepted if n < number]
        assert resumed.accepted() == kept
        assert resumed.game == replay(BISON, NAMES, kept)
        assert resumed.submit(BidMade(seat=0, amount=10**4)).number == number  # goes on


@pytest.mark.parametrize(("damage", "words"), [
    ("DELETE FROM events WHERE number = 5", "entry 5 is missing"),
    ("DELETE FROM events WHERE number = (SELECT max(number) FROM events)", "are missing"),
    ("UPDATE games SET options = '{\"min_bid\": \"200\"}'", "rules or seats were changed"),
    ("UPDATE seats SET name = 'Eve' WHERE seat = 1", "rules or seats were changed"),
    ("UPDATE events SET accepted = 1 - accepted WHERE number = 3", "entry 3 was changed"),
    ("UPDATE alerts SET data = replace(data, 'a note', 'a nose')", "alert 1 was changed"),
])
def test_changed_or_lost_rows_are_refused_at_open(tmp_path: Path, damage: str,
                                                  words: str) -> None:
    path = tmp_path / "j.sqlite3"
    _played(path)
    _change(path, damage)
    with pytest.raises(JournalDamaged, match=words):
        Journal(path)
    copy, done = Journal.repair(path)
    assert copy.exists() and done
    Journal(path).close()  # opens after the repair


@pytest.mark.parametrize("table", ["alerts", "seats", "events"])
def test_a_missing_table_is_refused_at_open(tmp_path: Path, table: str) -> None:
    path = tmp_path / "j.sqlite3"
    _played(path)
    _change(path, f"DROP TABLE {table}")
    with pytest.raises(JournalError, match=f"its {table} table is missing"):
        Journal(path)


_VERSION_1 = (
    """CREATE TABLE games (id INTEGER PRIMARY KEY, created REAL NOT NULL, opened REAL NOT NULL,
        variant TEXT NOT NULL, options TEXT NOT NULL, first_dealer INTEGER NOT NULL,
        phase TEXT NOT NULL DEFAULT '', hand_number INTEGER NOT NULL DEFAULT 0,
        scores TEXT NOT NULL DEFAULT '[]', winner INTEGER)""",
    """CREATE TABLE seats (game_id INTEGER NOT NULL REFERENCES games(id), seat INTEGER NOT NULL,
        name TEXT NOT NULL, PRIMARY KEY (game_id, seat)) WITHOUT ROWID""",
    """CREATE TABLE events (game_id INTEGER NOT NULL REFERENCES games(id),
        number INTEGER NOT NULL, type TEXT NOT NULL, source TEXT NOT NULL, at REAL NOT NULL,
        logged REAL NOT NULL, accepted INTEGER NOT NULL CHECK (accepted IN (0, 1)),
        reason TEXT, data TEXT NOT NULL, PRIMARY KEY (game_id, number)) WITHOUT ROWID""",
    """CREATE TABLE alerts (id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL REFERENCES
        games(id), after_event INTEGER NOT NULL, logged REAL NOT NULL, data TEXT NOT NULL)""",
    "CREATE INDEX alerts_by_game ON alerts (game_id, id)",
)


def _version_1(path: Path, events: list[tuple[object, bool]], bad_row: bool = False) -> None:
    db = sqlite3.connect(path)
    for statement in _VERSION_1:
        db.execute(statement)
    db.execute("PRAGMA application_id=1347306316")
    db.execute("PRAGMA user_version=1")
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("INSERT INTO games VALUES (1, 1000.0, 1000.0, 'bison', '{}', 0, '', 0, '[]', "
               "NULL)")
    db.executemany("INSERT INTO seats VALUES (1, ?, ?)", list(enumerate(NAMES)))
    for number, (event, accepted) in enumerate(events, 1):
        data = json.dumps(event.to_dict())  # type: ignore[attr-defined]
        if bad_row and number == 4:
            data = data[:-3]
        db.execute("INSERT INTO events VALUES (1, ?, ?, '', 0.0, 1000.0, ?, NULL, ?)",
                   (number, type(event).__name__, int(accepted), data))
    db.execute("INSERT INTO alerts VALUES (1, 1, 2, 1000.0, ?)",
               (json.dumps(Alert(kind="note", text="hi").to_dict()),))
    db.commit()
    db.close()


def test_a_version_1_journal_is_checked_and_given_its_hashes(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    steps = scripted_game(BISON, NAMES, seed=4, hands=1, mischief=0.1)[:25]
    _version_1(path, [(s.event, s.accepted) for s in steps])
    with Journal(path) as journal:
        session = Session.resume(journal)
        assert session.last_number == 25
        assert session.game == replay(BISON, NAMES, journal.accepted_events(1))
        assert len(journal.alerts(1)) == 1
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 2
    assert db.execute("SELECT count(*) FROM events WHERE chain = ''").fetchone()[0] == 0
    db.close()
    _change(path, "UPDATE events SET source = 'x' WHERE number = 7")
    with pytest.raises(JournalDamaged, match="entry 7"):  # from now on, checked like any
        Journal(path)


def test_a_version_1_journal_with_a_damaged_row_is_refused_at_open(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    steps = scripted_game(BISON, NAMES, seed=4, hands=1)[:10]
    _version_1(path, [(s.event, s.accepted) for s in steps], bad_row=True)
    with pytest.raises(JournalError, match="game 1 entry 4"):
        Journal(path)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 1  # the migration rolled back
    db.close()


# -- 10: odd input -----------------------------------------------------------------------------

def test_deep_corrections_from_the_command_line_are_refused_cleanly(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "j.sqlite3"
    game, _ = _played(path, entries=10)
    deep: dict[str, object] = {"type": "Passed", "seat": 0}
    for _ in range(600):
        deep = {"type": "Corrected", "target": 1, "replacement": deep}
    lines = tmp_path / "deep.jsonl"
    lines.write_text(json.dumps({"type": "Corrected", "target": 2, "replacement": {
        "type": "Corrected", "target": 1, "replacement": {"type": "Passed", "seat": 0}}})
        + "\n" + json.dumps(deep) + "\n")
    code, out, err = _run(capsys, "resume", "--db", str(path), "--events", str(lines))
    assert code == 2 and "line 2" in err and "refused" in out
    code, out, _ = _run(capsys, "history", "--db", str(path), "--game", str(game))
    assert code == 0 and "a correction must put a game event in place" in out


# -- held: a full disk -------------------------------------------------------------------------

def test_a_full_disk_is_refused_honestly_and_recovered_from(tmp_path: Path) -> None:
    steps = scripted_game(BISON, NAMES, seed=6, hands=1)
    with Journal(tmp_path / "j.sqlite3") as journal, \
            Session.create(journal, BISON, NAMES) as session:
        session.submit(steps[0].event)
        pages = journal._db.execute("PRAGMA page_count").fetchone()[0]
        journal._db.execute(f"PRAGMA max_page_count={pages}")  # the disk is full
        answers = [session.submit(s.event) for s in steps[1:40]]
        full = [a for a in answers if a.number is None]
        assert full and all("could not be written down" in (a.reason or "") for a in full)
        journal._db.execute("PRAGMA max_page_count=1073741823")  # room again
        first_lost = steps[1 + answers.index(full[0])]
        again = session.submit(first_lost.event)
        assert again.number == session.last_number and again.accepted == first_lost.accepted
    with Journal(tmp_path / "j.sqlite3") as journal:  # what was written is sound
        resumed = Session.resume(journal)
        assert resumed.game == session.game and resumed.last_number == session.last_number


def test_a_nested_correction_is_journalled_as_refused_never_accepted(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite3") as journal, \
            Session.create(journal, BISON, NAMES) as session:
        steps = scripted_game(BISON, NAMES, seed=6, hands=1)
        for step in steps[:5]:
            session.submit(step.event)
        target = session.accepted()[-1][0]
        inner = Corrected(target=target, replacement=Passed(seat=0))
        outcome = session.submit(Corrected(target=target, replacement=inner))
        assert not outcome.accepted and outcome.number is not None
        assert replay(BISON, NAMES, journal.accepted_events(session.game_id)) == session.game
