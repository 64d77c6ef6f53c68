"""Faces of decks the reader was never built from, for scenes of unseen decks (bench and
tests): npm packages fetched with `npm pack`, drawn with rsvg-convert into a folder of
`<card>.png` faces per deck, which `vision.faces.load_face_folder` reads.

    .venv/bin/python bench/unseen_decks.py [--into DIR]

Decks: cardsJS (npm cardsJS, one SVG per card) and letele (npm @letele/playing-cards, React
components turned into SVG by bench/letele_svg.mjs). Not the reserved packages named in
notes (kept for an independent check).
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

from table.rules import ALL_CARDS, Card
from vision.faces import default_cache_dir

HERE = Path(__file__).resolve().parent
DECKS = {"cardsjs": "cardsJS@1.1.1", "letele": "@letele/playing-cards@0.1.0"}


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


def _svg_name(deck: str, card: Card) -> str:
    rank = str(card)[:-1]
    suit = str(card)[-1]
    if deck == "letele":
        return f"{suit}{rank.lower() if rank != '10' else '10'}.svg"
    return f"{rank}{suit}.svg"


def make_deck(deck: str, into: Path) -> Path:
    """Render one deck's 24 pinochle faces as PNG into `into/<deck>`; returns that folder."""
    out = into / deck
    if all((out / f"{c}.png").exists() for c in ALL_CARDS):
        return out
    package = _npm_pack(DECKS[deck], into)
    with tempfile.TemporaryDirectory() as tmp:
        if deck == "letele":
            subprocess.run(["node", str(HERE / "letele_svg.mjs"), str(package), tmp],
                           check=True, timeout=300)
            svgs = Path(tmp)
        else:
            svgs = package / "cards"
        out.mkdir(parents=True, exist_ok=True)
        for card in ALL_CARDS:
            subprocess.run(["rsvg-convert", "-w", "504", "-o", str(out / f"{card}.png"),
                            str(svgs / _svg_name(deck, card))], check=True, timeout=120)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--into", type=Path, default=unseen_dir())
    args = parser.parse_args()
    if not shutil.which("npm") or not shutil.which("rsvg-convert"):
        print("needs npm and rsvg-convert")
        return 1
    for deck in DECKS:
        print(make_deck(deck, args.into))
    return 0


if __name__ == "__main__":
    sys.exit(main())
