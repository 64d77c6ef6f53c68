"""The camera's height over each mat (vision/mount.py): the mat and its margin in view."""

from __future__ import annotations

import math

import pytest

from vision.mat import MAT_MM, mat_layout
from vision.mount import (
    CAMERA_MODULE_3,
    CAMERA_MODULE_3_WIDE,
    LENSES,
    MARGIN,
    mount_height_mm,
    mount_table,
    px_per_mm,
)


def test_camera_height_grows_with_the_mat() -> None:
    assert mount_height_mm(mat_layout(4)) > mount_height_mm(mat_layout(3)) > 500
    assert mount_height_mm(mat_layout(4), CAMERA_MODULE_3_WIDE) < mount_height_mm(mat_layout(4))


@pytest.mark.parametrize("seats", sorted(MAT_MM))
def test_the_mount_height_frames_the_mat(seats: int) -> None:
    mat = mat_layout(seats)
    assert (mat.width, mat.height) == MAT_MM[seats]
    for lens in LENSES:
        height = mount_table()[seats][lens.name] * 10
        # at that height the whole mat and the margin are in view, and 1 cm lower they are not
        assert mount_height_mm(mat, lens) <= height < mount_height_mm(mat, lens) + 10
        across = 2 * height * math.tan(math.radians(lens.across_deg) / 2)
        down = 2 * height * math.tan(math.radians(lens.down_deg) / 2)
        assert across >= mat.width * (1 + MARGIN) and down >= mat.height * (1 + MARGIN)
        assert 1.3 < px_per_mm(lens, height) < 2.0


def test_a_card_is_about_a_hundred_pixels_wide_with_the_camera_module_3() -> None:
    for seats in MAT_MM:
        mat = mat_layout(seats)
        cm = mount_table()[seats][CAMERA_MODULE_3.name]
        assert px_per_mm(CAMERA_MODULE_3, cm * 10) * mat.card[0] >= 100
