"""Subcommands of `pinochle-table` that belong to this package (see table/cli.py):
`new`, `resume`, `history` and `export`."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import IO, Any

from table.cli_common import CommandError, db_argument, option_pairs
from table.export import game_json, journal_records, records_csv, score_sheet
from table.journal import AlertRecord, GameRecord, Journal, JournalError, default_path
from table.json_limits import MAX_DEPTH, too_deep
from table.rules import (
    PRESET_NAMES,
    EventFormatError,
    OptionError,
    UnknownPresetError,
    event_from_dict,
    preset,
    with_options,
)
from table.session import Session, SessionError, replay_journal


def register(sub: Any) -> None:  # sub: argparse._SubParsersAction
    """Add this package's subcommands to the `pinochle-table` parser."""
    from table.live.commands import register as register_run

    register_run(sub)  # `run`, the whole table, comes first
    new = sub.add_parser(
        "new", help="start a new game",
        description="Start a new game and make it the one the table resumes.",
        epilog="example: pinochle-table new --variant bison --seat Ann --seat Bob --seat Cy "
               "--option min_bid=300")
    new.add_argument("--variant", required=True, metavar="PRESET",
                     help=f"the rules: {', '.join(PRESET_NAMES)}")
    new.add_argument("--seat", action="append", required=True, metavar="NAME",
                     help="a player's name, clockwise; once per seat")
    new.add_argument("--option", action="append", default=[], metavar="FIELD=VALUE",
                     help="change one rule of the preset, e.g. min_bid=300, beat=trump-led, "
                          "spades_double=no, meld.run=200 (repeat for more)")
    new.add_argument("--dealer", metavar="SEAT",
                     help="who deals first: a name or a seat number from 1 (default: seat 1)")
    db_argument(new)
    new.set_defaults(handler=_new)

    resume = sub.add_parser(
        "resume", help="resume a game where it stood",
        description="Make a game the one the table resumes and show where it stands; with "
                    "--events, feed it table events (one JSON object a line).")
    resume.add_argument("--game", type=int, metavar="N", help="the game (default: the last one)")
    resume.add_argument("--events", metavar="FILE",
                        help="JSON lines of events to submit, '-' for standard input")
    db_argument(resume)
    resume.set_defaults(handler=_resume)

    history = sub.add_parser(
        "history", help="list past games, or one game's journal",
        description="List the games in the journal; with --game, every entry of that game, "
                    "refused ones with their reason, and its alerts.")
    history.add_argument("--game", type=int, metavar="N", help="show this game's journal")
    db_argument(history)
    history.set_defaults(handler=_history)

    repair = sub.add_parser(
        "repair", help="cut damaged games back to their last sound entry",
        description="When the journal does not match its hashes (changed by something else, or "
                    "damaged), keep a copy of the file, then cut each damaged game back to its "
                    "last sound entry so that it can be resumed.")
    db_argument(repair)
    repair.set_defaults(handler=_repair)

    export = sub.add_parser(
        "export", help="export a game as JSON or a CSV score sheet, or the players' records",
        description="Write a game out: everything as JSON, or the score sheet as CSV.")
    export.add_argument("--game", type=int, metavar="N", help="the game (default: the last one)")
    export.add_argument("--format", choices=("json", "csv", "records"), default="json",
                        help="records: every player's record across the journal's games (CSV)")
    export.add_argument("--output", "-o", metavar="FILE", help="write here (default: stdout)")
    db_argument(export)
    export.set_defaults(handler=_export)


# -- handlers -----------------------------------------------------------------------------------

def _new(args: argparse.Namespace) -> int:
    try:
        rules = with_options(preset(args.variant), option_pairs(args.option))
    except (UnknownPresetError, OptionError) as exc:
        raise CommandError(str(exc)) from None
    names = [name.strip() for name in args.seat]
    if any(not name for name in names):
        raise CommandError("a seat name cannot be empty")
    if len(set(names)) != len(names):
        raise CommandError("give each seat a different name")
    if len(names) != rules.table_seats:
        raise CommandError(f"{rules.name} is played by {rules.table_seats} seats: give "
                           f"--seat {rules.table_seats} times (got {len(names)})")
    dealer = _seat(args.dealer, names) if args.dealer else 0
    with _open(args.db, exclusive=True) as journal:
        session = Session.create(journal, rules, names, dealer)
        print(f"game {session.game_id} started in {journal.path}")
        _print_standing(journal, session.game_id)
    return 0


def _resume(args: argparse.Namespace) -> int:
    with _open(args.db, exclusive=True) as journal:
        session = Session.resume(journal, args.game)
        refused = 0
        if args.events:
            with session:
                refused = _feed(session, args.events)
        _print_standing(journal, session.game_id)
    return 1 if refused else 0


def _feed(session: Session, source: str) -> int:
    """Submit each event of `source`; print its outcome; return how many were refused."""
    refused = 0
    for line_number, line in _lines(source):
        try:
            data = json.loads(line)
            if too_deep(data):
                raise ValueError(f"nested more than {MAX_DEPTH} levels deep")
            event = event_from_dict(data)
        except (ValueError, RecursionError, EventFormatError) as exc:
            where = "standard input" if source == "-" else source
            raise CommandError(f"{where} line {line_number}: not an event ({exc}); the "
                               "lines before it were taken") from None
        if not event.source:
            event = replace(event, source="cli")
        outcome = session.submit(event)
        text = _named(event.describe(), session.names)
        if outcome.accepted:
            print(f"#{outcome.number} accepted: {text}")
        else:
            refused += 1
            print(f"#{outcome.number} refused: {text}: {outcome.reason}")
    return refused


def _lines(source: str) -> Iterator[tuple[int, str]]:
    try:
        stream: IO[str] = sys.stdin if source == "-" else open(source, encoding="utf-8")  # noqa: SIM115
    except OSError as exc:
        raise CommandError(f"cannot read {source}: {exc.strerror}") from None
    try:
        for number, line in enumerate(stream, 1):
            text = line.strip()
            if text and not text.startswith("#"):
                yield number, text
    finally:
        if stream is not sys.stdin:
            stream.close()


def _history(args: argparse.Namespace) -> int:
    if not _readable(args.db):
        if args.game is not None:
            raise CommandError(f"there is no game {args.game}: {default_path()} has no games "
                               "yet")
        print(f"no games yet in {default_path()}")
        return 0
    with _open(args.db) as journal:
        if args.game is not None:
            _print_journal(journal, args.game)
            return 0
        games = journal.games()
        if not games:
            print(f"no games yet in {journal.path}")
            return 0
        rows = [["game", "started", "variant", "seats", "accepted/entries", "standing"]]
        for g in games:
            rows.append([str(g.id), _local(g.created, "%Y-%m-%d %H:%M"), g.variant,
                         ", ".join(g.names), f"{g.accepted}/{g.events}",
                         _standing_text(g.names, g.standing.phase, g.standing.hand_number,
                                        g.standing.scores, g.standing.winner)])
        _print_table(rows)
    return 0


def _export(args: argparse.Namespace) -> int:
    if not _readable(args.db):
        raise CommandError(f"{default_path()} has no game yet; start one with "
                           "`pinochle-table new` or `pinochle-table run`")
    with _open(args.db) as journal:
        if args.format == "records":
            text = records_csv(journal_records(journal))
        else:
            game_id = args.game if args.game is not None else _last_id(journal)
            text = (json.dumps(game_json(journal, game_id), indent=2, ensure_ascii=False) + "\n"
                    if args.format == "json" else score_sheet(journal, game_id))
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"cannot write {args.output}: {exc.strerror}") from None
    else:
        sys.stdout.write(text)
    return 0


# -- helpers ---------------------------------------------------------------------------------

def _readable(path: Path | None) -> bool:
    """Whether a command that only reads has a journal to read: False for a missing default
    one; a --db that names no file is a mistake, said before anything is created."""
    if path is not None and not path.exists():
        raise CommandError(f"there is no journal at {path}: check the --db path (the table "
                           f"keeps its games in {default_path()})")
    return (path or default_path()).exists()


def _repair(args: argparse.Namespace) -> int:
    path = args.db or default_path()
    try:
        copy, done = Journal.repair(path)
    except JournalError as exc:
        raise CommandError(str(exc)) from None
    print(f"a copy of the journal as it was: {copy}")
    for line in done or ["nothing was damaged; nothing changed"]:
        print(line)
    return 0


@contextmanager
def _open(path: Path | None, exclusive: bool = False) -> Iterator[Journal]:
    """The journal named by --db (or the default); its errors become the user's message.
    `exclusive` for commands that write events or games: refused while a table runs on it
    (that table would otherwise find entries it did not write and refuse every event)."""
    try:
        journal = Journal(path or default_path(), exclusive=exclusive)
    except JournalError as exc:
        raise CommandError(str(exc)) from None
    try:
        yield journal
    except (JournalError, SessionError) as exc:
        raise CommandError(str(exc)) from None
    finally:
        journal.close()


def _seat(text: str, names: list[str]) -> int:
    if text in names:
        return names.index(text)
    if text.isascii() and text.isdigit() and 1 <= int(text) <= len(names):
        return int(text) - 1
    raise CommandError(f"--dealer must be one of {', '.join(names)} or a seat number "
                       f"1..{len(names)}, not {text!r}")


def _last_id(journal: Journal) -> int:
    last = journal.last_game()
    if last is None:
        raise CommandError(f"{journal.path} has no game yet; start one with "
                           "`pinochle-table new`")
    return last.id


def _print_standing(journal: Journal, game_id: int) -> None:
    record = journal.game(game_id)
    game = replay_journal(journal, record)
    print(_title(record))
    turn = "" if game.turn is None else f"; {game.names[game.turn]}'s turn"
    print(_standing_text(record.names, game.phase.value, game.hand_number, game.scores,
                         game.winner) + turn)
    print(f"position: {game.position()}")


def _title(record: GameRecord) -> str:
    options = " ".join(f"{k}={v}" for k, v in sorted(record.options.items()))
    return (f"game {record.id}: {record.variant}" + (f" ({options})" if options else "")
            + f"; seats {', '.join(record.names)}; started "
            + _local(record.created, "%Y-%m-%d %H:%M"))


def _named(text: str, names: tuple[str, ...]) -> str:
    """An event's description with seat numbers shown as the players' names."""
    def name(match: re.Match[str]) -> str:
        seat = int(match[2])
        return f"{match[1]}={names[seat]}" if seat < len(names) else match[0]
    return re.sub(r"\b(seat|to_seat|dealer)=(\d+)\b", name, text)


def _standing_text(names: tuple[str, ...], phase: str, hand: int, scores: tuple[int, ...],
                   winner: int | None) -> str:
    score = ", ".join(f"{n} {s}" for n, s in zip(names, scores, strict=False))
    if winner is not None:
        return f"{names[winner]} won: {score}"
    where = f"hand {hand}, {phase}" if hand else "not dealt yet"
    return f"{where}: {score}" if score else where


def _print_journal(journal: Journal, game_id: int) -> None:
    record = journal.game(game_id)
    print(_title(record))
    alerts = journal.alerts(game_id)
    rows = [["#", "time", "source", "verdict", "event"]]
    for entry in journal.events(game_id):
        while alerts and alerts[0].after_event < entry.number:
            rows.append(_alert_row(alerts.pop(0)))
        verdict = "accepted" if entry.accepted else "REFUSED"
        text = _named(entry.event.describe(), record.names) + (
            "" if entry.accepted else f": {entry.reason}")
        rows.append([str(entry.number), _local(entry.logged, "%H:%M:%S"),
                     entry.event.source or "-", verdict, text])
    rows.extend(_alert_row(a) for a in alerts)
    _print_table(rows)


def _alert_row(record: AlertRecord) -> list[str]:
    alert = record.alert
    return ["", _local(record.logged, "%H:%M:%S"), alert.source or "-", "alert",
            f"{alert.kind}: {alert.text}"]


def _print_table(rows: list[list[str]]) -> None:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())


def _local(seconds: float, fmt: str) -> str:
    return dt.datetime.fromtimestamp(seconds).strftime(fmt)
