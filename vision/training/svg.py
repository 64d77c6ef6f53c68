"""An SVG rendered to PNG by rsvg-convert, for the designs' face caches."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def render(svg: Path, out: Path, *options: str) -> bool:
    """Render `svg` to the PNG `out` with rsvg-convert's `options`; whether it rendered. The
    PNG is written aside and moved into place, so that a trainer beside this one never reads
    it half written (and caches a design missing that face)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    part = out.with_name(f"{out.stem}.{os.getpid()}.part.png")
    proc = subprocess.run(["rsvg-convert", *options, "-o", str(part), str(svg)],
                          capture_output=True, timeout=120)
    if proc.returncode != 0 or not part.exists():
        part.unlink(missing_ok=True)
        return False
    part.replace(out)
    return True
