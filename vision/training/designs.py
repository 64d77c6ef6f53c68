"""Card designs to learn corner indices from, each as labelled faces (BGRA, 4 px/mm, the size of
vision.faces), and the split of designs into train / calibration / evaluation.

A design is one deck's look: the faces of a kdegames deck, of an npm deck, or a deck drawn from
one font (synth.py). Faces of the 24 pinochle cards are positives; the other faces of a deck
(2-8, jokers, backs) are negatives that must read as "not a pinochle card". The split is by
design, never by image, so that calibration and evaluation measure decks the model has not seen.
"""

from __future__ import annotations

import argparse
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from table.rules import Rank, Suit
from vision.corners import NO_SUIT, OTHER_RANK
from vision.faces import (
    CARDDECKS,
    FACE_HEIGHT,
    FACE_WIDTH,
    SHARED_WITH_RESERVED,
    DeckUnusable,
    cut_out_card,
    load_deck,
)

from . import github_decks, synth
from .face import Face
from .svg import render as svg_render

SUITS = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
_KDE_SUIT = {Suit.SPADES: "spade", Suit.HEARTS: "heart", Suit.CLUBS: "club",
             Suit.DIAMONDS: "diamond"}

# kdegames decks with ordinary corner indices (A K Q J 10 9 and the four French suits). The
# others have no rank in the corner (oxygen), German suits (xskat-german) or do not render.
KDE_DECKS = ("svg-ancient-egyptians", "svg-dondorf", "svg-gm-paris", "svg-jolly-royal",
             "svg-nicu-ornamental", "svg-nicu-white", "svg-penguins", "svg-standard",
             "svg-tigullio-international")
# Designs never trained on: calibration sets the abstain threshold. The evaluation designs, the
# bench's, are all decks from GitHub, which carry their own split (github_decks.DECKS).
CALIBRATION = ("svg-penguins", "svg-nicu-white", "letele")
SYNTH_DESIGNS = 240            # font-drawn designs (a sixth of the fonts calibrate)


@dataclass(frozen=True)
class Design:
    name: str
    source: str                       # package / repository and version, for the manifest
    split: str                        # "train", "calibration" or "evaluation"
    load: Callable[[], list[Face]]

    @property
    def printed(self) -> bool:
        """A deck printed or drawn by someone (not one of the font-drawn "synth-" designs)."""
        return not self.name.startswith("synth-")


def cache_dir() -> Path:
    return Path.home() / ".cache" / "pinochle-train"


def _split(name: str) -> str:
    return "calibration" if name in CALIBRATION else "train"


def _debian_version(package: str) -> str:
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package],
                             capture_output=True, text=True, timeout=30)
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def _fit(card_img: np.ndarray) -> np.ndarray:
    if card_img.shape[2] == 3:
        card_img = cv2.cvtColor(card_img, cv2.COLOR_BGR2BGRA)
    return cv2.resize(card_img, (FACE_WIDTH, FACE_HEIGHT), interpolation=cv2.INTER_AREA)


def _render_svg(svg: Path, out: Path, element: str | None = None) -> np.ndarray | None:
    """A face rendered from an SVG (one element of it, or the whole file) and cut out, cached
    as PNG; None when it does not render as a card."""
    if not out.exists():
        options = ("-h", "1056") if element is None else ("-i", element, "-z", "3")
        if not svg_render(svg, out, *options):
            out.write_bytes(b"")   # remembered as not a card
    image = cv2.imread(str(out), cv2.IMREAD_UNCHANGED) if out.stat().st_size else None
    if image is None or image.ndim != 3 or image.shape[2] != 4:
        return None
    try:
        return _fit(cut_out_card(image))
    except DeckUnusable:
        return None


def _kde_faces(deck: str) -> list[Face]:
    faces = [Face(img, int(card.rank), card.suit.index)
             for card, img in load_deck(deck, checked=False).items()]
    svg = sorted((CARDDECKS / deck).glob("*.svg*"))[0]
    others = [(f"{n}_{_KDE_SUIT[s]}", OTHER_RANK, s.index) for n in range(2, 9) for s in SUITS]
    others += [(e, OTHER_RANK, NO_SUIT) for e in ("back", "black_joker", "red_joker", "joker")]
    for element, rank, suit in others:
        img = _render_svg(svg, cache_dir() / "kdegames" / deck / f"{element}.png", element)
        if img is not None:
            faces.append(Face(img, rank, suit))
    return faces


def _svg_faces(labelled: list[tuple[Path, int, int]], cache: Path) -> list[Face]:
    """Faces from one SVG file each, (file, rank, suit), rendered into `cache`."""
    faces = []
    for svg, rank, suit in labelled:
        img = _render_svg(svg, cache / f"{svg.stem}.png")
        if img is not None:
            faces.append(Face(img, rank, suit))
    return faces


def _letele_faces(folder: Path) -> list[Face]:
    """@letele/playing-cards, its React components written out as SVG files (S10, Hq, B1...)."""
    ranks = {"a": Rank.ACE, "k": Rank.KING, "q": Rank.QUEEN, "j": Rank.JACK, "10": Rank.TEN,
             "9": Rank.NINE}
    labelled = []
    for svg in sorted(folder.glob("*.svg")):
        head, tail = svg.stem[0], svg.stem[1:].lower()
        suit = SUITS.index(Suit.parse(head)) if head in "SHCD" else NO_SUIT
        rank = int(ranks[tail]) if tail in ranks and suit != NO_SUIT else OTHER_RANK
        labelled.append((svg, rank, suit))
    return _svg_faces(labelled, cache_dir() / "letele-png")


def _fit_or_none(image: np.ndarray) -> np.ndarray | None:
    try:
        return _fit(cut_out_card(image))
    except DeckUnusable:
        return None


def _github_cache(deck: github_decks.GithubDeck) -> Path:
    return cache_dir() / "github" / deck.name


def _github_faces(deck: github_decks.GithubDeck) -> list[Face]:
    return github_decks.load_faces(deck, _fit_or_none, _github_cache(deck))


def _npm_dir(package: str) -> Path | None:
    """Where `npm pack PACKAGE` was unpacked (see gather in __main__), or None."""
    found = sorted((cache_dir() / "npm").glob(f"{package}-*/package"))
    return found[-1] if found else None


def designs(synth_count: int = SYNTH_DESIGNS) -> list[Design]:
    """Every design this machine can provide (decks not installed are left out)."""
    out: list[Design] = []
    kde_version = _debian_version("kdegames-card-data-kf5")
    for deck in KDE_DECKS:
        if deck not in SHARED_WITH_RESERVED and (CARDDECKS / deck).is_dir():
            out.append(Design(deck, f"debian:kdegames-card-data-kf5={kde_version}",
                              _split(deck), lambda d=deck: _kde_faces(d)))   # type: ignore[misc]
    letele = _npm_dir("letele-playing-cards")
    if letele is not None and (cache_dir() / "letele").is_dir():
        out.append(Design("letele", f"npm:{letele.parent.name}", _split("letele"),
                          lambda: _letele_faces(cache_dir() / "letele")))
    for gh in github_decks.DECKS:
        if github_decks.available(gh, _github_cache(gh)):
            out.append(Design(gh.name, gh.source, gh.split,
                              lambda d=gh: _github_faces(d)))   # type: ignore[misc]
    for design in out:   # reserved for the independent check, whatever route brought them
        why = github_decks.refused(design.name, design.source)
        if why:
            raise ValueError(f"design list: {why}")
    fonts = synth.font_files()
    suits = synth.suit_fonts()
    drawn_with = f"fonts:{len(fonts)} files ({synth.fonts_id(fonts)}), suit fonts:{len(suits)} " \
        f"files ({synth.fonts_id(suits)})"
    for i in range(synth_count):
        # A font draws the ranks of calibration designs or of training ones, never both.
        split = "calibration" if synth.rank_font_number(i, fonts) % 6 == 5 else "train"
        out.append(Design(f"synth-{i:03d}", drawn_with, split,
                          lambda i=i: synth.deck(i, fonts)))   # type: ignore[misc]
    return out


def add_fonts_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--any-fonts", action="store_true",
                        help="draw designs with whatever fonts are installed, not only the "
                             "pinned ones (synth.FONT_PACKAGES)")


def check_fonts(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Stop a trainer, saying what to install, if it would draw designs with other fonts than
    the pinned ones (unless --any-fonts)."""
    if args.synth and not args.any_fonts and \
            (why := synth.unpinned_fonts(synth.font_files(), synth.suit_fonts())):
        parser.error(why)


def for_training(synth_count: int, only: list[str] | None = None
                 ) -> tuple[list[Design], list[Design], list[Design]]:
    """Every design (only those named in `only`, if given), then those that train and those
    that calibrate; a ValueError if there is none of either."""
    everything = [d for d in designs(synth_count) if not only or d.name in only]
    train = [d for d in everything if d.split == "train"]
    calibration = [d for d in everything if d.split == "calibration"]
    if not train or not calibration:
        raise ValueError("need at least one training and one calibration design")
    return everything, train, calibration


def pinochle_faces(faces: list[Face]) -> list[Face]:
    return [f for f in faces if f.card is not None]

