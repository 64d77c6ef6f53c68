"""Draws deploy/wiring.png from the pins the code really uses.

    python deploy/wiring_diagram.py [-o deploy/wiring.png]

The Pi's 40-pin header with every seat's buttons and turn light and the table's UNDO, buzzer
and suit lights (firmware_bridge/layouts, 4 seats; the 3-seat layout must be the same less seat
4), the optional Pico board on USB with its pins (firmware_bridge/firmware/main.py), and the
camera's height above the mat (vision/mount.py, mat sizes from vision/mat.py). The
inputs are stored in the PNG as a text chunk, so a test can tell when the picture is stale.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont
from PIL.PngImagePlugin import PngInfo

from vision.mat import mat_layout
from vision.mount import LENSES, MARGIN, mount_height_mm, mount_table

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PICO_MAIN = ROOT / "firmware_bridge" / "firmware" / "main.py"
OUTPUT = HERE / "wiring.png"
CHUNK = "pinochle-wiring"  # the PNG text chunk holding the inputs as JSON

# The 40-pin header, physical pin 1..40: a BCM GPIO number, or a power/ground name.
HEADER: tuple[int | str, ...] = (
    "3V3", "5V", 2, "5V", 3, "GND", 4, 14, "GND", 15, 17, 18, 27, "GND", 22, 23, "3V3", 24, 10,
    "GND", 9, 25, 11, 8, "GND", 7, 0, 1, 5, "GND", 6, 12, 13, "GND", 19, 16, 26, 20, "GND", 21)
# The Pico's GP number -> its physical pin (the ground pins fall between).
PICO_PHYSICAL = {gp: gp + 1 + (gp + 2) // 4 for gp in range(23)}

SEAT_COLOURS = ("#1c64d8", "#d9480f", "#2b8a3e", "#9c36b5")
TABLE_COLOUR = "#5c5f66"
POWER_COLOURS = {"3V3": "#e8590c", "5V": "#c92a2a", "GND": "#111111"}
SUIT_SYMBOLS = {"spades": "♠", "hearts": "♥", "clubs": "♣", "diamonds": "♦"}

WIDTH, HEIGHT = 1700, 1640
CX = WIDTH // 2            # the header's middle
TOP = 240                  # the first header row
ROW = 40                   # header row pitch
PIN_DX, TAG_D, BOARD_D, LABEL_D, PART_D, RAIL_D = 40, 104, 170, 186, 515, 690


def physical_pin(bcm: int) -> int:
    return HEADER.index(bcm) + 1


def pico_rows() -> list[tuple[str, str, int]]:
    """(function, where, GP) from the constants of the Pico's main.py (read, not run)."""
    values: dict[str, Any] = {}
    for node in ast.parse(PICO_MAIN.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if name in ("BUTTON_PINS", "LIGHT_PINS", "BUZZER_PIN"):
                values[name] = ast.literal_eval(node.value)
    rows: list[tuple[str, str, int]] = []
    for gp, seat, button in values["BUTTON_PINS"]:
        where = "table" if seat == "T" else f"seat {int(seat) + 1}"
        rows.append((f"{button} button", where, gp))
    lights = values["LIGHT_PINS"]
    rows += [("turn light", f"seat {i + 1}", gp) for i, gp in enumerate(lights[:4])]
    rows.append(("buzzer", "table", values["BUZZER_PIN"]))
    rows += [(f"{suit} light", "table", gp) for suit, gp in zip(SUIT_SYMBOLS, lights[4:8],
                                                                  strict=True)]
    return rows


def diagram_inputs() -> dict[str, Any]:
    """Everything the picture shows, as JSON-able values (stored in the PNG)."""
    from firmware_bridge.config import PICO_USB_ID, default_wiring

    layouts = {str(seats): [[function, where, bcm, physical_pin(bcm)]
                            for function, where, bcm in default_wiring(seats).rows()]
               for seats in (3, 4)}
    drawing = hashlib.sha256((HERE / "wiring_diagram.py").read_bytes())
    return {
        "layouts": layouts,
        "pico": [[function, where, gp, PICO_PHYSICAL[gp]] for function, where, gp in pico_rows()],
        "usb_id": PICO_USB_ID,
        "mats": {str(s): [mat_layout(s).width, mat_layout(s).height] for s in (3, 4)},
        "mount_cm": {str(seats): heights for seats, heights in mount_table().items()},
        "margin": MARGIN,
        "drawing_sha256": drawing.hexdigest(),
    }


def stored_inputs(png: Path) -> dict[str, Any] | None:
    """The inputs a PNG drawn by this script was made from, or None."""
    with Image.open(png) as image:
        text = getattr(image, "text", {}).get(CHUNK)
    return None if text is None else dict(json.loads(text))


# -- drawing --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Fonts:
    title: Any
    text: Any
    small: Any
    tiny: Any
    bold: Any


def load_fonts() -> Fonts:
    def font(name: str, size: int) -> Any:
        try:
            return ImageFont.truetype(f"/usr/share/fonts/truetype/dejavu/{name}", size)
        except OSError:  # no DejaVu: Pillow's own font (smaller, but legible)
            return ImageFont.load_default()

    return Fonts(font("DejaVuSans-Bold.ttf", 30), font("DejaVuSans.ttf", 19),
                 font("DejaVuSans.ttf", 16), font("DejaVuSans.ttf", 12),
                 font("DejaVuSans-Bold.ttf", 17))


def colour_of(where: str) -> str:
    return SEAT_COLOURS[int(where.split()[1]) - 1] if where.startswith("seat") else TABLE_COLOUR


def label_of(function: str, where: str) -> str:
    suit = function.split()[0]
    if suit in SUIT_SYMBOLS:
        return f"{SUIT_SYMBOLS[suit]} {suit} light"
    if function == "buzzer":
        return "buzzer (active)"
    if where == "table":
        return function
    return f"{where} {function}"


class Canvas:
    """The picture, with the few shapes a wiring diagram needs."""

    def __init__(self, fonts: Fonts) -> None:
        self.image = Image.new("RGB", (WIDTH, HEIGHT), "white")
        self.draw = ImageDraw.Draw(self.image)
        self.fonts = fonts

    def text(self, xy: tuple[float, float], text: str, font: Any, fill: str = "#222222",
             anchor: str = "la") -> None:
        self.draw.text(xy, text, font=font, fill=fill, anchor=anchor)

    def tag(self, x: float, y: float, text: str, fill: str, ink: str = "white",
            font: Any = None, width: float | None = None, anchor: str = "m") -> None:
        """A label on a wire: a rounded box centred on y; `anchor` l/m/r places it at x."""
        font = font or self.fonts.small
        w = width or self.draw.textlength(text, font=font) + 14
        x0 = {"l": x, "m": x - w / 2, "r": x - w}[anchor]
        self.draw.rounded_rectangle((x0, y - 13, x0 + w, y + 13), 6, fill=fill,
                                    outline=ink if fill == "white" else fill, width=2)
        self.text((x0 + w / 2, y), text, font, ink, "mm")

    def line(self, points: list[tuple[float, float]], fill: str, width: int = 3) -> None:
        self.draw.line(points, fill=fill, width=width, joint="curve")

    def button(self, x: float, y: float, ink: str) -> None:
        """A push button across the wire at x (normally open)."""
        self.draw.rectangle((x - 22, y - 4, x + 22, y + 4), fill="white")
        for cx in (x - 18, x + 18):
            self.draw.ellipse((cx - 4, y - 4, cx + 4, y + 4), outline=ink, width=2, fill="white")
        self.line([(x - 24, y - 12), (x + 24, y - 12)], ink, 3)
        self.line([(x, y - 12), (x, y - 20)], ink, 3)
        self.line([(x - 7, y - 20), (x + 7, y - 20)], ink, 3)

    def resistor(self, x: float, y: float, ink: str) -> None:
        self.draw.rectangle((x - 24, y - 7, x + 24, y + 7), fill="white", outline=ink, width=2)
        self.text((x, y - 9), "330Ω", self.fonts.tiny, "#333333", "mb")

    def led(self, x: float, y: float, ink: str, outward: int) -> None:
        """An LED at x, its anode towards the header and cathode towards the ground rail."""
        a, k = x - 12 * outward, x + 12 * outward
        self.draw.polygon([(a, y - 11), (a, y + 11), (k, y)], fill=ink)
        self.line([(k, y - 11), (k, y + 11)], ink, 3)
        for dx in (-7, 3):
            start = (x + dx * outward, y - 13)
            self.arrow(start, (start[0] + 9 * outward, start[1] - 9), ink)

    def arrow(self, start: tuple[float, float], end: tuple[float, float], ink: str) -> None:
        self.line([start, end], ink, 2)
        dx, dy = end[0] - start[0], end[1] - start[1]
        n = math.hypot(dx, dy)
        ux, uy = dx / n, dy / n
        back = (end[0] - 6 * ux, end[1] - 6 * uy)
        self.draw.polygon([end, (back[0] - 3 * uy, back[1] + 3 * ux),
                           (back[0] + 3 * uy, back[1] - 3 * ux)], fill=ink)

    def buzzer(self, x: float, y: float, ink: str, inward: int) -> None:
        """An active buzzer at x, its + leg towards the header."""
        self.draw.ellipse((x - 15, y - 15, x + 15, y + 15), fill="white", outline=ink, width=3)
        self.draw.ellipse((x - 5, y - 5, x + 5, y + 5), fill=ink)
        self.text((x + inward * 22, y - 8), "+", self.fonts.small, ink, "mm")


def row_y(row: int) -> float:
    return TOP + row * ROW


def draw_header_and_parts(c: Canvas, rows: list[list[Any]], four_only: set[int]) -> None:
    """The Pi with its header, a wire from each used pin to its part, and the ground rails."""
    f = c.fonts
    bottom = row_y(19)
    c.draw.rounded_rectangle((CX - BOARD_D, TOP - 70, CX + BOARD_D, bottom + 34), 18,
                             fill="#d8f0d3", outline="#2f9e44", width=3)
    c.text((CX, TOP - 60), "Raspberry Pi 5 / 4", f.bold, "#1b5e20", "ma")
    c.text((CX, TOP - 38), "pin 1 (square) is at the end away from the USB ports", f.tiny,
           "#1b5e20", "ma")
    c.draw.rectangle((CX - PIN_DX - 22, TOP - 20, CX + PIN_DX + 22, bottom + 20), fill="#222222")
    by_bcm = {bcm: (function, where) for function, where, bcm, _ in rows}
    rails: dict[int, int] = {}  # side -> the row of the ground pin its rail joins
    for pin in range(1, 41):
        if HEADER[pin - 1] == "GND":
            rails[-1 if pin % 2 else 1] = (pin - 1) // 2
    for side, rail_row in rails.items():
        x_rail = CX + side * RAIL_D
        c.line([(x_rail, row_y(0) - 14), (x_rail, row_y(19) + 14)], "#111111", 4)
        c.line([(CX + side * PIN_DX, row_y(rail_row)), (x_rail, row_y(rail_row))], "#111111", 3)
        c.text((x_rail, row_y(0) - 18), "GND rail", f.small, "#111111", "mb")
    for pin in range(1, 41):
        side = -1 if pin % 2 else 1
        y, x_pin = row_y((pin - 1) // 2), CX + side * PIN_DX
        what = HEADER[pin - 1]
        used = by_bcm.get(what) if isinstance(what, int) else None
        if used is not None:
            draw_part(c, side, y, *used, four_only=what in four_only)
        box = (x_pin - 13, y - 13, x_pin + 13, y + 13)
        fill = POWER_COLOURS.get(str(what), "#f1f3f5") if used is None else colour_of(used[1])
        if pin == 1:
            c.draw.rectangle(box, fill=fill, outline="white", width=2)
        else:
            c.draw.ellipse(box, fill=fill, outline="white", width=2)
        ink = "#444444" if fill == "#f1f3f5" else "white"
        c.text((x_pin, y), str(pin), f.tiny, ink, "mm")
        name = f"GPIO{what}" if isinstance(what, int) else what
        tag_fill = fill if (used is not None or not isinstance(what, int)) else "white"
        c.tag(CX + side * TAG_D, y, name, tag_fill, "#868e96" if tag_fill == "white" else "white",
              f.small, width=84)


def draw_part(c: Canvas, side: int, y: float, function: str, where: str,
              four_only: bool) -> None:
    """The wire from a pin to its button, light or buzzer, and on to the ground rail."""
    ink = colour_of(where)
    x_part, x_rail = CX + side * PART_D, CX + side * RAIL_D
    c.line([(CX + side * PIN_DX, y), (x_rail, y)], ink, 3)
    text = label_of(function, where) + ("  (4 seats)" if four_only else "")
    c.tag(CX + side * LABEL_D, y, text, "white", ink, c.fonts.small,
          anchor="l" if side > 0 else "r")
    if function.endswith("button"):
        c.button(x_part, y, ink)
    elif function == "buzzer":
        c.buzzer(x_part, y, ink, -side)
    else:
        c.resistor(x_part - side * 45, y, ink)
        c.led(x_part + side * 35, y, ink, side)


def draw_titles(c: Canvas) -> None:
    f = c.fonts
    c.text((40, 24), "Wiring the pinochle table", f.title)
    c.text((40, 66), "Numbers in the circles are the header's physical pins; GPIO names are BCM "
           "numbers (firmware_bridge/layouts).", f.text)
    c.text((40, 92), "Buttons join their pin to ground (the Pi's pull-up holds it high). A "
           "light is pin → 330 Ω → LED → ground.", f.text)
    x = 40.0
    for name, colour in [*((f"seat {i + 1}", col) for i, col in enumerate(SEAT_COLOURS)),
                         ("table", TABLE_COLOUR)]:
        c.draw.rounded_rectangle((x, 124, x + 24, 142), 4, fill=colour)
        c.text((x + 32, 133), name, f.text, anchor="lm")
        x += 42 + c.draw.textlength(name, font=f.text) + 20
    c.text((x + 10, 133), "A 3-seat table leaves seat 4 out; same pins otherwise.", f.text,
           "#555555", "lm")


def draw_pico(c: Canvas, inputs: dict[str, Any], box: tuple[int, int, int, int]) -> None:
    """The optional serial board: a Pico on a USB cable, and its pins."""
    f = c.fonts
    x0, y0, x1, _ = box
    c.text((x0, y0), "The serial board (optional): a Raspberry Pi Pico on USB", f.bold)
    # the Pi's USB port, the cable, the Pico
    c.draw.rounded_rectangle((x0, y0 + 40, x0 + 150, y0 + 120), 10, fill="#d8f0d3",
                             outline="#2f9e44", width=3)
    c.text((x0 + 75, y0 + 58), "Pi", f.bold, "#1b5e20", "ma")
    c.draw.rectangle((x0 + 140, y0 + 86, x0 + 162, y0 + 108), fill="#adb5bd", outline="#495057")
    px0 = x1 - 230
    c.draw.rounded_rectangle((px0, y0 + 50, x1 - 20, y0 + 112), 8, fill="#2b8a3e")
    c.draw.rectangle((px0 - 12, y0 + 70, px0 + 4, y0 + 92), fill="#adb5bd", outline="#495057")
    c.text((px0 + 105, y0 + 81), "Pico (MicroPython)", f.small, "white", "mm")
    c.draw.line([(x0 + 162, y0 + 97), (x0 + 240, y0 + 140), (px0 - 90, y0 + 140),
                 (px0 - 12, y0 + 81)], fill="#111111", width=5, joint="curve")
    mid = (x0 + 162 + px0 - 12) / 2
    c.text((mid, y0 + 150), f"USB cable (micro-USB at the Pico): USB id {inputs['usb_id']} "
           "→ /dev/pinochle-board", f.small, "#222222", "ma")
    # its pins: one row per function, one column per seat
    rows = inputs["pico"]
    wheres = ["seat 1", "seat 2", "seat 3", "seat 4", "table"]
    table_y, col_w = y0 + 215, (x1 - x0 - 150) / 5
    c.text((x0, table_y - 4), "Pico pins: GP number (physical pin); wired like the Pi's",
           f.small, "#555555", "lb")
    for j, where in enumerate(wheres):
        c.text((x0 + 150 + j * col_w, table_y + 6), where, f.bold, colour_of(where))
    functions = ["BID button", "PASS button", "turn light", "UNDO button", "buzzer",
                 "suit lights"]
    for i, function in enumerate(functions):
        y = table_y + 36 + i * 26
        c.text((x0, y), function, f.small)
        for j, where in enumerate(wheres):
            if function == "suit lights":
                if j == 0:  # the table's four suit lights, spread over the seat columns
                    cells = [f"{SUIT_SYMBOLS[r[0].split()[0]]} GP{r[2]} ({r[3]})" for r in rows
                             if r[0].split()[0] in SUIT_SYMBOLS]
                    c.text((x0 + 150, y), "   ".join(cells), f.small, TABLE_COLOUR)
                continue
            match = [r for r in rows if r[0] == function and r[1] == where]
            if match:
                c.text((x0 + 150 + j * col_w, y), f"GP{match[0][2]} ({match[0][3]})", f.small)
    notes = ["Buttons to a GND pin, lights through 330 Ω, as on the Pi; the Pico is powered",
             "by the USB cable. Its program: deploy/flash-board.sh (MicroPython first)."]
    for i, note in enumerate(notes):
        c.text((x0, table_y + 36 + len(functions) * 26 + 20 + i * 24), note, f.small, "#333333")


def draw_camera(c: Canvas, inputs: dict[str, Any], box: tuple[int, int, int, int]) -> None:
    """A side view of the camera over the 4-seat mat, and the heights for each mat and lens."""
    f = c.fonts
    x0, y0, _, y1 = box
    c.text((x0, y0), "The camera: straight down over the middle of the mat", f.bold)
    mat_w, mat_h = inputs["mats"]["4"]
    lens = LENSES[0]
    height = mount_height_mm(mat_layout(4), lens)
    table_y = y1 - 40
    scale = (table_y - y0 - 90) / height  # px per mm
    mx = x0 + 175
    half_view = height * math.tan(math.radians(lens.down_deg) / 2)
    cam_y = table_y - height * scale
    c.line([(mx - half_view * scale - 10, table_y + 6),
            (mx + half_view * scale + 10, table_y + 6)], "#8d6e63", 8)
    c.line([(mx - mat_h / 2 * scale, table_y), (mx + mat_h / 2 * scale, table_y)], "#2f7d32", 6)
    for sign in (-1, 1):
        c.draw.line([(mx, cam_y + 14), (mx + sign * half_view * scale, table_y)],
                    fill="#868e96", width=2)
    c.draw.rounded_rectangle((mx - 26, cam_y - 12, mx + 26, cam_y + 12), 4, fill="#343a40")
    c.draw.rectangle((mx - 8, cam_y + 12, mx + 8, cam_y + 18), fill="#343a40")
    c.line([(mx - 90, cam_y - 30), (mx - 90, cam_y), (mx - 26, cam_y)], "#343a40", 4)
    c.text((mx - 84, cam_y - 28), "stand or overhead mount", f.tiny, "#343a40", "lb")
    ax = mx + half_view * scale + 40
    c.line([(ax, cam_y), (ax, table_y)], "#111111", 2)
    for y, d in ((cam_y, 1), (table_y, -1)):
        c.draw.polygon([(ax, y), (ax - 6, y + 12 * d), (ax + 6, y + 12 * d)], fill="#111111")
    cm = inputs["mount_cm"]["4"][lens.name]
    c.text((ax + 10, (cam_y + table_y) / 2 - 4), f"{cm} cm", f.bold, "#111111", "lb")
    c.text((ax + 10, (cam_y + table_y) / 2 + 4), "lens to mat", f.tiny, "#111111", "lt")
    c.text((mx, table_y + 14), f"{lens.name} over the 4-seat mat: {mat_h:.0f} mm "
           f"+ {MARGIN * 50:.0f} % each side in view", f.tiny, "#2f7d32", "ma")
    # the heights for every mat and lens
    tx = x0 + 480
    names = [lens.name for lens in LENSES]
    c.text((tx, y0 + 50), "lens height above the mat", f.small, "#555555")
    for j, heading in enumerate(("Module 3", "Module 3 Wide")):
        c.text((tx + 250 + j * 115, y0 + 82), heading, f.tiny, "#333333", "ma")
    for i, seats in enumerate(("3", "4")):
        y = y0 + 106 + i * 30
        w, h = inputs["mats"][seats]
        c.text((tx, y), f"{seats} seats, {w:.0f}×{h:.0f} mm", f.small)
        for j, name in enumerate(names):
            c.text((tx + 250 + j * 115, y), f"{inputs['mount_cm'][seats][name]} cm", f.bold,
                   "#111111", "ma")
    notes = [f"Fields of view: {LENSES[0].across_deg:.0f}°×{LENSES[0].down_deg:.0f}°, "
             f"Wide {LENSES[1].across_deg:.0f}°×{LENSES[1].down_deg:.0f}°.",
             f"The picture's long side along the mat's {mat_w:.0f} mm.",
             "Higher still works (the cards get smaller);",
             "lower cuts off the mat's edges.",
             "A USB webcam: docs/hardware.md.",
             "Ribbon cable to the Pi's camera port",
             "(Pi 5: CAM/DISP 0, with a 22-to-15-pin cable)."]
    for i, note in enumerate(notes):
        c.text((tx, y0 + 190 + i * 24), note, f.small, "#333333")


def render(inputs: dict[str, Any]) -> Image.Image:
    c = Canvas(load_fonts())
    rows = inputs["layouts"]["4"]
    three = {tuple(r) for r in inputs["layouts"]["3"]}
    if not three <= {tuple(r) for r in rows}:
        raise SystemExit("the 3-seat layout is not the 4-seat one less seat 4: this picture "
                         "shows one header, so draw the two layouts apart or make them agree")
    four_only = {r[2] for r in rows if tuple(r) not in three}
    draw_titles(c)
    draw_header_and_parts(c, rows, four_only)
    panels_y, split = int(row_y(19) + 70), 770
    c.draw.line([(40, panels_y - 18), (WIDTH - 40, panels_y - 18)], fill="#dee2e6", width=2)
    draw_pico(c, inputs, (40, panels_y, split - 40, HEIGHT - 20))
    c.draw.line([(split, panels_y), (split, HEIGHT - 30)], fill="#dee2e6", width=2)
    draw_camera(c, inputs, (split + 30, panels_y, WIDTH - 40, HEIGHT - 20))
    c.text((WIDTH - 40, HEIGHT - 12), "drawn by deploy/wiring_diagram.py", c.fonts.tiny,
           "#868e96", "rb")
    return c.image


def write_png(path: Path, inputs: dict[str, Any] | None = None,
              draw: Callable[[dict[str, Any]], Image.Image] = render) -> Path:
    """Draw and save the picture, with its inputs in a text chunk; a 128-colour palette keeps
    it small."""
    inputs = inputs if inputs is not None else diagram_inputs()
    image = draw(inputs).quantize(colors=128, dither=Image.Dither.NONE)
    info = PngInfo()
    info.add_text(CHUNK, json.dumps(inputs, sort_keys=True))
    image.save(path, pnginfo=info, optimize=True)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", type=Path, default=OUTPUT)
    args = parser.parse_args()
    path = write_png(args.output)
    print(f"wrote {path} ({path.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
