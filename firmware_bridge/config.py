"""The wiring of the controls: which BCM pin does what, the timing of presses, where the board
is. Read from a TOML file; `default_wiring(seats)` gives the layouts in firmware_bridge/layouts.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LAYOUTS = Path(__file__).resolve().parent / "layouts"
LAYOUT_FILES = {3: "three-seats.toml", 4: "four-seats.toml"}
SUIT_KEYS = ("spades", "hearts", "clubs", "diamonds")  # the order of the suit light bits 4-7
BCM_PINS = range(0, 28)
PICO_USB_ID = "2e8a:0005"  # MicroPython on a Raspberry Pi Pico


class WiringError(ValueError):
    """A wiring file that cannot be used, with what to change."""


@dataclass(frozen=True)
class SeatPins:
    bid: int
    pass_: int
    light: int


@dataclass(frozen=True)
class Timing:
    debounce_ms: int = 25
    hold_ms: int = 700
    raise_window_ms: int = 1200


@dataclass(frozen=True)
class BoardPlace:
    """Where to find the serial board: a device path (by-id), or else a USB vendor:product."""

    port: str | None = None
    usb_id: str | None = PICO_USB_ID

    @property
    def vid_pid(self) -> tuple[int, int] | None:
        if not self.usb_id:
            return None
        vid, pid = self.usb_id.split(":")
        return int(vid, 16), int(pid, 16)


@dataclass(frozen=True)
class Wiring:
    seats: tuple[SeatPins, ...]
    undo: int
    buzzer: int | None
    suit_lights: tuple[int | None, ...]  # spades, hearts, clubs, diamonds
    timing: Timing
    board: BoardPlace
    source: str = ""

    def rows(self) -> list[tuple[str, str, int]]:
        """(function, where, BCM pin) for every wired pin, for the wiring table."""
        rows: list[tuple[str, str, int]] = []
        for i, seat in enumerate(self.seats):
            where = f"seat {i + 1}"
            rows += [("BID button", where, seat.bid), ("PASS button", where, seat.pass_),
                     ("turn light", where, seat.light)]
        rows.append(("UNDO button", "table", self.undo))
        if self.buzzer is not None:
            rows.append(("buzzer", "table", self.buzzer))
        for key, pin in zip(SUIT_KEYS, self.suit_lights, strict=True):
            if pin is not None:
                rows.append((f"{key} light", "table", pin))
        return rows


def default_wiring(seats: int) -> Wiring:
    """The shipped layout for a table of 3 or 4 seats (2 seats use the first two of three)."""
    if seats == 2:
        full = default_wiring(3)
        return Wiring(full.seats[:2], full.undo, full.buzzer, full.suit_lights, full.timing,
                      full.board, full.source)
    name = LAYOUT_FILES.get(seats)
    if name is None:
        raise WiringError(f"there is no default wiring for {seats} seats; write a wiring file "
                          "with one [[seat]] table per seat (2 to 4)")
    return load_wiring(LAYOUTS / name)


def load_wiring(path: Path | str) -> Wiring:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise WiringError(f"cannot read the wiring file {path}: {exc.strerror}") from None
    return parse_wiring(text, str(path))


def parse_wiring(text: str, source: str = "<wiring>") -> Wiring:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise WiringError(f"{source} is not valid TOML: {exc}") from None
    _only(data, {"seat", "table", "timing", "board"}, source)
    seats_data = data.get("seat")
    if not isinstance(seats_data, list) or not 2 <= len(seats_data) <= 4:
        raise WiringError(f"{source}: give 2 to 4 [[seat]] tables, one per seat clockwise")
    seats = []
    for i, seat in enumerate(seats_data):
        where = f"{source}: seat {i + 1}"
        _only(seat, {"bid", "pass", "light"}, where)
        seats.append(SeatPins(_pin(seat, "bid", where), _pin(seat, "pass", where),
                              _pin(seat, "light", where)))
    table = data.get("table", {})
    _only(table, {"undo", "buzzer", *SUIT_KEYS}, f"{source}: [table]")
    undo = _pin(table, "undo", f"{source}: [table]")
    buzzer = _pin(table, "buzzer", f"{source}: [table]", required=False)
    suits = tuple(_pin(table, key, f"{source}: [table]", required=False) for key in SUIT_KEYS)
    wiring = Wiring(tuple(seats), undo, buzzer, suits, _timing(data.get("timing", {}), source),
                    _board(data.get("board", {}), source), source)
    _no_pin_twice(wiring, source)
    return wiring


def _only(table: Any, allowed: set[str], where: str) -> None:
    if not isinstance(table, dict):
        raise WiringError(f"{where} must be a table of keys")
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise WiringError(f"{where}: unknown key {unknown[0]!r}; use {', '.join(sorted(allowed))}")


def _pin(table: dict[str, Any], key: str, where: str, required: bool = True) -> Any:
    value = table.get(key)
    if value is None:
        if required:
            raise WiringError(f"{where} needs {key} = <BCM pin number>")
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value not in BCM_PINS:
        raise WiringError(f"{where}: {key} = {value!r} is not a BCM pin (0 to 27)")
    return value


def _timing(table: Any, source: str) -> Timing:
    _only(table, {"debounce_ms", "hold_ms", "raise_window_ms"}, f"{source}: [timing]")
    values: dict[str, int] = {}
    for key, (low, high) in {"debounce_ms": (1, 200), "hold_ms": (200, 5000),
                             "raise_window_ms": (300, 5000)}.items():
        if key in table:
            value = table[key]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise WiringError(f"{source}: [timing] {key} must be {low} to {high} ms")
            values[key] = value
    timing = Timing(**values)
    if timing.debounce_ms >= timing.hold_ms:
        raise WiringError(f"{source}: [timing] hold_ms must be longer than debounce_ms")
    return timing


def _board(table: Any, source: str) -> BoardPlace:
    _only(table, {"port", "usb_id"}, f"{source}: [board]")
    port, usb_id = table.get("port"), table.get("usb_id", PICO_USB_ID)
    if port is not None and (not isinstance(port, str) or not port):
        raise WiringError(f"{source}: [board] port must be a device path")
    if usb_id is not None:
        parts = usb_id.split(":") if isinstance(usb_id, str) else []
        if len(parts) != 2 or not all(len(p) == 4 and _is_hex(p) for p in parts):
            raise WiringError(f"{source}: [board] usb_id must look like \"2e8a:0005\"")
    return BoardPlace(port=port, usb_id=usb_id)


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdefABCDEF" for c in text)


def _no_pin_twice(wiring: Wiring, source: str) -> None:
    seen: dict[int, str] = {}
    for function, where, pin in wiring.rows():
        if pin in seen:
            raise WiringError(f"{source}: BCM {pin} is wired twice ({seen[pin]} and "
                              f"{where} {function})")
        seen[pin] = f"{where} {function}"
