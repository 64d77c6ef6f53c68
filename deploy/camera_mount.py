"""How high above the mat the camera goes: the whole mat and a margin in view, no higher.

    python deploy/camera_mount.py        the heights for each mat and lens, and px/mm
"""

from __future__ import annotations

import math
from dataclasses import dataclass

MARGIN_MM = 50.0   # seen beyond each edge of the mat: slack for a mount a little off centre
FRAME = (1920, 1080)  # the frames the vision pipeline reads (and the simulator renders)


@dataclass(frozen=True)
class Lens:
    """A camera's field of view in degrees, along its sensor's long and short sides."""

    name: str
    across_deg: float
    down_deg: float


LENSES = (Lens("Camera Module 3", 66.0, 41.0), Lens("Camera Module 3 Wide", 102.0, 67.0))


def mount_height_mm(lens: Lens, mat_w: float, mat_h: float, margin: float = MARGIN_MM) -> float:
    """The lens-to-mat distance at which the mat plus `margin` on each side just fills the
    view, the sensor's long side along the mat's long side (a pinhole camera looking
    straight down)."""
    long_side, short_side = max(mat_w, mat_h) + 2 * margin, min(mat_w, mat_h) + 2 * margin
    return max(long_side / 2 / math.tan(math.radians(lens.across_deg) / 2),
               short_side / 2 / math.tan(math.radians(lens.down_deg) / 2))


def mount_height_cm(lens: Lens, mat_w: float, mat_h: float) -> int:
    """`mount_height_mm` rounded up to a whole centimetre (higher still sees it all)."""
    return math.ceil(mount_height_mm(lens, mat_w, mat_h) / 10)


def px_per_mm(lens: Lens, height_mm: float, frame: tuple[int, int] = FRAME) -> float:
    """Pixels per millimetre on the mat in a `frame`-sized picture taken from `height_mm`."""
    across = 2 * height_mm * math.tan(math.radians(lens.across_deg) / 2)
    down = 2 * height_mm * math.tan(math.radians(lens.down_deg) / 2)
    return min(frame[0] / across, frame[1] / down)


def mount_table() -> dict[int, dict[str, int]]:
    """Mount height in cm per mat (3 or 4 seats, sizes from vision.mat) and lens."""
    from vision.mat import mat_layout

    table: dict[int, dict[str, int]] = {}
    for seats in (3, 4):
        mat = mat_layout(seats)
        table[seats] = {lens.name: mount_height_cm(lens, mat.width, mat.height)
                        for lens in LENSES}
    return table


def main() -> None:
    from vision.mat import mat_layout

    for seats, heights in mount_table().items():
        mat = mat_layout(seats)
        for name, cm in heights.items():
            lens = next(lens for lens in LENSES if lens.name == name)
            print(f"{seats}-seat mat {mat.width:.0f} x {mat.height:.0f} mm, {name}: lens {cm} cm "
                  f"above the mat, {px_per_mm(lens, cm * 10):.2f} px/mm at "
                  f"{FRAME[0]}x{FRAME[1]}")


if __name__ == "__main__":
    main()
