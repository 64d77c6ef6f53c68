"""Subcommands of `pinochle-table` that belong to this package (see table/cli.py): `serve`."""

from __future__ import annotations

import argparse
from pathlib import Path

from table.cli_common import CommandError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add this package's subcommands to the `pinochle-table` parser."""
    serve = sub.add_parser(
        "serve", help="serve the live page for a game in the journal",
        description="Serve the live page (and its JSON API) on the local network for the last "
                    "game in the journal, or for --game N; with no game yet, the page starts "
                    "one. Changes from the page need the table PIN printed here.",
        epilog="example: pinochle-table serve --port 8000 --pin 2468")
    serve.add_argument("--db", metavar="PATH", type=Path,
                       help="the journal file (default: $PINOCHLE_DB or "
                            "~/.local/share/pinochle-table/table.sqlite3)")
    serve.add_argument("--game", type=int, metavar="N", help="the game (default: the last one)")
    serve.add_argument("--host", default="0.0.0.0",
                       help="the address to listen on (default: every interface)")
    serve.add_argument("--port", type=int, default=8000, help="default: 8000")
    serve.add_argument("--pin", help="the table PIN (default: four random digits)")
    serve.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                       help="a host name the page may be opened by, besides IP addresses, "
                            "localhost and this machine's name (repeat for more)")
    serve.set_defaults(handler=_serve)


def _serve(args: argparse.Namespace) -> int:
    from table.journal import Journal, JournalError, default_path
    from table.session import Session, SessionError
    from table.settings import check_host_name

    from .app import create_app
    from .pin import new_pin
    from .server import TableServer, page_address, print_qr

    try:
        hosts = tuple(check_host_name(name) for name in args.allow_host)
    except ValueError as exc:
        raise CommandError(f"--allow-host: {exc}") from None
    pin = (args.pin or new_pin()).strip()
    if not pin.isdigit() or not 4 <= len(pin) <= 12:
        raise CommandError("the PIN is 4 to 12 digits, so it can be typed on a phone keypad")
    try:
        journal = Journal(args.db or default_path(), exclusive=True)
    except JournalError as exc:
        raise CommandError(str(exc)) from None
    session = None
    try:
        if args.game is not None or journal.last_game() is not None:
            try:
                session = Session.resume(journal, args.game).start()
            except SessionError as exc:
                if args.game is not None:
                    raise
                print(f"the last game could not be resumed: {exc}")  # the page starts another
        app = create_app({"SESSION": session, "JOURNAL": journal, "PIN": pin,
                          "ALLOWED_HOSTS": hosts})
        server = TableServer(app, args.host, args.port)
    except (JournalError, SessionError) as exc:
        journal.close()
        raise CommandError(str(exc)) from None
    except OSError as exc:
        journal.close()
        raise CommandError(f"cannot listen on {args.host}:{args.port}: {exc.strerror}; "
                           "try another --port") from None
    address = page_address(args.host, server.port)
    print(f"the table's page: {address}")
    print(f"table PIN: {pin}")
    print_qr(address)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
        live = app.extensions["pinochle"].live.session
        for s in {id(x): x for x in (session, live) if x is not None}.values():
            s.stop(5)
        journal.close()
    return 0


