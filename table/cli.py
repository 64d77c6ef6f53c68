"""`pinochle-table`: the command line.

Each package adds its own subcommands through a `commands.register(subparsers)` function
(table.commands, vision.commands, firmware_bridge.commands, web_ui.commands), which must keep
heavy imports (cv2, flask, gpiozero) inside the command handlers so that `--help` stays fast.
A handler returns the process exit code; a `CommandError` prints its message and exits 2.
What the subcommands share (`CommandError`, `--db`, `--option`) is in table.cli_common, a leaf
module: the packages below the command line never import this one.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from table.cli_common import CommandError

COMMAND_MODULES = ("table.commands", "vision.commands", "firmware_bridge.commands",
                   "web_ui.commands")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pinochle-table",
        description="A Raspberry Pi that referees and keeps score at a real pinochle table.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 0 if args.command is None else 2
    try:
        return int(handler(args))
    except CommandError as exc:
        print(f"pinochle-table {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `pinochle-table history | head`
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
