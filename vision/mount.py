"""How high above the mat the camera hangs: the whole mat and a margin in view, no higher.

The one source of the heights that `print-mat` prints, the wiring picture draws
(deploy/wiring_diagram.py) and docs/hardware.md states (a test compares them).

    python -m vision.mount        the height for each mat and lens, and the card's size in pixels
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .mat import SEAT_NAMES, MatLayout, mat_layout

# Seen beyond the mat, as a share of its size (half of it each side): slack for a mount a
# little off centre, small enough that a card stays about 100 px wide (the reading needs that).
MARGIN = 0.1
FRAME = (1920, 1080)  # the frames the vision pipeline reads (and the simulator renders)


@dataclass(frozen=True)
class Lens:
    """A camera's field of view in degrees, along its sensor's long and short sides."""

    name: str
    across_deg: float
    down_deg: float


CAMERA_MODULE_3 = Lens("Camera Module 3", 66.0, 41.0)
CAMERA_MODULE_3_WIDE = Lens("Camera Module 3 Wide", 102.0, 67.0)
LENSES = (CAMERA_MODULE_3, CAMERA_MODULE_3_WIDE)


def mount_height_mm(layout: MatLayout, lens: Lens = CAMERA_MODULE_3,
                    margin: float = MARGIN) -> float:
    """The lens-to-mat distance at which the mat plus `margin` just fills the view, the
    sensor's long side along the mat's long side (a pinhole camera looking straight down)."""
    long_side = max(layout.width, layout.height) * (1 + margin)
    short_side = min(layout.width, layout.height) * (1 + margin)
    return max(long_side / 2 / math.tan(math.radians(lens.across_deg) / 2),
               short_side / 2 / math.tan(math.radians(lens.down_deg) / 2))


def mount_height_cm(layout: MatLayout, lens: Lens = CAMERA_MODULE_3) -> int:
    """`mount_height_mm` rounded up to a whole centimetre (higher still sees it all)."""
    return math.ceil(mount_height_mm(layout, lens) / 10)


def px_per_mm(lens: Lens, height_mm: float, frame: tuple[int, int] = FRAME) -> float:
    """Pixels per millimetre on the mat in a `frame`-sized picture taken from `height_mm`."""
    across = 2 * height_mm * math.tan(math.radians(lens.across_deg) / 2)
    down = 2 * height_mm * math.tan(math.radians(lens.down_deg) / 2)
    return min(frame[0] / across, frame[1] / down)


def mount_table() -> dict[int, dict[str, int]]:
    """Mount height in cm for each mat (3 or 4 seats) and lens."""
    return {seats: {lens.name: mount_height_cm(mat_layout(seats), lens) for lens in LENSES}
            for seats in SEAT_NAMES}


def main() -> None:
    for seats in SEAT_NAMES:
        mat = mat_layout(seats)
        for lens in LENSES:
            cm = mount_height_cm(mat, lens)
            px = px_per_mm(lens, cm * 10)
            print(f"{seats}-seat mat {mat.width:.0f} x {mat.height:.0f} mm, {lens.name}: lens "
                  f"{cm} cm above the mat, {px:.2f} px/mm at {FRAME[0]}x{FRAME[1]} (a card "
                  f"{px * mat.card[0]:.0f} px wide)")


if __name__ == "__main__":
    main()
