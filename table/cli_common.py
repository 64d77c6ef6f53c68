"""What every package's subcommands share: the error a user can fix, the `--db` option and
`--option FIELD=VALUE` pairs. A leaf module (standard library only), so that vision,
firmware_bridge and web_ui can use it without importing the command line above them."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path


class CommandError(Exception):
    """A mistake on the command line or in its files that the user can fix."""


def db_argument(parser: argparse._ActionsContainer) -> None:
    """The `--db` option every command that reads or writes the journal takes."""
    parser.add_argument("--db", metavar="PATH", type=Path,
                        help="the journal file (default: $PINOCHLE_DB or "
                             "~/.local/share/pinochle-table/table.sqlite3)")


def option_pairs(texts: Sequence[str]) -> dict[str, str]:
    """`--option FIELD=VALUE` arguments as a dict (checked against the rules later)."""
    options: dict[str, str] = {}
    for text in texts:
        name, sep, value = text.partition("=")
        if not sep or not name.strip():
            raise CommandError(f"an option is written FIELD=VALUE, like min_bid=300, not {text!r}")
        options[name.strip()] = value.strip()
    return options
