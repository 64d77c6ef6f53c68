"""The mat's size and the camera's height are stated once in the docs, as the code has them
(vision/mat.py's MAT_MM, vision/mount.py's heights); the wiring picture's test checks the
picture and docs/hardware.md's table of heights."""

from __future__ import annotations

import re
from pathlib import Path

from vision.mat import MAT_MM
from vision.mount import MARGIN, mount_table

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# "1000 x 600 mm" or "1000 × 600 mm": a mat-sized rectangle (smaller ones are zones and cards)
MAT_SIZE = re.compile(r"\b(\d{3,4}) ?[x×] ?(\d{3,4}) ?mm\b")
CENTIMETRES = re.compile(r"\b(\d{2,3}) ?cm\b")


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_the_mat_sizes_are_stated_once_as_the_code_has_them() -> None:
    stated = [(path.name, (float(w), float(h))) for path in DOCS
              for w, h in MAT_SIZE.findall(_text(path)) if float(w) >= 500]
    assert sorted(size for _, size in stated) == sorted(MAT_MM.values()), stated
    assert {name for name, _ in stated} == {"camera.md"}, stated
    camera = _text(ROOT / "docs" / "camera.md")
    for seats, (width, depth) in MAT_MM.items():
        assert f"{seats}-seat" in camera.split(f"{width:.0f} x {depth:.0f} mm")[0][-40:]


def test_the_camera_heights_are_stated_once_in_the_hardware_doc() -> None:
    heights = {cm for per_lens in mount_table().values() for cm in per_lens.values()}
    for path in DOCS:
        found = {int(cm) for cm in CENTIMETRES.findall(_text(path))}
        if path.name == "hardware.md":
            assert heights <= found
        else:
            assert not found & heights, f"{path.name} states a camera height: {found & heights}"
    hardware = _text(ROOT / "docs" / "hardware.md")
    assert f"{MARGIN * 50:.0f} % of the mat's size in view beyond each edge" in hardware
    assert f"{1 + MARGIN:.1f} × mat width" in hardware
