"""The printed mat, calibration and noticing a moved camera."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from vision.aruco import detect_markers
from vision.calibration import Calibration, CalibrationError, calibrate, marker_offset
from vision.mat import (
    PAGE_MARGIN,
    PAPERS,
    draw_mat,
    mat_layout,
    mat_pdf,
    write_mat,
)


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


PX_PER_MM = 2  # the PDFs are rendered at 50.8 dpi: two pixels a millimetre


def render(pdf: bytes, tmp_path: Path, name: str) -> list[np.ndarray]:
    """Each page of a PDF as a BGR image, drawn by poppler (as a printer driver would)."""
    assert shutil.which("pdftoppm"), "poppler-utils is missing: ./deploy/table.sh setup installs it"
    src = tmp_path / f"{name}.pdf"
    src.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", str(25.4 * PX_PER_MM), "-png", str(src),
                    str(tmp_path / name)], check=True)
    pages = sorted(tmp_path.glob(f"{name}-*.png"))
    return [cv2.imread(str(page)) for page in pages]


def true_size(image: np.ndarray, width_mm: float, height_mm: float) -> np.ndarray:
    """`image` as it should be at PX_PER_MM: poppler rounds the page up by a pixel."""
    h, w = round(height_mm * PX_PER_MM), round(width_mm * PX_PER_MM)
    assert 0 <= image.shape[0] - h <= 1 and 0 <= image.shape[1] - w <= 1, (image.shape, w, h)
    return image[:h, :w]


@pytest.mark.parametrize("seats", [3, 4])
def test_the_vector_pdf_is_the_mat_true_to_size_with_sharp_markers(
        tmp_path: Path, seats: int) -> None:
    layout = mat_layout(seats)
    pdf = mat_pdf(layout)
    assert len(pdf) < 20_000  # vector: a few kB (the raster PDF was about 1.5 MB)
    (page,) = render(pdf, tmp_path, "mat")
    page = true_size(page, layout.width, layout.height)
    drawn = draw_mat(layout, PX_PER_MM)
    printed = detect_markers(cv2.cvtColor(page, cv2.COLOR_BGR2GRAY))
    expected = detect_markers(cv2.cvtColor(drawn, cv2.COLOR_BGR2GRAY))
    assert sorted(printed) == sorted(expected) == [m.id for m in layout.markers]
    for marker in layout.markers:  # where the mat's layout says, to a pixel
        assert np.abs(printed[marker.id] - marker.corners() * PX_PER_MM).max() <= 1.0
    calibration = calibrate(page, layout)
    assert calibration.seats == seats
    # the same picture as the raster mat, give or take anti-aliasing and the label font
    assert np.abs(page.astype(int) - drawn.astype(int)).mean() < 6


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_tiles_on_home_paper_put_back_together_make_the_mat(tmp_path: Path, paper: str) -> None:
    layout = mat_layout(3)
    (whole,) = render(mat_pdf(layout), tmp_path, "whole")
    whole = true_size(whole, layout.width, layout.height)
    short, long = PAPERS[paper]
    sheets = render(mat_pdf(layout, paper), tmp_path, paper)
    portrait = sheets[0].shape[0] > sheets[0].shape[1]
    sheets = [true_size(s, *((short, long) if portrait else (long, short))) for s in sheets]
    h, w = sheets[0].shape[:2]
    m = round(PAGE_MARGIN * PX_PER_MM)
    tile_w, tile_h = w - 2 * m, h - 2 * m
    cols, rows = -(-whole.shape[1] // tile_w), -(-whole.shape[0] // tile_h)
    assert len(sheets) == cols * rows
    glued = np.zeros_like(whole)
    for i, sheet in enumerate(sheets):  # cut on the marks, laid edge to edge
        row, col = divmod(i, cols)
        y, x = row * tile_h, col * tile_w
        part = glued[y:y + tile_h, x:x + tile_w]
        part[:] = sheet[m:m + part.shape[0], m:m + part.shape[1]]
        margin = sheet[:m // 2].reshape(-1, 3)  # printed outside the tile: marks and a note
        assert (margin < 128).any() and (margin > 200).mean() > 0.9
    assert np.abs(glued.astype(int) - whole.astype(int)).mean() < 2
    assert sorted(detect_markers(cv2.cvtColor(glued, cv2.COLOR_BGR2GRAY))) == [0, 1, 2, 3]


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
