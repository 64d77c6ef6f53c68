"""`pinochle-table run`: the whole table (registered by table/commands.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

from table.cli_common import CommandError, db_argument, option_pairs
from table.settings import TableSettings


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    run = sub.add_parser(
        "run", help="run the whole table: camera, buttons, board, page (or the simulation)",
        description="Run the table: find the camera, the GPIO buttons and the serial board "
                    "(what is missing is said, and the page takes its job), resume the last "
                    "unfinished game or start one, serve the page and print its address and "
                    "the table PIN. Off a Raspberry Pi (or with --camera sim) simulated players "
                    "play through the same inputs. Ctrl-C stops it.",
        epilog="examples: pinochle-table run | pinochle-table run --preset racehorse --speed 2 "
               "| pinochle-table run --headless --hands 2 --port 0")
    game = run.add_argument_group("the game")
    db_argument(game)
    run.add_argument("--config", type=Path, metavar="FILE",
                     help="the settings file: PIN, preset, seats' names, port (default: "
                          "table.toml in $PINOCHLE_CONFIG, else ~/.config/pinochle-table); "
                          "the options below win over it")
    game.add_argument("--preset", default=None, metavar="NAME",
                      help="the rules of a new game (default: bison)")
    game.add_argument("--option", action="append", default=[], metavar="FIELD=VALUE",
                      help="change one rule of a new game, e.g. target=500 (repeat for more)")
    game.add_argument("--seat", action="append", default=[], metavar="NAME",
                      help="a player's name, clockwise, once per seat (default: Ann, Bob, Cy, "
                           "Dee)")
    game.add_argument("--new", action="store_true",
                      help="start a new game even if the last one is unfinished")
    page = run.add_argument_group("the page")
    page.add_argument("--host", default="0.0.0.0", help="default: every interface")
    page.add_argument("--port", type=int, default=None, help="default 8080; 0 = any free port")
    page.add_argument("--pin", help="the table PIN (default: the settings file's, made and "
                                    "saved there on the first start; else four random digits)")
    page.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                      help="a host name or IP address the page may be opened by, besides IP "
                           "addresses, localhost and this machine's name, e.g. the Pi's mDNS "
                           "name (repeat for more; added to the settings file's allow_hosts)")
    parts = run.add_argument_group("the hardware (default: what is found; off a Pi, simulated)")
    parts.add_argument("--camera", metavar="pi|usb:N|file:PATH|sim|off")
    parts.add_argument("--gpio", choices=("real", "mock", "off"))
    parts.add_argument("--serial", metavar="PATH|sim|off")
    parts.add_argument("--wiring", type=Path, metavar="FILE",
                       help="the pins and timing (default: firmware_bridge/layouts)")
    sim = run.add_argument_group("the simulation")
    sim.add_argument("--seed", type=int, default=1, help="the simulated players' shuffle")
    sim.add_argument("--speed", type=float, default=1.0,
                     help="pace of play: 2 is twice as fast as people (default 1)")
    sim.add_argument("--hands", type=int, metavar="N",
                     help="stop after the game's N-th hand (default: play to the end)")
    sim.add_argument("--headless", action="store_true",
                     help="no live pacing and quick button presses; exit when done (tests)")
    sim.add_argument("--no-mistakes", action="store_true",
                     help="the simulated players make no deliberate mistakes")
    sim.add_argument("--sim-frame", default="1920x1080", metavar="WxH",
                     help="the simulated camera's frame size (default 1920x1080)")
    run.set_defaults(handler=_run)

    card = sub.add_parser(
        "print-card", help="write the table card: the page's address, its QR code and the PIN",
        description="Write an A6 card (PDF) for the table: the page's address at "
                    "<hostname>.local, its QR code and the table PIN from the settings file "
                    "(a PIN is made and saved there if it has none, so `run` uses the same).")
    card.add_argument("--config", type=Path, metavar="FILE",
                      help="the settings file (default: table.toml in the settings directory)")
    card.add_argument("--address", metavar="URL",
                      help="the page's address (default: http://<this hostname>.local:<port>/)")
    card.add_argument("--out", type=Path, default=Path("table-card.pdf"),
                      help="the PDF to write (default table-card.pdf)")
    card.set_defaults(handler=_print_card)


def _run(args: argparse.Namespace) -> int:
    from .hardware import detect, pi_model
    from .runner import RunOptions, run

    if args.speed <= 0:
        raise CommandError("--speed must be more than 0 (1 is the pace of real players)")
    if args.hands is not None and args.hands < 1:
        raise CommandError("--hands must be 1 or more")
    model = pi_model()
    find = None
    if model is not None:
        from firmware_bridge.config import default_wiring, load_wiring
        from firmware_bridge.serial_board import find_board

        wiring = load_wiring(args.wiring) if args.wiring else default_wiring(4)
        find = lambda: find_board(wiring.board)  # noqa: E731
    settings = _settings(args)
    allow_hosts = _allowed_hosts(args.allow_host, settings.allow_hosts)
    port = args.port if args.port is not None else (settings.port if settings.port is not None
                                                     else 8080)
    hardware = detect(args.camera, args.gpio, args.serial, model, find_board=find)
    if port and args.host in ("0.0.0.0", ""):
        import socket

        print(f"the page on this network (mDNS): http://{socket.gethostname()}.local:{port}/",
              flush=True)
    options = RunOptions(
        db=args.db, preset=args.preset or settings.preset or "bison",
        options=option_pairs(args.option), seats=args.seat or settings.seats, new=args.new,
        host=args.host, port=port, pin=args.pin or settings.pin, allow_hosts=allow_hosts,
        wiring=args.wiring,
        seed=args.seed, speed=args.speed, hands=args.hands, headless=args.headless,
        mistakes=not args.no_mistakes, sim_frame=_size(args.sim_frame))
    return run(options, hardware)


def _allowed_hosts(given: list[str], saved: tuple[str, ...]) -> tuple[str, ...]:
    """The settings file's names and then --allow-host's, checked, each once."""
    from table.settings import check_host_name

    names = list(saved)
    for name in given:
        try:
            names.append(check_host_name(name))
        except ValueError as exc:
            raise CommandError(f"--allow-host: {exc}") from None
    return tuple(dict.fromkeys(names))


def _print_card(args: argparse.Namespace) -> int:
    import socket

    from table.settings import SettingsError, keep_pin, settings_path
    from web_ui.pin import new_pin

    from .card import card_pdf

    if args.address is not None and not args.address.startswith(("http://", "https://")):
        raise CommandError(f"--address is a web address like http://pinochle.local:8080/, "
                           f"not {args.address!r}")
    path = args.config or settings_path()
    try:
        settings = keep_pin(path, new_pin)
    except SettingsError as exc:
        raise CommandError(str(exc)) from None
    port = settings.port or 8080  # (port 0, any free one, cannot be printed: the usual one)
    address = args.address or f"http://{socket.gethostname()}.local:{port}/"
    try:
        args.out.write_bytes(card_pdf(address, settings.pin or ""))
    except OSError as exc:
        raise CommandError(f"cannot write {args.out}: {exc}") from None
    print(f"wrote {args.out}: {address}, table PIN {settings.pin} (from {path}). Print it at "
          "100 % and stand it on the table.")
    return 0


def _settings(args: argparse.Namespace) -> TableSettings:
    """table.toml's settings; a file without a PIN gets one, saved, unless --pin is given or
    the file is only the default one of a desktop (no $PINOCHLE_CONFIG, no file yet)."""
    import os

    from table.settings import SettingsError, keep_pin, load_settings, settings_path
    from web_ui.pin import new_pin

    path = args.config or settings_path()
    chosen = args.config is not None or bool(os.environ.get("PINOCHLE_CONFIG"))
    try:
        if args.pin is None and (chosen or path.exists()):
            return keep_pin(path, new_pin)
        return load_settings(path)
    except SettingsError as exc:
        raise CommandError(str(exc)) from None


def _size(text: str) -> tuple[int, int]:
    w, sep, h = text.lower().partition("x")
    if not sep or not w.isdigit() or not h.isdigit() or not 640 <= int(w) <= 4096 \
            or not 360 <= int(h) <= 4096:
        raise CommandError(f"--sim-frame is WIDTHxHEIGHT like 1280x720, not {text!r}")
    return int(w), int(h)
