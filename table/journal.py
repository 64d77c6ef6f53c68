"""The journal: every game, seat, event and alert, in one SQLite file that survives a power cut.

Each write is one transaction committed durably (WAL, synchronous=FULL) before the caller goes
on. Events are never deleted or changed: undo and corrections are events too. A file is only
ever written if it is empty or carries this program's application id; anything else (another
program's database, a damaged file, a newer schema) raises `JournalError` and is left untouched.
"""

from __future__ import annotations

import fcntl
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
SCHEMA_VERSION = 1
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
        winner INTEGER
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
        PRIMARY KEY (game_id, number)
    ) WITHOUT ROWID""",
    """CREATE TABLE alerts (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id),
        after_event INTEGER NOT NULL,    -- the journal number of the last event before it
        logged REAL NOT NULL,
        data TEXT NOT NULL               -- the alert as JSON (Alert.to_dict)
    )""",
    "CREATE INDEX alerts_by_game ON alerts (game_id, id)",
)


class JournalError(Exception):
    """The journal file cannot be used as asked; the message says why and what to do."""


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
        # Only now, knowing the file is ours and sound, may anything be written to it.
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")

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
            db.executemany(
                "INSERT INTO events (game_id, number, type, source, at, logged, accepted,"
                " reason, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(game_id, e.number, type(e.event).__name__, e.event.source, e.event.at,
                  logged, int(e.accepted), e.reason, json.dumps(e.event.to_dict()))
                 for e in entries])
            standing = next((e.standing for e in reversed(entries) if e.standing), None)
            if standing is not None:
                db.execute(
                    "UPDATE games SET phase = ?, hand_number = ?, scores = ?, winner = ?"
                    " WHERE id = ?",
                    (standing.phase, standing.hand_number, json.dumps(list(standing.scores)),
                     standing.winner, game_id))

    def events(self, game_id: int, accepted_only: bool = False) -> list[EventRecord]:
        """The game's journal entries in order (refused ones too unless `accepted_only`)."""
        sql = ("SELECT number, data, accepted, reason, logged FROM events WHERE game_id = ?"
               + (" AND accepted = 1" if accepted_only else "") + " ORDER BY number")
        out = []
        for number, data, accepted, reason, logged in self._read(sql, (game_id,)):
            try:
                event = event_from_dict(json.loads(data))
            except (ValueError, EventFormatError) as exc:
                raise _damaged(self.path, f"game {game_id} entry {number}: {exc}") from None
            out.append(EventRecord(game_id, number, event, bool(accepted), reason, logged))
        return out

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
                (game_id, game_id, logged, json.dumps(alert.to_dict())))
            alert_id = cursor.lastrowid
        assert alert_id is not None
        return alert_id

    def alerts(self, game_id: int) -> list[AlertRecord]:
        out = []
        for alert_id, after, logged, data in self._read(
                "SELECT id, after_event, logged, data FROM alerts WHERE game_id = ? ORDER BY id",
                (game_id,)):
            try:
                alert = Alert.from_dict(json.loads(data))
            except (ValueError, AlertFormatError) as exc:
                raise _damaged(self.path, f"game {game_id} alert {alert_id}: {exc}") from None
            out.append(AlertRecord(alert_id, game_id, after, alert, logged))
        return out


_GAME_QUERY = (
    "SELECT g.id, g.created, g.opened, g.variant, g.options, g.first_dealer, g.phase,"
    " g.hand_number, g.scores, g.winner,"
    " (SELECT count(*) FROM events e WHERE e.game_id = g.id),"
    " (SELECT count(*) FROM events e WHERE e.game_id = g.id AND e.accepted = 1)"
    " FROM games g")


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
                           "stop it first, or give this one its own --db") from None
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
