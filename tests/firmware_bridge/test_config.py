"""Wiring files: the shipped layouts, and clear errors for files that cannot be used."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_bridge.config import (
    LAYOUTS,
    WiringError,
    default_wiring,
    load_wiring,
    parse_wiring,
)

GOOD = """
[[seat]]
bid = 17
pass = 27
light = 22
[[seat]]
bid = 23
pass = 24
light = 25
[table]
undo = 26
"""


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_default_layouts_wire_each_pin_once(seats: int) -> None:
    wiring = default_wiring(seats)
    assert len(wiring.seats) == seats
    pins = [pin for _, _, pin in wiring.rows()]
    assert len(pins) == len(set(pins)) == 3 * seats + 6
    assert not {2, 3, 14, 15} & set(pins)  # I2C and the serial console stay free


def test_every_shipped_layout_file_loads() -> None:
    files = sorted(LAYOUTS.glob("*.toml"))
    assert len(files) == 2
    for path in files:
        assert load_wiring(path).seats


def test_a_minimal_file_gets_default_timing_and_no_optional_parts() -> None:
    wiring = parse_wiring(GOOD)
    assert wiring.buzzer is None and wiring.suit_lights == (None,) * 4
    assert wiring.timing.hold_ms == 700 and wiring.board.vid_pid == (0x2E8A, 0x0005)


@pytest.mark.parametrize(("change", "message"), [
    (GOOD.replace("undo = 26", "undo = 17"), "BCM 17 is wired twice"),
    (GOOD.replace("light = 25", "lite = 25"), "unknown key 'lite'"),
    (GOOD.replace("bid = 23", "bid = 40"), "not a BCM pin"),
    (GOOD.replace("bid = 23", "bid = true"), "not a BCM pin"),
    (GOOD.replace("undo = 26", ""), "needs undo"),
    (GOOD + "[timing]\nhold_ms = 50\n", "hold_ms must be"),
    (GOOD + "[board]\nusb_id = \"pico\"\n", "usb_id must look like"),
    (GOOD + "[extra]\n", "unknown key 'extra'"),
    (GOOD.split("[[seat]]")[0] + "[table]\nundo = 26\n", "give 2 to 4 [[seat]]"),
    ("[[seat]\n", "not valid TOML"),
])
def test_bad_files_say_what_to_change(change: str, message: str) -> None:
    with pytest.raises(WiringError, match=message.replace("[", r"\[")):
        parse_wiring(change, "wiring.toml")


def test_a_missing_file_is_a_wiring_error(tmp_path: Path) -> None:
    with pytest.raises(WiringError, match="cannot read"):
        load_wiring(tmp_path / "nope.toml")


def test_no_default_for_five_seats() -> None:
    with pytest.raises(WiringError, match="no default wiring for 5"):
        default_wiring(5)
