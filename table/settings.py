"""The table's settings file, table.toml in the settings directory: what `run` (and so the
service) starts with. Options on the command line win over it.

    pin = "4827"                          # the table PIN, 4 to 12 digits, in quotes
    preset = "bison"                      # the rules: `pinochle-table presets` lists them
    seats = ["Ann", "Bob", "Cleo"]        # the players' names, in seat order
    port = 8080                           # the page's port
    allow_hosts = ["pinochle.local"]      # more names the page may be opened by

A file without a PIN gets one on the first start, written into it, so the PIN printed on the
table card stays right across restarts. The settings directory is $PINOCHLE_CONFIG if set, else
$XDG_CONFIG_HOME/pinochle-table, else ~/.config/pinochle-table (the service sets
PINOCHLE_CONFIG=/var/lib/pinochle-table).
"""

from __future__ import annotations

import ipaddress
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

FILE_NAME = "table.toml"
KEYS = ("pin", "preset", "seats", "port", "allow_hosts")
_LABEL = re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\Z")
TEMPLATE = """\
# The pinochle table's settings (pinochle-table run reads them; its options win over them).
# preset = "bison"                      # the rules: `pinochle-table presets` lists them
# seats = ["Ann", "Bob", "Cleo"]        # the players' names, in seat order
# port = 8080                           # the page's port
# allow_hosts = ["pinochle.local"]      # more names the page may be opened by
"""


class SettingsError(ValueError):
    """table.toml cannot be used; the message names the file and what to change."""


@dataclass(frozen=True)
class TableSettings:
    pin: str | None = None
    preset: str | None = None
    seats: tuple[str, ...] = ()
    port: int | None = None
    allow_hosts: tuple[str, ...] = ()


def config_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """Where the table keeps its settings (shared with vision's calibration and deck)."""
    if environ.get("PINOCHLE_CONFIG"):
        return Path(environ["PINOCHLE_CONFIG"])
    base = environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "pinochle-table"


def settings_path(environ: Mapping[str, str] = os.environ) -> Path:
    return config_dir(environ) / FILE_NAME


def check_pin(pin: str) -> str:
    """The PIN stripped, or ValueError saying what a PIN is."""
    pin = pin.strip()
    if not pin.isdigit() or not 4 <= len(pin) <= 12:
        raise ValueError("the PIN is 4 to 12 digits, so it can be typed on a phone keypad")
    return pin


def check_host_name(name: str) -> str:
    """A host name the page may be opened by (lower case), or ValueError saying what one is:
    a DNS name such as `pinochle.local` or an IP address, without scheme, port or path."""
    host = name.strip().lower().rstrip(".")
    try:
        return str(ipaddress.ip_address(host.strip("[]")))
    except ValueError:
        pass
    labels = host.split(".")
    if len(host) > 253 or not all(_LABEL.match(label) for label in labels) \
            or labels[-1].isdigit():
        raise ValueError(f"{name!r} is not a host name: give a name like pinochle.local or an "
                         f"IP address like 192.168.1.20, without http://, a port or a path")
    return host


def load_settings(path: Path) -> TableSettings:
    """The settings in `path` (none at all if there is no such file)."""
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        return TableSettings()
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SettingsError(f"{path}: {exc}") from None
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise SettingsError(f"{path}: unknown setting {', '.join(unknown)} (known: "
                            f"{', '.join(KEYS)})")
    pin, preset, seats, port, allow_hosts = (data.get(key) for key in KEYS)
    if pin is not None:
        if not isinstance(pin, str):
            raise SettingsError(f'{path}: write the PIN in quotes, like pin = "0427"')
        try:
            pin = check_pin(pin)
        except ValueError as exc:
            raise SettingsError(f"{path}: {exc}") from None
    if preset is not None and (not isinstance(preset, str) or not preset.strip()):
        raise SettingsError(f'{path}: preset is a name in quotes, like preset = "bison"')
    if seats is not None and (not isinstance(seats, list) or not seats
                              or not all(isinstance(s, str) and s.strip() for s in seats)):
        raise SettingsError(f'{path}: seats is a list of names, like seats = ["Ann", "Bob", '
                            '"Cleo"]')
    if port is not None and (isinstance(port, bool) or not isinstance(port, int)
                             or not 0 <= port <= 65535):
        raise SettingsError(f"{path}: port is a number from 1 to 65535 (0: any free port)")
    if allow_hosts is not None and (not isinstance(allow_hosts, list) or not all(
            isinstance(h, str) for h in allow_hosts)):
        raise SettingsError(f'{path}: allow_hosts is a list of host names, like allow_hosts = '
                            '["pinochle.local", "192.168.1.20"]')
    try:
        hosts = tuple(check_host_name(h) for h in allow_hosts or ())
    except ValueError as exc:
        raise SettingsError(f"{path}: allow_hosts: {exc}") from None
    return TableSettings(pin, preset.strip() if preset else None,
                         tuple(s.strip() for s in seats or ()), port, hosts)


def keep_pin(path: Path, make_pin: Callable[[], str]) -> TableSettings:
    """The settings in `path`, with a PIN: one made by `make_pin` and written at the top of
    the file (made from a template if missing) when it has none."""
    settings = load_settings(path)
    if settings.pin is not None:
        return settings
    pin = check_pin(make_pin())
    try:
        old = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        old = TEMPLATE
    except OSError as exc:
        raise SettingsError(f"{path}: {exc}") from None
    text = f'pin = "{pin}"   # the table PIN, made once for this table; change it here\n' + old
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        scratch = path.with_name(path.name + ".new")
        # only the table's user may read it: the PIN lets a phone change the game
        fd = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        scratch.replace(path)
    except OSError as exc:
        raise SettingsError(f"cannot save the new PIN in {path}: {exc}") from None
    return replace(settings, pin=pin)
