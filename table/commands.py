"""Subcommands of `pinochle-table` that belong to this package (see table/cli.py)."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:  # sub: argparse._SubParsersAction
    """Add this package's subcommands to the `pinochle-table` parser."""
    _ = argparse
