"""The controls section of docs/hardware.md agrees with the code it describes."""

from __future__ import annotations

import re
from pathlib import Path

from firmware_bridge.config import default_wiring
from firmware_bridge.firmware import wire

HARDWARE_DOC = Path(__file__).resolve().parents[2] / "docs" / "hardware.md"


def section() -> str:
    text = HARDWARE_DOC.read_text(encoding="utf-8")
    start, end = text.index("<!-- section:controls -->"), text.index("<!-- /section:controls -->")
    return text[start:end]


def test_the_wiring_table_is_the_default_layout() -> None:
    rows = {}
    for line in section().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6:
            rows[cells[0]] = cells[1:]
    wiring = default_wiring(4)
    assert rows["BID button"][:4] == [str(s.bid) for s in wiring.seats]
    assert rows["PASS button"][:4] == [str(s.pass_) for s in wiring.seats]
    assert rows["turn light"][:4] == [str(s.light) for s in wiring.seats]
    assert rows["UNDO button"][4] == str(wiring.undo)
    assert rows["buzzer"][4] == str(wiring.buzzer)
    suits = rows["suit lights: spades, hearts, clubs, diamonds"][4]
    assert suits == ", ".join(str(p) for p in wiring.suit_lights)


def test_the_example_frames_are_good_frames() -> None:
    frames = re.findall(r"^(P1 \d+ .*?\*[0-9A-F]{4})", section(), flags=re.M)
    assert len(frames) == 6
    for frame in frames:
        assert wire.decode(frame.encode())[0] == wire.FRAME, frame


def test_the_controls_table_says_what_the_buttons_do_at_the_stock() -> None:
    lines = section().splitlines()
    stock = next(i for i, line in enumerate(lines) if line.startswith("| two-handed"))
    keep, reject = lines[stock], lines[stock + 1]
    assert "| BID |" in keep and "keeps" in keep
    assert reject.startswith("| | PASS |") and "rejects" in reject
