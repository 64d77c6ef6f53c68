"""The journal: several games per file, every entry kept, foreign or damaged files untouched."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from table.alerts import Alert
from table.journal import APPLICATION_ID, Journal, JournalError, Standing, default_path
from table.rules import BidMade, CardPlayed, Corrected, Passed, parse_cards


def _journal_with_a_game(path: Path) -> tuple[Journal, int]:
    journal = Journal(path)
    game = journal.new_game("bison", {"min_bid": "300"}, ["Ann", "Bob", "Cy"], first_dealer=2,
                            now=1000.0)
    return journal, game


def test_a_new_file_is_laid_out_as_a_wal_journal(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "table.sqlite3"
    Journal(path).close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA user_version").fetchone()[0] == 2
    db.close()


def test_events_keep_number_source_time_and_verdict(tmp_path: Path) -> None:
    journal, game = _journal_with_a_game(tmp_path / "j.sqlite3")
    bid = BidMade(seat=0, amount=300, source="gpio", at=1001.5)
    late = Passed(seat=2, source="web", at=1002.0)
    card = CardPlayed(seat=1, card=parse_cards("QS")[0], source="camera", at=1003.0)
    journal.append(game, 1, bid, True, standing=Standing("auction", 1, (0, 0, 0), None),
                   now=1001.6)
    journal.append(game, 2, late, False, "it is Bob's turn", now=1002.1)
    journal.append(game, 3, Corrected(target=1, replacement=BidMade(seat=0, amount=310)), True)
    journal.append(game, 4, card, True)
    journal.close()

    again = Journal(tmp_path / "j.sqlite3")
    entries = again.events(game)
    assert [e.number for e in entries] == [1, 2, 3, 4]
    assert entries[0].event == bid and entries[0].accepted and entries[0].logged == 1001.6
    assert entries[1].event == late and not entries[1].accepted
    assert entries[1].reason == "it is Bob's turn"
    assert entries[2].event.replacement == BidMade(seat=0, amount=310)  # type: ignore[attr-defined]
    assert again.accepted_events(game) == [(1, bid), (3, entries[2].event), (4, card)]
    record = again.game(game)
    assert record.names == ("Ann", "Bob", "Cy") and record.first_dealer == 2
    assert record.options == {"min_bid": "300"} and record.rules().min_bid == 300
    assert record.standing == Standing("auction", 1, (0, 0, 0), None)
    assert (record.events, record.accepted) == (4, 3)
    assert again.last_number(game) == 4


def test_numbers_must_follow_on(tmp_path: Path) -> None:
    journal, game = _journal_with_a_game(tmp_path / "j.sqlite3")
    journal.append(game, 1, Passed(seat=0), True)
    for number in (1, 3):
        with pytest.raises(JournalError, match="another program"):
            journal.append(game, number, Passed(seat=1), True)
    assert journal.last_number(game) == 1


def test_several_games_and_the_last_one_opened(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    first = journal.new_game("bison", {}, ["A", "B", "C"], now=10.0)
    second = journal.new_game("racehorse", {}, ["A", "B", "C", "D"], now=20.0)
    journal.append(first, 1, Passed(seat=1), True)
    assert journal.last_game().id == second  # type: ignore[union-attr]
    journal.mark_opened(first, now=30.0)
    assert journal.last_game().id == first  # type: ignore[union-attr]
    assert [g.id for g in journal.games()] == [first, second]
    assert journal.events(second) == [] and len(journal.events(first)) == 1
    with pytest.raises(JournalError, match="no game 99"):
        journal.game(99)


def test_an_empty_journal_has_no_last_game(tmp_path: Path) -> None:
    assert Journal(tmp_path / "j.sqlite3").last_game() is None


def test_alerts_are_kept_after_the_entry_they_followed(tmp_path: Path) -> None:
    journal, game = _journal_with_a_game(tmp_path / "j.sqlite3")
    unsure = Alert(kind="camera-unsure", text="Is that the queen or the king of spades?",
                   source="camera", at=5.0, seat=1, details={"candidates": ["QS", "KS"]})
    journal.add_alert(game, Alert(kind="note", text="Cy arrived late"))
    journal.append(game, 1, Passed(seat=0), True)
    journal.add_alert(game, unsure)
    records = journal.alerts(game)
    assert [r.after_event for r in records] == [0, 1]
    assert records[1].alert == unsure


def test_default_path_follows_the_environment(monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    monkeypatch.setenv("PINOCHLE_DB", str(tmp_path / "x.sqlite3"))
    assert default_path() == tmp_path / "x.sqlite3"
    monkeypatch.delenv("PINOCHLE_DB")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_path() == tmp_path / ".local/share/pinochle-table/table.sqlite3"


# -- files that are not ours are never written -----------------------------------------------

def _foreign_database(path: Path, app_id: int = 0) -> None:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE recipes (name TEXT)")
    db.execute("INSERT INTO recipes VALUES ('pancakes')")
    db.execute(f"PRAGMA application_id={app_id}")
    db.commit()
    db.close()


def _damaged_journal(path: Path) -> None:
    journal, game = _journal_with_a_game(path)
    for number in range(1, 300):
        journal.append(game, number, BidMade(seat=number % 3, amount=300 + 10 * number), True)
    journal.close()
    data = bytearray(path.read_bytes())
    data[4096 * 3:4096 * 3 + 8] = b"\xff" * 8  # a b-tree page header
    path.write_bytes(bytes(data))


def _newer_journal(path: Path) -> None:
    Journal(path).close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version=7")
    db.commit()
    db.close()


@pytest.mark.parametrize(("make", "words"), [
    (lambda p: p.write_text("Ann 320, Bob 150\n" * 20), ["not an SQLite database"]),
    (lambda p: p.write_bytes(b"SQLite format 3\x00" + b"\x00" * 20), ["not an SQLite database"]),
    (_foreign_database, ["another program"]),
    (lambda p: _foreign_database(p, 0x12345678), ["another program"]),
    (_damaged_journal, ["malformed"]),
    (_newer_journal, ["newer pinochle-table", "version 7"]),
])
def test_a_file_that_is_not_a_sound_journal_is_left_untouched(tmp_path: Path, make: object,
                                                               words: list[str]) -> None:
    path = tmp_path / "table.sqlite3"
    make(path)  # type: ignore[operator]
    before = path.read_bytes()
    for _ in range(2):
        with pytest.raises(JournalError) as caught:
            Journal(path)
        message = str(caught.value)
        assert str(path) in message and "untouched" in message
        for word in words:
            assert word in message
    assert path.read_bytes() == before


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="directory"):
        Journal(tmp_path)


def test_a_second_table_on_the_same_journal_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "table.sqlite3"
    first = Journal(path, exclusive=True)
    with pytest.raises(JournalError, match="another table is already running on .* "
                                           f"\\(process {os.getpid()}\\)"):
        Journal(path, exclusive=True)
    Journal(path).close()  # reading the history beside a running table is fine
    first.close()
    Journal(path, exclusive=True).close()  # once the first has stopped, a table may start
