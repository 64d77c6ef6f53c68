"""Regenerate tests/vision/data/unseen/: straightened cards, with camera damage, of designs the
corner reader never trained on: the evaluation designs (split "evaluation" in
vision/training/github_decks.py) whose licence lets them be copied here, and letele, a
calibration design (its abstain threshold was set on it), for a second design:
`.venv/bin/python tests/vision/make_unseen_crops.py` (needs rsvg-convert, the GitHub decks'
snapshots and the npm decks gathered by `python -m vision.training --gather`).

Every pinochle face of each design is named after its card; `other_N.jpg` are faces that
are no pinochle card (2-8, backs, jokers).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.training import camera
from vision.training.designs import designs

OUT = Path(__file__).resolve().parent / "data" / "unseen"
CALIBRATION_TOO = ("letele",)
JPEG = [cv2.IMWRITE_JPEG_QUALITY, 80]


def main() -> int:
    if OUT.exists():
        shutil.rmtree(OUT)
    rng = np.random.default_rng(11)
    for design in designs(0):
        if design.name not in CALIBRATION_TOO and design.split != "evaluation":
            continue
        if "no licence" in design.source:
            continue   # photos with no licence are read from their snapshot, never copied here
        folder = OUT / design.name
        folder.mkdir(parents=True)
        faces = design.load()
        cards = [f for f in faces if f.card is not None]
        others = [f for f in faces if f.card is None]
        for face in cards:
            cv2.imwrite(str(folder / f"{face.card}.jpg"), camera.shoot(face.image, rng), JPEG)
        for i in rng.choice(len(others), min(4, len(others)), replace=False):
            cv2.imwrite(str(folder / f"other_{i}.jpg"), camera.shoot(others[i].image, rng), JPEG)
    size = sum(p.stat().st_size for p in OUT.rglob("*") if p.is_file())
    print(f"wrote {OUT} ({size / 1e3:.0f} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
