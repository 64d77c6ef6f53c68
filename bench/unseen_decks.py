"""Faces of decks the reader was never built from, for scenes of unseen decks (bench and
tests), as a folder of `<card>.png` faces per deck, which `vision.faces.load_face_folder` reads.

    .venv/bin/python bench/unseen_decks.py [--into DIR]

Decks: letele (npm @letele/playing-cards, a calibration deck: React components turned into SVG
by bench/letele_svg.mjs, drawn with rsvg-convert), and decks of vision/training/github_decks.py
read from their repository's snapshot (`GITHUB`): tekeye, Tek Eye's SVG cards (an evaluation
deck), and vosloo, photographs of a real Piatnik deck (a calibration deck, for busy scenes).
Never the reserved packages named in notes (kept for an independent check), nor their artwork
under another name: npm cardsJS, once an evaluation deck here, is the artwork of the reserved
@younestouati/playing-cards-standard-deck.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2
import numpy as np

from table.rules import ALL_CARDS, Card
from vision.faces import FACE_HEIGHT, FACE_WIDTH, DeckUnusable, default_cache_dir
from vision.training import github_decks

HERE = Path(__file__).resolve().parent
NPM = {"letele": "@letele/playing-cards@0.1.0"}
GITHUB = {"tekeye": "gh-tekeye", "vosloo": "gh-vosloo-photos"}   # -> github_decks.DECKS
PHOTOGRAPHED = frozenset({"vosloo"})   # faces cut square from photos of a four-index deck
DECKS = sorted(NPM | GITHUB)
CORNER_RADIUS = 14   # px at the face size (3.5 mm): the photos are cut square, corners dark
# The box, in shares of width and length, holding the index a four-index deck prints in its top
# right corner (and turned round, bottom left); each glyph wholly in it is painted out.
FOURTH_INDEX = ((0.74, 0.0), (1.0, 0.33))


def unseen_dir() -> Path:
    return default_cache_dir().parent / "unseen"


def _npm_pack(spec: str, into: Path) -> Path:
    """The unpacked `package/` folder of an npm package (fetched once)."""
    folder = into / "npm" / spec.replace("/", "+").replace("@", "")
    if not (folder / "package").is_dir():
        folder.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(["npm", "pack", spec, "--pack-destination", str(folder)],
                              capture_output=True, text=True, timeout=300, check=True)
        with tarfile.open(folder / done.stdout.strip().splitlines()[-1]) as tar:
            tar.extractall(folder)
    return folder / "package"


def _letele_svg(card: Card) -> str:
    rank = str(card)[:-1]
    return f"{str(card)[-1]}{rank.lower() if rank != '10' else '10'}.svg"


def make_deck(deck: str, into: Path, root: Path | None = None) -> Path:
    """One deck's 24 pinochle faces as PNG in `into/<deck>` (returns that folder); a deck of
    `GITHUB` from the snapshot of its repository under `root` (`github_decks.SnapshotMissing`
    says how to bring it)."""
    if deck in GITHUB:
        return make_github_deck(deck, into, root)
    out = into / deck
    if all((out / f"{c}.png").exists() for c in ALL_CARDS):
        return out
    package = _npm_pack(NPM[deck], into)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["node", str(HERE / "letele_svg.mjs"), str(package), tmp],
                       check=True, timeout=300)
        out.mkdir(parents=True, exist_ok=True)
        for card in ALL_CARDS:
            subprocess.run(["rsvg-convert", "-w", "504", "-o", str(out / f"{card}.png"),
                            str(Path(tmp) / _letele_svg(card))], check=True, timeout=120)
    return out


def rounded(face: np.ndarray) -> np.ndarray:
    """A card photo cut square (BGR), made transparent outside its rounded corners (BGRA)."""
    h, w = face.shape[:2]
    alpha = np.zeros((h, w), np.uint8)
    r = CORNER_RADIUS
    cv2.rectangle(alpha, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (w - 1, h - 1 - r), 255, -1)
    for x, y in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(alpha, (x, y), r, 255, -1)
    return np.dstack([face[:, :, :3], alpha])


def two_indices(face: np.ndarray) -> np.ndarray:
    """A four-index face (BGR or BGRA) with the indices of its top right and bottom left corners
    painted out with the paper round them, as a two-index deck prints it: the ink marks lying
    wholly in FOURTH_INDEX (a court's frame running on out of it stays)."""
    out = face.copy()
    h, w = face.shape[:2]
    (x0, y0), (x1, y1) = FOURTH_INDEX
    left, top, right, bottom = int(x0 * w), int(y0 * h), int(x1 * w), int(y1 * h)
    for turned in (False, True):
        work = cv2.rotate(out, cv2.ROTATE_180) if turned else out
        box = np.ascontiguousarray(work[top:bottom, left:right, :3])
        hsv = cv2.cvtColor(box, cv2.COLOR_BGR2HSV)
        paper = float(np.percentile(hsv[:, :, 2], 80))
        ink = ((hsv[:, :, 2] < 0.75 * paper) | (hsv[:, :, 1] > 90)).astype(np.uint8)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
        gone = np.zeros_like(ink)
        for i in range(1, count):
            x, y, bw, bh, _ = (int(v) for v in stats[i])
            if x > 0 and y + bh < box.shape[0] and x + bw < box.shape[1] - 1:
                gone[labels == i] = 255
        gone = cv2.dilate(gone, np.ones((5, 5), np.uint8))
        work[top:bottom, left:right, :3] = cv2.inpaint(box, gone, 3, cv2.INPAINT_TELEA)
        out = cv2.rotate(work, cv2.ROTATE_180) if turned else work
    return out


def make_github_deck(name: str, into: Path, root: Path | None = None) -> Path:
    """The 24 pinochle faces of a deck of `GITHUB` as PNG in `into/<name>` (returns it). A
    photographed deck's faces are cut square from the photos: they get round corners and,
    printed with four indices, two painted out (the photos' Bicycle prints two)."""
    out = into / name
    if all((out / f"{c}.png").exists() for c in ALL_CARDS):
        return out
    entry = next(d for d in github_decks.DECKS if d.name == GITHUB[name])
    photographed = name in PHOTOGRAPHED

    def fit(image: np.ndarray) -> np.ndarray:
        if not photographed:
            return image
        return cv2.resize(image, (FACE_WIDTH, FACE_HEIGHT), interpolation=cv2.INTER_AREA)

    faces = github_decks.load_faces(entry, fit, into / "github" / name, root)
    out.mkdir(parents=True, exist_ok=True)
    for face in faces:
        if face.card is not None:   # not a 2-8 or a joker
            image = rounded(two_indices(face.image)) if photographed else face.image
            cv2.imwrite(str(out / f"{face.card}.png"), image)
    missing = [str(c) for c in ALL_CARDS if not (out / f"{c}.png").exists()]
    if missing:
        raise DeckUnusable(f"{name} lacks {', '.join(missing)}")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--into", type=Path, default=unseen_dir())
    args = parser.parse_args()
    if not shutil.which("npm") or not shutil.which("rsvg-convert"):
        print("needs npm and rsvg-convert")
        return 1
    for deck in DECKS:
        try:
            print(make_deck(deck, args.into))
        except DeckUnusable as exc:   # a snapshot not brought: say how, make the others
            print(f"{deck}: {exc}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
