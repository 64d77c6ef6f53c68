"""The printed mat, calibration and noticing a moved camera."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from vision.calibration import Calibration, CalibrationError, calibrate, marker_offset
from vision.mat import draw_mat, mat_layout, mount_height_mm, write_mat


@pytest.mark.parametrize("seats", [3, 4])
def test_zones_lie_on_the_mat_apart_and_name_every_seat(seats: int) -> None:
    layout = mat_layout(seats)
    for zone in layout.zones:
        assert 0 <= zone.x0 < zone.x1 <= layout.width and 0 <= zone.y0 < zone.y1 <= layout.height
        # a card (63 x 88 mm) fits in every zone
        assert min(zone.x1 - zone.x0, zone.y1 - zone.y0) >= 63
    for a in layout.zones:
        for b in layout.zones:
            if a is not b:
                assert a.x1 <= b.x0 or b.x1 <= a.x0 or a.y1 <= b.y0 or b.y1 <= a.y0, (a, b)
    for area in ("play", "meld"):
        assert sorted(-1 if z.seat is None else z.seat for z in layout.zones_for(area)) \
            == list(range(seats))
    assert len(layout.zones_for("kitty")) == 1
    south = layout.zones_for("play")[0]
    assert south.seat == 0 and south.y0 > layout.height / 2   # seat 0 is the bottom edge
    west = next(z for z in layout.zones_for("play") if z.seat == 1)
    assert west.x1 < layout.width / 2                        # then clockwise: West


def test_seats_must_be_three_or_four() -> None:
    with pytest.raises(ValueError, match="3 or 4"):
        mat_layout(5)


def test_written_mat_is_true_to_size(tmp_path: Path) -> None:
    layout = mat_layout(3)
    path = tmp_path / "mat.png"
    write_mat(layout, str(path), dpi=40)
    with Image.open(path) as img:
        assert img.size == (round(layout.width * 40 / 25.4), round(layout.height * 40 / 25.4))
        assert round(img.info["dpi"][0]) == 40
    write_mat(layout, str(tmp_path / "mat.pdf"), dpi=40)
    assert (tmp_path / "mat.pdf").read_bytes().startswith(b"%PDF")


def test_camera_height_grows_with_the_mat() -> None:
    assert mount_height_mm(mat_layout(4)) > mount_height_mm(mat_layout(3)) > 500
    assert mount_height_mm(mat_layout(4), 102, 67) < mount_height_mm(mat_layout(4))


def _camera_view(layout_seats: int, shift: tuple[float, float] = (0, 0)) -> np.ndarray:
    """The drawn mat seen by a slightly tilted camera at 1280x800."""
    layout = mat_layout(layout_seats)
    image = draw_mat(layout, 2.0)
    h, w = image.shape[:2]
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dst = np.array([[90, 40], [1190, 60], [1170, 770], [110, 750]], np.float32) + shift
    m = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    return cv2.warpPerspective(image, m, (1280, 800), borderValue=(60, 60, 60))


def test_calibration_maps_pixels_to_millimetres(tmp_path: Path) -> None:
    layout = mat_layout(4)
    cal = calibrate(_camera_view(4), layout)
    assert len(cal.markers) == 4
    # the kitty zone's corners: to pixels and back
    kitty = layout.zones_for("kitty")[0]
    mm = np.array([[kitty.x0, kitty.y0], [kitty.x1, kitty.y1]], np.float32)
    assert np.abs(cal.mat_points(cal.frame_points(mm)) - mm).max() < 0.01
    path = tmp_path / "cal.json"
    cal.save(path)
    again = Calibration.load(path)
    assert np.allclose(again.to_mat, cal.to_mat) and again.seats == 4
    assert marker_offset(_camera_view(4), again) is not None
    offset, seen = marker_offset(_camera_view(4), again) or (99.0, 0)
    assert offset < 1.0 and seen == 4


def test_a_moved_camera_shows_as_marker_offset() -> None:
    cal = calibrate(_camera_view(3), mat_layout(3))
    found = marker_offset(_camera_view(3, (25, -10)), cal)
    assert found is not None and found[0] > 10


def test_calibration_says_which_markers_it_missed(tmp_path: Path) -> None:
    view = _camera_view(3)
    view[:400, :640] = 60   # cover the top-left quarter
    view[400:, 640:] = 60   # and the bottom-right
    with pytest.raises(CalibrationError, match="saw 2 of the mat's 4 markers"):
        calibrate(view, mat_layout(3))
    bad = tmp_path / "broken.json"
    bad.write_text("{")
    with pytest.raises(CalibrationError, match="calibrate"):
        Calibration.load(bad)
