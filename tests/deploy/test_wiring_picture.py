"""deploy/wiring.png is current: drawn from the pins, mat and camera the code uses today."""

from __future__ import annotations

import re
from pathlib import Path

from PIL import Image
from wiring_diagram import (
    HEADER,
    OUTPUT,
    PICO_PHYSICAL,
    diagram_inputs,
    pico_rows,
    stored_inputs,
    write_png,
)

from firmware_bridge.config import default_wiring
from vision.mount import mount_table

ROOT = Path(__file__).resolve().parents[2]
HARDWARE_DOC = ROOT / "docs" / "hardware.md"
REGENERATE = "run `.venv/bin/python deploy/wiring_diagram.py` and commit deploy/wiring.png"


def test_the_committed_picture_is_current() -> None:
    stored = stored_inputs(OUTPUT)
    assert stored is not None, f"deploy/wiring.png has no inputs chunk: {REGENERATE}"
    current = diagram_inputs()
    for key in current:
        assert stored.get(key) == current[key], f"the picture's {key} is out of date: {REGENERATE}"
    assert OUTPUT.stat().st_size < 300_000


def test_a_fresh_drawing_carries_the_same_inputs(tmp_path: Path) -> None:
    path = write_png(tmp_path / "wiring.png")
    assert stored_inputs(path) == stored_inputs(OUTPUT)
    with Image.open(path) as fresh, Image.open(OUTPUT) as committed:
        assert fresh.size == committed.size


def test_the_picture_shows_every_pin_of_both_layouts() -> None:
    inputs = diagram_inputs()
    for seats in (3, 4):
        rows = inputs["layouts"][str(seats)]
        wiring = default_wiring(seats)
        assert sorted(r[2] for r in rows) == sorted(p for _, _, p in wiring.rows())
        for _, _, bcm, physical in rows:
            assert HEADER[physical - 1] == bcm


def test_the_header_map_is_the_pis() -> None:
    gpios = [p for p in HEADER if isinstance(p, int)]
    assert sorted(gpios) == list(range(28))
    assert HEADER.count("GND") == 8 and HEADER.count("3V3") == 2 and HEADER.count("5V") == 2
    assert HEADER[11 - 1] == 17 and HEADER[40 - 1] == 21 and HEADER[12 - 1] == 18


def test_the_pico_pins_are_read_from_its_program() -> None:
    text = (ROOT / "firmware_bridge" / "firmware" / "main.py").read_text()
    block = text[text.index("BUTTON_PINS"):text.index("MAX_READ")]
    numbers = {int(n) for n in re.findall(r"\((\d+), \"", block)}
    lights = re.search(r"LIGHT_PINS = \(([\d, ]+)\)", block)
    buzzer = re.search(r"BUZZER_PIN = (\d+)", block)
    assert lights and buzzer
    numbers |= {int(n) for n in lights.group(1).split(",")} | {int(buzzer.group(1))}
    assert sorted(gp for _, _, gp in pico_rows()) == sorted(numbers)
    # the Pico's ground pins are 3, 8, 13, ...: no GP lands on one
    assert not {PICO_PHYSICAL[gp] for gp in numbers} & {3, 8, 13, 18, 23, 28, 33, 38}
    assert PICO_PHYSICAL[0] == 1 and PICO_PHYSICAL[2] == 4 and PICO_PHYSICAL[22] == 29


def test_the_hardware_doc_gives_the_pictures_heights_and_pins() -> None:
    text = HARDWARE_DOC.read_text(encoding="utf-8")
    section = text[text.index("<!-- section:deploy -->"):text.index("<!-- /section:deploy -->")]
    assert "deploy/wiring.png" in section
    for seats, heights in mount_table().items():
        for name, cm in heights.items():
            assert re.search(rf"\| {seats} seats[^\n]*{cm} cm", section), (seats, name, cm)
    wiring = default_wiring(4)
    table = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6:
            table[cells[0]] = cells[1:]

    def pins(*bcm: int | None) -> str:
        return ", ".join(f"GPIO{p} (pin {HEADER.index(p) + 1})" for p in bcm if p is not None)

    for row, seat_pins in (("BID button", [s.bid for s in wiring.seats]),
                           ("PASS button", [s.pass_ for s in wiring.seats]),
                           ("turn light", [s.light for s in wiring.seats])):
        assert table[row] == [pins(p) for p in seat_pins] + [""]
    assert table["UNDO button"][4] == pins(wiring.undo)
    assert table["buzzer"][4] == pins(wiring.buzzer)
    assert table["suit lights ♠ ♥ ♣ ♦"][4] == pins(*wiring.suit_lights)
