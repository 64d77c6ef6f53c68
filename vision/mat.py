"""The printed mat: its size, ArUco markers and zones (each seat's play spot and meld area, the
centre for the kitty), and drawing it. Coordinates are millimetres, x to the right and y down,
with seat 0 ("South") at the bottom edge and the seats numbered clockwise."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

CARD_MM = (63.0, 88.0)   # a poker-size card, short side first
MAT_GREEN = (50, 92, 32)  # BGR: a dark felt green that white cards stand out on
ZONE_GOLD = (40, 170, 210)  # BGR: saturated, so no zone line is ever taken for a card
# Labels are dark: thin gold letters under a lamp's glare, their colour smeared by the camera's
# JPEG, look as white as a card and grow onto the outline of a card lying beside them.
LABEL_DARK = (20, 42, 12)
MARKER_MM = 48.0   # the black square of each ArUco marker
QUIET_MM = 8.0     # white margin around it
SEAT_NAMES = {3: ("South", "West", "East"), 4: ("South", "West", "North", "East")}


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
    """The mat for 3 seats (1000 x 540 mm) or 4 seats (1000 x 600 mm).

    A meld can be eight cards or more. South's and North's meld areas run the width of the
    mat between the markers: eleven cards side by side. West's and East's lie beside the play
    spots, wide enough for two columns of four cards turned to face them. A 16:9 camera sees
    the wide mat at the same millimetres per pixel as a 4:3 one of 800 mm, since the height
    limits it."""
    if seats not in SEAT_NAMES:
        raise ValueError(f"a mat has 3 or 4 seats, not {seats}")
    width = 1000.0
    height = 600.0 if seats == 4 else 540.0
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


def write_mat(layout: MatLayout, path: str, dpi: int = 300) -> None:
    """Write the printable mat as PNG or PDF (by the file's suffix) at `dpi`, true to size."""
    from PIL import Image

    image = draw_mat(layout, dpi / 25.4)
    pil = Image.fromarray(image[:, :, ::-1].copy())
    pil.save(path, resolution=float(dpi)) if path.lower().endswith(".pdf") \
        else pil.save(path, dpi=(dpi, dpi))


def mount_height_mm(layout: MatLayout, hfov_deg: float = 66.0, vfov_deg: float = 41.0,
                    margin: float = 0.1) -> float:
    """How high above the mat a camera with these fields of view (default: Pi Camera
    Module 3 in 16:9) must hang to see the whole mat with a `margin` all round."""
    import math

    need_w = layout.width * (1 + margin) / 2 / math.tan(math.radians(hfov_deg / 2))
    need_h = layout.height * (1 + margin) / 2 / math.tan(math.radians(vfov_deg / 2))
    return max(need_w, need_h)
