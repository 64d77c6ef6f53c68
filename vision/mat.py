"""The printed mat: its size, ArUco markers and zones (each seat's play spot and meld area, the
centre for the kitty), and drawing it. Coordinates are millimetres, x to the right and y down,
with seat 0 ("South") at the bottom edge and the seats numbered clockwise."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .pdf import Canvas, Document

CARD_MM = (63.0, 88.0)   # a poker-size card, short side first
MAT_GREEN = (50, 92, 32)  # BGR: a dark felt green that white cards stand out on
ZONE_GOLD = (40, 170, 210)  # BGR: saturated, so no zone line is ever taken for a card
# Labels are dark: thin gold letters under a lamp's glare, their colour smeared by the camera's
# JPEG, look as white as a card and grow onto the outline of a card lying beside them.
LABEL_DARK = (20, 42, 12)
MARKER_MM = 48.0   # the black square of each ArUco marker
QUIET_MM = 8.0     # white margin around it
SEAT_NAMES = {3: ("South", "West", "East"), 4: ("South", "West", "North", "East")}
# The mat's width and depth for each number of seats: the one place they are stated (print-mat,
# the camera's height in vision/mount.py, the wiring picture and the docs take them from here).
MAT_MM = {3: (1000.0, 540.0), 4: (1000.0, 600.0)}


@dataclass(frozen=True)
class Zone:
    """A rectangle on the mat: `area` is "play", "meld" or "kitty" (seat None)."""

    area: str
    seat: int | None
    x0: float
    y0: float
    x1: float
    y1: float

    def contains(self, x: float, y: float) -> bool:
        return self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1

    @property
    def label(self) -> str:
        return self.area if self.seat is None else f"{self.area} {self.seat}"


@dataclass(frozen=True)
class Marker:
    """An ArUco marker (DICT_4X4_50) whose black square starts at (x, y), `size` mm wide."""

    id: int
    x: float
    y: float
    size: float = MARKER_MM

    def corners(self) -> np.ndarray:
        """Its four corners in mm, in ArUco's order (top-left, top-right, bottom-right, ...)."""
        x, y, s = self.x, self.y, self.size
        return np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]], np.float32)


@dataclass(frozen=True)
class MatLayout:
    """One mat design: its size, markers and zones."""

    seats: int
    width: float
    height: float
    markers: tuple[Marker, ...]
    zones: tuple[Zone, ...]
    card: tuple[float, float] = CARD_MM

    def zone_at(self, x: float, y: float) -> Zone | None:
        for zone in self.zones:
            if zone.contains(x, y):
                return zone
        return None

    def seat_name(self, seat: int) -> str:
        return SEAT_NAMES[self.seats][seat]

    def zones_for(self, area: str) -> list[Zone]:
        return [z for z in self.zones if z.area == area]


def mat_layout(seats: int) -> MatLayout:
    """The mat for 3 or 4 seats (its size in MAT_MM).

    A meld can be eight cards or more. South's and North's meld areas run the width of the
    mat between the markers: eleven cards side by side. West's and East's lie beside the play
    spots, wide enough for two columns of four cards turned to face them. A 16:9 camera sees
    the wide mat at the same millimetres per pixel as a 4:3 one of 800 mm, since the height
    limits it."""
    if seats not in SEAT_NAMES:
        raise ValueError(f"a mat has 3 or 4 seats, not {seats}")
    width, height = MAT_MM[seats]
    cx, cy = width / 2, (300.0 if seats == 4 else 250.0)   # the middle of the kitty area
    corner = QUIET_MM * 3 + MARKER_MM    # the markers' squares, quiet zones included
    side_top = cy - 170 if seats == 4 else corner + 8
    south = [Zone("play", 0, cx - 60, cy + 60, cx + 60, cy + 170),
             Zone("meld", 0, corner + 8, cy + 180, width - corner - 8, height - 10)]
    west = [Zone("play", 1, cx - 240, cy - 60, cx - 125, cy + 60),
            Zone("meld", 1, 10.0, side_top, 220.0, cy + 170)]
    east = [Zone("play", seats - 1, cx + 125, cy - 60, cx + 240, cy + 60),
            Zone("meld", seats - 1, width - 220, side_top, width - 10, cy + 170)]
    north = [Zone("play", 2, cx - 60, cy - 170, cx + 60, cy - 60),
             Zone("meld", 2, corner + 8, 10.0, width - corner - 8, cy - 180)] \
        if seats == 4 else []
    kitty = [Zone("kitty", None, cx - 120, cy - 55, cx + 120, cy + 55)]
    m = QUIET_MM * 2
    far_x, far_y = width - m - MARKER_MM, height - m - MARKER_MM
    markers = (Marker(0, m, m), Marker(1, far_x, m), Marker(2, far_x, far_y), Marker(3, m, far_y))
    return MatLayout(seats, width, height, markers, tuple(south + west + north + east + kitty))


def draw_mat(layout: MatLayout, px_per_mm: float) -> np.ndarray:
    """The mat as a BGR image at `px_per_mm` (11.81 for 300 dpi)."""
    import cv2

    from .aruco import marker_image

    w, h = round(layout.width * px_per_mm), round(layout.height * px_per_mm)
    image = np.empty((h, w, 3), np.uint8)
    image[:] = MAT_GREEN
    line = max(1, round(1.5 * px_per_mm))

    def px(v: float) -> int:
        return round(v * px_per_mm)

    for zone in layout.zones:
        cv2.rectangle(image, (px(zone.x0), px(zone.y0)), (px(zone.x1), px(zone.y1)),
                      ZONE_GOLD, line, cv2.LINE_AA)
        text = "kitty" if zone.seat is None else f"{layout.seat_name(zone.seat)} {zone.area}"
        scale = 0.25 * px_per_mm
        cv2.putText(image, text, (px(zone.x0 + 3), px(zone.y1 - 4)), cv2.FONT_HERSHEY_SIMPLEX,
                    scale, LABEL_DARK, max(1, round(0.5 * px_per_mm)), cv2.LINE_AA)
    for marker in layout.markers:
        q = QUIET_MM
        cv2.rectangle(image, (px(marker.x - q), px(marker.y - q)),
                      (px(marker.x + marker.size + q), px(marker.y + marker.size + q)),
                      (255, 255, 255), -1)
        side = px(marker.size)
        image[px(marker.y):px(marker.y) + side, px(marker.x):px(marker.x) + side] = \
            cv2.cvtColor(marker_image(marker.id, side), cv2.COLOR_GRAY2BGR)
    return image


PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # mm, portrait
PAGE_MARGIN = 12.0  # mm: what home printers leave blank, and room for the cut marks


def _rgb(bgr: tuple[int, int, int]) -> tuple[int, int, int]:
    return bgr[2], bgr[1], bgr[0]


def marker_cells(marker_id: int) -> list[tuple[int, int]]:
    """The black cells (column, row) of a marker's 6 x 6 grid, its black border included."""
    from .aruco import marker_image

    cell = 10
    image = marker_image(marker_id, 6 * cell)
    return [(c, r) for r in range(6) for c in range(6)
            if image[r * cell + cell // 2, c * cell + cell // 2] < 128]


def mat_drawing(layout: MatLayout) -> Canvas:
    """The mat as vector drawing operations, in mm."""
    canvas = Canvas().fill(_rgb(MAT_GREEN)).rect(0, 0, layout.width, layout.height)
    canvas.stroke(_rgb(ZONE_GOLD), 1.5)
    for zone in layout.zones:
        canvas.rect(zone.x0, zone.y0, zone.x1 - zone.x0, zone.y1 - zone.y0, "S")
    for zone in layout.zones:
        text = "kitty" if zone.seat is None else f"{layout.seat_name(zone.seat)} {zone.area}"
        canvas.text(zone.x0 + 3, zone.y1 - 4, 7.5, text, _rgb(LABEL_DARK))
    for marker in layout.markers:
        q, cell = QUIET_MM, marker.size / 6
        canvas.fill((255, 255, 255)).rect(marker.x - q, marker.y - q, marker.size + 2 * q,
                                          marker.size + 2 * q)
        canvas.fill((0, 0, 0))
        for c, r in marker_cells(marker.id):
            # a hair wider than the cell, so neighbouring cells print as one black area
            canvas.rect(marker.x + c * cell, marker.y + r * cell, cell + 0.01, cell + 0.01)
    return canvas


def mat_pdf(layout: MatLayout, paper: str = "full") -> bytes:
    """The mat as a vector PDF: one page its own size ("full", for a print shop or a plotter),
    or tiled onto "a4" or "letter" sheets with cut marks, to trim and butt together."""
    doc = Document()
    mat = doc.form("Mat", mat_drawing(layout), layout.width, layout.height)
    if paper == "full":
        doc.page(Canvas().place(mat, 0, 0), layout.width, layout.height)
        return doc.tobytes()
    if paper not in PAPERS:
        raise ValueError(f"paper is full, a4 or letter, not {paper!r}")
    short, long = PAPERS[paper]
    m = PAGE_MARGIN

    def tiles(page_w: float, page_h: float) -> tuple[int, int]:
        return (math.ceil(layout.width / (page_w - 2 * m)),
                math.ceil(layout.height / (page_h - 2 * m)))

    # the orientation that needs fewer sheets
    page_w, page_h = min(((short, long), (long, short)), key=lambda p: math.prod(tiles(*p)))
    cols, rows = tiles(page_w, page_h)
    tile_w, tile_h = page_w - 2 * m, page_h - 2 * m
    for row in range(rows):
        for col in range(cols):
            w = min(tile_w, layout.width - col * tile_w)
            h = min(tile_h, layout.height - row * tile_h)
            page = Canvas().place(mat, m - col * tile_w, m - row * tile_h, clip=(m, m, w, h))
            page.stroke((0, 0, 0), 0.2)
            for x in (m, m + w):  # cut marks: short lines off each corner, in the margin
                for y in (m, m + h):
                    out_x = -1 if x == m else 1
                    out_y = -1 if y == m else 1
                    page.line(x + out_x * 2, y, x + out_x * 8, y)
                    page.line(x, y + out_y * 2, x, y + out_y * 8)
            page.text(m + 10, m - 4, 3.2, f"pinochle mat, {layout.seats} seats: sheet "
                      f"{row * cols + col + 1} of {rows * cols}, row {row + 1} column {col + 1}"
                      " - print at 100 % (no fit to page), cut on the marks, butt the edges")
            doc.page(page, page_w, page_h)
    return doc.tobytes()


def write_mat(layout: MatLayout, path: str, dpi: int = 300, paper: str = "full") -> None:
    """Write the printable mat, true to size: a vector PDF (see mat_pdf), or a PNG at `dpi`."""
    if path.lower().endswith(".pdf"):
        data = mat_pdf(layout, paper)
        with open(path, "wb") as f:
            f.write(data)
        return
    from PIL import Image

    image = draw_mat(layout, dpi / 25.4)
    Image.fromarray(image[:, :, ::-1].copy()).save(path, dpi=(dpi, dpi))
