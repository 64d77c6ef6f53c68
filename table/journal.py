"""The journal: every game, seat, event and alert, in one SQLite file that survives a power cut.

Each write is one transaction committed durably (WAL, synchronous=FULL) before the caller goes
on. Events are never deleted or changed: undo and corrections are events too. A file is only
ever written if it is empty or carries this program's application id; anything else (another
program's database, a damaged file, a newer schema) raises `JournalError` and is left untouched.

Integrity: each game row is sealed (a SHA-256 of its rules, seats and start), each event row
carries a hash chained to the one before it (the first to the game's seal) and the game keeps
the last (`head`), and each alert row its own checksum. `Journal(...)` checks all of it, and that
every table is there, when it opens the file: a changed bid, a lost or added row, a missing
table is refused there, naming the game and entry, instead of a wrong score or an error later.
`repair` keeps a copy of the file and cuts each damaged game back to its last sound entry. A
journal of version 1 (no hashes) is checked row by row and given them when first opened.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from table.alerts import Alert, AlertFormatError
from table.rules import (
    Event,
    EventFormatError,
    OptionError,
    Rules,
    UnknownPresetError,
    event_from_dict,
    preset,
    with_options,
)

APPLICATION_ID = 0x50_4E_43_4C  # "PNCL" in the SQLite header: this file is a pinochle journal
SCHEMA_VERSION = 2
SQLITE_MAGIC = b"SQLite format 3\x00"
DB_ENV = "PINOCHLE_DB"

_SCHEMA = (
    """CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        created REAL NOT NULL,
        opened REAL NOT NULL,            -- last time a session took it: resume picks the latest
        variant TEXT NOT NULL,           -- the preset name
        options TEXT NOT NULL,           -- JSON: the Rules fields that differ from the preset
        first_dealer INTEGER NOT NULL,
        phase TEXT NOT NULL DEFAULT '',  -- the standing after the last accepted event
        hand_number INTEGER NOT NULL DEFAULT 0,
        scores TEXT NOT NULL DEFAULT '[]',
        winner INTEGER,
        seal TEXT NOT NULL DEFAULT '',   -- SHA-256 of the game's rules, seats and start
        head TEXT NOT NULL DEFAULT ''    -- the chain hash of its last event (its seal if none)
    )""",
    """CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID""",
    """CREATE TABLE events (
        game_id INTEGER NOT NULL REFERENCES games(id),
        number INTEGER NOT NULL,         -- the journal number, counted per game from 1
        type TEXT NOT NULL,
        source TEXT NOT NULL,
        at REAL NOT NULL,                -- when it happened, stamped by the input
        logged REAL NOT NULL,            -- when the session wrote it down
        accepted INTEGER NOT NULL CHECK (accepted IN (0, 1)),
        reason TEXT,                     -- why it was refused
        data TEXT NOT NULL,              -- the event as JSON (Event.to_dict)
        chain TEXT NOT NULL DEFAULT '',  -- SHA-256 of the entry before's chain and this row
        PRIMARY KEY (game_id, number)
    ) WITHOUT ROWID""",
    """CREATE TABLE alerts (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id),
        after_event INTEGER NOT NULL,    -- the journal number of the last event before it
        logged REAL NOT NULL,
        data TEXT NOT NULL,              -- the alert as JSON (Alert.to_dict)
        sum TEXT NOT NULL DEFAULT ''     -- SHA-256 of this row
    )""",
    "CREATE INDEX alerts_by_game ON alerts (game_id, id)",
)
# What version 1 lacked (it is given these, and its rows their hashes, when first opened).
_MIGRATE_1 = (
    "ALTER TABLE games ADD COLUMN seal TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE games ADD COLUMN head TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE events ADD COLUMN chain TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE alerts ADD COLUMN sum TEXT NOT NULL DEFAULT ''",
)
_COLUMNS = {
    "games": {"id", "created", "opened", "variant", "options", "first_dealer", "phase",
              "hand_number", "scores", "winner", "seal", "head"},
    "seats": {"game_id", "seat", "name"},
    "events": {"game_id", "number", "type", "source", "at", "logged", "accepted", "reason",
               "data", "chain"},
    "alerts": {"id", "game_id", "after_event", "logged", "data", "sum"},
}


class JournalError(Exception):
    """The journal file cannot be used as asked; the message says why and what to do."""


class JournalDamaged(JournalError):
    """Rows of the journal do not match their hashes: `pinochle-table repair` can cut the
    damaged games back to their last sound entry (keeping a copy of the file)."""


@dataclass(frozen=True)
class Standing:
    """Where a game stands after its last accepted event (kept for `history`)."""

    phase: str
    hand_number: int
    scores: tuple[int, ...]
    winner: int | None


@dataclass(frozen=True)
class Entry:
    """One event to write down: accepted, or refused with the reason. `standing` is where
    the game stands after it, when that changed."""

    number: int
    event: Event
    accepted: bool
    reason: str | None = None
    standing: Standing | None = None


@dataclass(frozen=True)
class GameRecord:
    id: int
    created: float
    opened: float
    variant: str
    options: dict[str, str]   # the Rules fields that differ from the preset, as option text
    names: tuple[str, ...]
    first_dealer: int
    standing: Standing
    events: int     # journal entries, refused ones included
    accepted: int   # accepted events

    def rules(self) -> Rules:
        """The game's rules: its preset with its options."""
        try:
            return with_options(preset(self.variant), self.options)
        except (OptionError, UnknownPresetError) as exc:
            raise JournalError(f"game {self.id} has rules this program does not know: {exc}"
                               ) from None


@dataclass(frozen=True)
class EventRecord:
    game_id: int
    number: int
    event: Event
    accepted: bool
    reason: str | None
    logged: float


@dataclass(frozen=True)
class AlertRecord:
    id: int
    game_id: int
    after_event: int
    alert: Alert
    logged: float


def default_path() -> Path:
    """$PINOCHLE_DB, or ~/.local/share/pinochle-table/table.sqlite3."""
    env = os.environ.get(DB_ENV)
    if env:
        return Path(env).expanduser()
    return Path.home() / ".local" / "share" / "pinochle-table" / "table.sqlite3"


class Journal:
    """One journal file, several games. Safe to share between threads."""

    def __init__(self, path: str | os.PathLike[str], exclusive: bool = False) -> None:
        """Open (or create) the journal at `path`. `exclusive` holds it for one running table:
        a second table on the same file is refused instead of writing beside the first."""
        self.path = Path(path)
        self._lock = threading.RLock()
        _check_header(self.path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._holder: IO[str] | None = None
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                                       timeout=10.0)
            _functions(self._db)
        except sqlite3.Error as exc:
            raise JournalError(f"cannot open {self.path}: {exc}") from None
        try:
            self._prepare()
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise _damaged(self.path, str(exc)) from None
        except JournalError:
            self._db.close()
            raise
        if exclusive:
            try:
                self._holder = _hold(self.path)
            except JournalError:
                self._db.close()
                raise

    def _prepare(self) -> None:
        db = self._db
        if db.execute("PRAGMA page_count").fetchone()[0] == 0:
            self._create()
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        if app_id != APPLICATION_ID:
            raise _foreign(self.path)
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise JournalError(
                f"{self.path} was written by a newer pinochle-table (journal version {version}, "
                f"this one reads up to {SCHEMA_VERSION}); update the program. The file was "
                "left untouched.")
        check = [row[0] for row in db.execute("PRAGMA quick_check")]
        if check != ["ok"]:
            raise _damaged(self.path, "; ".join(check[:3]))
        self._check_tables(version)
        # Only now, knowing the file is ours and sound, may anything be written to it.
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        if version < SCHEMA_VERSION:
            self._migrate()
        problems = self._verify()
        if problems:
            raise JournalDamaged(_damaged_rows(self.path, problems))

    def _check_tables(self, version: int) -> None:
        """Every table with every column this version has (a missing one: refused now)."""
        for table, columns in _COLUMNS.items():
            have = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
            if not have:
                raise _damaged(self.path, f"its {table} table is missing")
            if version < 2:
                have |= {"seal", "head", "chain", "sum"}  # added by the migration
            if columns - have:
                raise _damaged(self.path, f"its {table} table lacks "
                                          f"{', '.join(sorted(columns - have))}")

    def _migrate(self) -> None:
        """Version 1 to 2: every row read and checked, then given its hash, in one commit."""
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            if db.execute("PRAGMA user_version").fetchone()[0] < 2:
                for statement in _MIGRATE_1:
                    db.execute(statement)
                for (game_id,) in db.execute("SELECT id FROM games").fetchall():
                    self._check_rows(game_id)
                    self._rehash(game_id)
                for alert_id, data in db.execute("SELECT id, data FROM alerts").fetchall():
                    try:
                        Alert.from_dict(json.loads(data))
                    except (ValueError, RecursionError, AlertFormatError) as exc:
                        raise _damaged(self.path, f"alert {alert_id}: {exc}") from None
                db.execute("UPDATE alerts SET sum = " + _ALERT_SUM)
                db.execute("PRAGMA user_version=2")
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    def _check_rows(self, game_id: int) -> None:
        """Every row of an unhashed game reads back (options, scores, events)."""
        rows = self._db.execute("SELECT id, created, opened, variant, options, first_dealer,"
                                " phase, hand_number, scores, winner, 0, 0 FROM games"
                                " WHERE id = ?", (game_id,)).fetchall()
        self._game_record(rows[0])
        numbers = []
        for number, data in self._db.execute(
                "SELECT number, data FROM events WHERE game_id = ? ORDER BY number", (game_id,)):
            _event(self.path, game_id, number, data)
            numbers.append(number)
        if numbers != list(range(1, len(numbers) + 1)):
            raise _damaged(self.path, f"game {game_id}: its entries are not numbered 1, 2, 3...")

    def _rehash(self, game_id: int) -> None:
        """Seal game `game_id` and chain its events as they stand."""
        db = self._db
        seal = _seal(db, game_id)
        head = seal
        rows = db.execute(f"SELECT {_EVENT_FIELDS} FROM events WHERE game_id = ?"
                          " ORDER BY number", (game_id,)).fetchall()
        for row in rows:
            head = _chain(head, row)
            db.execute("UPDATE events SET chain = ? WHERE game_id = ? AND number = ?",
                       (head, game_id, row[1]))
        db.execute("UPDATE games SET seal = ?, head = ? WHERE id = ?", (seal, head, game_id))

    def _verify(self) -> list[str]:
        """What does not match its hash, in one snapshot of the file (empty if all is well)."""
        db = self._db
        problems: list[str] = []
        db.execute("BEGIN")
        try:
            chains: dict[int, tuple[str, str, int]] = {}
            for game_id, seal, head in db.execute("SELECT id, seal, head FROM games"):
                if _seal(db, game_id) != seal:
                    problems.append(f"game {game_id}: its rules or seats were changed")
                chains[game_id] = (seal, head, 0)
            for row in db.execute(f"SELECT {_EVENT_FIELDS}, chain FROM events"
                                  " ORDER BY game_id, number"):
                game_id, number = row[0], row[1]
                if game_id not in chains:
                    problems.append(f"entry {number} belongs to no game ({game_id})")
                    continue
                prev, head, last = chains[game_id]
                if last < 0:
                    continue  # this game is already reported
                mine = _chain(prev, row[:-1])
                if number != last + 1 or mine != row[-1]:
                    what = "is missing" if number != last + 1 else "was changed"
                    problems.append(f"game {game_id}: entry {last + 1} {what}")
                    chains[game_id] = (prev, head, -1)
                else:
                    chains[game_id] = (mine, head, number)
            for game_id, (prev, head, last) in chains.items():
                if last >= 0 and prev != head:
                    problems.append(f"game {game_id}: entries after {last} are missing")
            problems += [f"alert {alert_id} was changed" for (alert_id,) in db.execute(
                f"SELECT id FROM alerts WHERE sum != {_ALERT_SUM}")]
        finally:
            db.execute("COMMIT")
        return problems

    def _create(self) -> None:
        """Lay out the tables in an empty file, stamped with our id, in one transaction."""
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            # Another program may have laid it out meanwhile; inside the transaction an empty
            # file already counts one page, so look at the schema instead.
            if db.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0] == 0:
                for statement in _SCHEMA:
                    db.execute(statement)
                db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    # -- plumbing ---------------------------------------------------------------------------

    def close(self) -> None:
        with self._lock:
            self._db.close()
            if self._holder is not None:
                self._holder.close()  # closing the file lets go of the lock
                self._holder = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One durable transaction: committed (and synced) when the block ends."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise JournalError(f"cannot write {self.path}: {exc}") from None
            try:
                yield self._db
                self._db.execute("COMMIT")
            except BaseException as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error):
                    raise JournalError(f"cannot write {self.path}: {exc}") from None
                raise

    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        with self._lock:
            try:
                return self._db.execute(sql, args).fetchall()
            except sqlite3.Error as exc:
                raise JournalError(f"cannot read {self.path}: {exc}") from None

    def durability(self) -> dict[str, str]:
        """How commits reach the disk, as SQLite reports it (for benchmarks and checks)."""
        rows = self._read("PRAGMA journal_mode")
        level = self._read("PRAGMA synchronous")[0][0]
        names = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}
        return {"journal_mode": str(rows[0][0]), "synchronous": names.get(level, str(level))}

    # -- games ------------------------------------------------------------------------------

    def new_game(self, variant: str, options: dict[str, str], names: Sequence[str],
                 first_dealer: int = 0, standing: Standing | None = None,
                 now: float | None = None) -> int:
        """Record a new game and its seats; returns its id."""
        now = time.time() if now is None else now
        standing = standing or Standing("", 0, (), None)
        with self._write() as db:
            cursor = db.execute(
                "INSERT INTO games (created, opened, variant, options, first_dealer, phase,"
                " hand_number, scores, winner) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (now, now, variant, json.dumps(options, sort_keys=True), first_dealer,
                 standing.phase, standing.hand_number, json.dumps(list(standing.scores)),
                 standing.winner))
            game_id = cursor.lastrowid
            assert game_id is not None
            db.executemany("INSERT INTO seats (game_id, seat, name) VALUES (?, ?, ?)",
                           [(game_id, seat, name) for seat, name in enumerate(names)])
            seal = _seal(db, game_id)
            db.execute("UPDATE games SET seal = ?, head = ? WHERE id = ?", (seal, seal, game_id))
        return game_id

    def games(self) -> list[GameRecord]:
        """Every game, the most recently opened first."""
        rows = self._read(_GAME_QUERY + " ORDER BY g.opened DESC, g.id DESC")
        return [self._game_record(row) for row in rows]

    def game(self, game_id: int) -> GameRecord:
        rows = self._read(_GAME_QUERY + " WHERE g.id = ?", (game_id,))
        if not rows:
            raise JournalError(f"there is no game {game_id} in {self.path}")
        return self._game_record(rows[0])

    def last_game(self) -> GameRecord | None:
        """The game opened most recently (the one to resume), or None if there is none."""
        rows = self._read(_GAME_QUERY + " ORDER BY g.opened DESC, g.id DESC LIMIT 1")
        return self._game_record(rows[0]) if rows else None

    def mark_opened(self, game_id: int, now: float | None = None) -> None:
        """Make `game_id` the game `last_game` returns."""
        with self._write() as db:
            db.execute("UPDATE games SET opened = ? WHERE id = ?",
                       (time.time() if now is None else now, game_id))

    def _game_record(self, row: Sequence[Any]) -> GameRecord:
        (game_id, created, opened, variant, options, first_dealer, phase, hand_number, scores,
         winner, events, accepted) = row
        names = tuple(r[0] for r in self._read(
            "SELECT name FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)))
        try:
            loaded_options = json.loads(options)
            loaded_scores = tuple(json.loads(scores))
        except ValueError as exc:
            raise _damaged(self.path, f"game {game_id}: {exc}") from None
        if not isinstance(loaded_options, dict) or not all(
                isinstance(v, str) for v in loaded_options.values()):
            raise _damaged(self.path, f"game {game_id}: its options are not option texts")
        return GameRecord(game_id, created, opened, variant, loaded_options, names,
                          first_dealer, Standing(phase, hand_number, loaded_scores, winner),
                          events, accepted or 0)

    # -- events -----------------------------------------------------------------------------

    def append(self, game_id: int, number: int, event: Event, accepted: bool,
               reason: str | None = None, standing: Standing | None = None,
               now: float | None = None) -> None:
        """Write down one event as journal entry `number` of the game, durably."""
        self.append_all(game_id, [Entry(number, event, accepted, reason, standing)], now)

    def append_all(self, game_id: int, entries: Sequence[Entry],
                   now: float | None = None) -> None:
        """Write down several entries in one durable commit (all of them or none).

        The numbers must follow on from the game's last entry: a second program writing the
        same game gets a `JournalError` instead of a gap or a clash.
        """
        if not entries:
            return
        logged = time.time() if now is None else now
        with self._write() as db:
            last = db.execute("SELECT coalesce(max(number), 0) FROM events WHERE game_id = ?",
                              (game_id,)).fetchone()[0]
            expected = list(range(last + 1, last + 1 + len(entries)))
            if [e.number for e in entries] != expected:
                raise JournalError(
                    f"game {game_id} was written by another program meanwhile (its journal "
                    f"ends at entry {last}, this session expected {entries[0].number - 1}); "
                    "restart it")
            head = db.execute("SELECT head FROM games WHERE id = ?", (game_id,)).fetchone()
            if head is None:
                raise JournalError(f"there is no game {game_id} in {self.path}")
            head = head[0]
            rows = []
            for e in entries:
                row = (game_id, e.number, type(e.event).__name__, e.event.source,
                       float(e.event.at), float(logged), int(e.accepted), e.reason,
                       json.dumps(e.event.to_dict()))
                head = _chain(head, row)
                rows.append((*row, head))
            db.executemany(
                "INSERT INTO events (game_id, number, type, source, at, logged, accepted,"
                " reason, data, chain) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
            db.execute("UPDATE games SET head = ? WHERE id = ?", (head, game_id))
            standing = next((e.standing for e in reversed(entries) if e.standing), None)
            if standing is not None:
                db.execute(
                    "UPDATE games SET phase = ?, hand_number = ?, scores = ?, winner = ?"
                    " WHERE id = ?",
                    (standing.phase, standing.hand_number, json.dumps(list(standing.scores)),
                     standing.winner, game_id))

    def events(self, game_id: int, accepted_only: bool = False, after: int = 0,
               limit: int | None = None) -> list[EventRecord]:
        """The game's journal entries in order (refused ones too unless `accepted_only`): those
        numbered after `after`, at most `limit` of them."""
        sql = ("SELECT number, data, accepted, reason, logged FROM events WHERE game_id = ?"
               " AND number > ?" + (" AND accepted = 1" if accepted_only else "")
               + " ORDER BY number" + ("" if limit is None else f" LIMIT {int(limit)}"))
        return [EventRecord(game_id, number, _event(self.path, game_id, number, data),
                            bool(accepted), reason, logged)
                for number, data, accepted, reason, logged in self._read(sql, (game_id, after))]

    def accepted_events(self, game_id: int) -> list[tuple[int, Event]]:
        """(journal number, event) of every accepted event: what `replay` folds."""
        return [(r.number, r.event) for r in self.events(game_id, accepted_only=True)]

    def last_number(self, game_id: int) -> int:
        """The number of the game's last journal entry (0 if none)."""
        return int(self._read("SELECT coalesce(max(number), 0) FROM events WHERE game_id = ?",
                              (game_id,))[0][0])

    # -- alerts -----------------------------------------------------------------------------

    def add_alert(self, game_id: int, alert: Alert, now: float | None = None) -> int:
        """Write down an alert after the game's current last entry; returns its id."""
        logged = time.time() if now is None else now
        with self._write() as db:
            cursor = db.execute(
                "INSERT INTO alerts (game_id, after_event, logged, data) VALUES"
                " (?, (SELECT coalesce(max(number), 0) FROM events WHERE game_id = ?), ?, ?)",
                (game_id, game_id, float(logged), json.dumps(alert.to_dict())))
            alert_id = cursor.lastrowid
            db.execute(f"UPDATE alerts SET sum = {_ALERT_SUM} WHERE id = ?", (alert_id,))
        assert alert_id is not None
        return alert_id

    def alerts(self, game_id: int, after_event: int = 0) -> list[AlertRecord]:
        """The game's alerts in order (those that came after entry `after_event`)."""
        out = []
        for alert_id, after, logged, data in self._read(
                "SELECT id, after_event, logged, data FROM alerts WHERE game_id = ?"
                " AND after_event >= ? ORDER BY id", (game_id, after_event)):
            try:
                alert = Alert.from_dict(json.loads(data))
            except (ValueError, RecursionError, AlertFormatError) as exc:
                raise _damaged(self.path, f"game {game_id} alert {alert_id}: {exc}") from None
            out.append(AlertRecord(alert_id, game_id, after, alert, logged))
        return out

    def last_alert_id(self, game_id: int) -> int:
        """The id of the game's last alert (0 if none): it grows with every alert."""
        return int(self._read("SELECT coalesce(max(id), 0) FROM alerts WHERE game_id = ?",
                              (game_id,))[0][0])

    # -- repair -----------------------------------------------------------------------------

    @staticmethod
    def repair(path: str | os.PathLike[str], now: float | None = None) -> tuple[Path, list[str]]:
        """Keep a copy of the journal at `path`, then cut each damaged game back to its last
        sound entry (later alerts go too), re-seal changed game rows as they now stand and
        drop changed alerts. Returns the copy's path and what was done."""
        path = Path(path)
        _check_header(path)
        if not path.exists():
            raise JournalError(f"there is no journal at {path}")
        holder = _hold(path)  # no table may write while it is repaired
        try:
            stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
            copy = path.with_name(f"{path.name}.before-repair-{stamp}")
            n = 1
            while copy.exists():  # never over an earlier copy
                n += 1
                copy = path.with_name(f"{path.name}.before-repair-{stamp}-{n}")
            with sqlite3.connect(path) as src, sqlite3.connect(copy) as dst:
                src.backup(dst)  # the WAL's committed pages too
            journal = Journal.__new__(Journal)
            journal.path, journal._lock, journal._holder = path, threading.RLock(), None
            journal._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            _functions(journal._db)
            try:
                done = journal._cut_damage()
            finally:
                journal._db.close()
        finally:
            holder.close()
        return copy, done

    def _cut_damage(self) -> list[str]:
        db = self._db
        if db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            raise _foreign(self.path)
        if db.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
            raise JournalError(f"{self.path} is not a journal this program can repair; open "
                               "it once with this program first")
        self._check_tables(SCHEMA_VERSION)
        done: list[str] = []
        with self._write():
            for game_id, seal in db.execute("SELECT id, seal FROM games").fetchall():
                if _seal(db, game_id) != seal:
                    done.append(f"game {game_id}: its rules and seats were sealed as they "
                                "now stand")
                head, last = _seal(db, game_id), 0
                for row in db.execute(f"SELECT {_EVENT_FIELDS}, chain FROM events WHERE"
                                      " game_id = ? ORDER BY number", (game_id,)).fetchall():
                    if row[1] != last + 1 or _chain(head, row[:-1]) != row[-1]:
                        break
                    head, last = row[-1], row[1]
                stored = db.execute("SELECT head FROM games WHERE id = ?",
                                    (game_id,)).fetchone()[0]
                cut = db.execute("DELETE FROM events WHERE game_id = ? AND number > ?",
                                 (game_id, last)).rowcount
                if not cut and head != stored:
                    done.append(f"game {game_id}: the entries after {last} were lost; it "
                                f"goes on from entry {last}")
                db.execute("DELETE FROM alerts WHERE game_id = ? AND after_event > ?",
                           (game_id, last))
                self._rehash(game_id)
                if cut:
                    done.append(f"game {game_id}: kept entries 1 to {last}, removed {cut} "
                                "from the first damaged one on")
            dropped = db.execute(f"DELETE FROM alerts WHERE sum != {_ALERT_SUM}").rowcount
            if dropped:
                done.append(f"removed {dropped} changed alerts")
        return done


_GAME_QUERY = (
    "SELECT g.id, g.created, g.opened, g.variant, g.options, g.first_dealer, g.phase,"
    " g.hand_number, g.scores, g.winner,"
    " (SELECT count(*) FROM events e WHERE e.game_id = g.id),"
    " (SELECT count(*) FROM events e WHERE e.game_id = g.id AND e.accepted = 1)"
    " FROM games g")


_EVENT_FIELDS = "game_id, number, type, source, at, logged, accepted, reason, data"
# An alert row's checksum, in SQL through the function `_functions` registers (`_row_sum`).
_ALERT_SUM = "row_sum(id, game_id, after_event, logged, data)"


def _functions(db: sqlite3.Connection) -> None:
    db.create_function("row_sum", 5, _row_sum, deterministic=True)


def _digest(*parts: object) -> str:
    text = "\x1f".join(float(p).hex() if isinstance(p, float) else repr(p) for p in parts)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _chain(prev: str, row: Sequence[Any]) -> str:
    """The chain hash of an event row (its `_EVENT_FIELDS`) after the chain `prev`."""
    game_id, number, kind, source, at, logged, accepted, reason, data = row
    return _digest(prev, game_id, number, kind, source, float(at), float(logged),
                   int(accepted), reason, data)


def _seal(db: sqlite3.Connection, game_id: int) -> str:
    """The seal of a game row and its seats (not its standing or when it was last opened)."""
    game = db.execute("SELECT id, created, variant, options, first_dealer FROM games"
                      " WHERE id = ?", (game_id,)).fetchone()
    seats = db.execute("SELECT seat, name FROM seats WHERE game_id = ? ORDER BY seat",
                       (game_id,)).fetchall()
    gid, created, variant, options, first_dealer = game
    return _digest(gid, float(created), variant, options, first_dealer, *seats)


def _row_sum(alert_id: int, game_id: int, after: int, logged: float, data: str) -> str:
    return _digest(alert_id, game_id, after, float(logged), data)


def _event(path: Path, game_id: int, number: int, data: str) -> Event:
    try:
        return event_from_dict(json.loads(data))
    except (ValueError, RecursionError, EventFormatError) as exc:
        raise _damaged(path, f"game {game_id} entry {number}: {str(exc)[:200]}") from None


def _damaged_rows(path: Path, problems: list[str]) -> str:
    shown = "; ".join(problems[:5]) + ("; ..." if len(problems) > 5 else "")
    return (f"{path} does not match what this program wrote ({shown}): it was changed by "
            "something else, or the disk damaged it. Nothing was written. To go on with every "
            "game up to its last sound entry, run `pinochle-table repair` with the same --db "
            "(it keeps a copy of the file first); or move the file aside and start afresh.")


def _hold(path: Path) -> IO[str]:
    """Take the lock file beside the journal for as long as the returned file stays open."""
    holder = open(path.with_name(path.name + ".lock"), "a+")  # noqa: SIM115 - held open
    try:
        fcntl.flock(holder, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder.seek(0)
        pid = holder.read().strip() or "unknown"
        holder.close()
        raise JournalError(f"another table is already running on {path} (process {pid}); "
                           "enter events and start games on its page, or stop it first (or give "
                           "this one its own --db)") from None
    holder.seek(0)
    holder.truncate()
    holder.write(str(os.getpid()))
    holder.flush()
    return holder


def _check_header(path: Path) -> None:
    """Refuse, before SQLite touches it, a file that is not an SQLite database of ours."""
    try:
        with path.open("rb") as f:
            header = f.read(100)
    except FileNotFoundError:
        return
    except IsADirectoryError:
        raise JournalError(f"{path} is a directory; give the journal a file name") from None
    except OSError as exc:
        raise JournalError(f"cannot read {path}: {exc.strerror}") from None
    if not header:
        return  # an empty file: ours to lay out
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        raise _damaged(path, "it is not an SQLite database")
    app_id = int.from_bytes(header[68:72], "big")
    if app_id not in (0, APPLICATION_ID):
        raise _foreign(path)


def _foreign(path: Path) -> JournalError:
    return JournalError(
        f"{path} is an SQLite database of another program, not a pinochle-table journal. It "
        "was left untouched; pass another file with --db (or $PINOCHLE_DB).")


def _damaged(path: Path, detail: str) -> JournalError:
    return JournalError(
        f"{path} is not a readable pinochle-table journal ({detail}). It was left untouched; "
        "move it aside to keep it, or pass another file with --db (or $PINOCHLE_DB).")
