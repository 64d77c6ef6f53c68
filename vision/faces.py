"""Card faces from Debian's kdegames-card-data-kf5 decks, rendered with rsvg-convert and cached.

`rsvg-convert -i ID` crops to the element's bounding box, which for several decks includes
stray off-card shapes, and some decks have no page size at all. So every face is rendered by
zoom, cut out as the largest opaque card-shaped region, and checked (shape, a light face, corner
ink of the suit's colour). A deck in which any face fails is not used.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np

from table.rules import ALL_CARDS, Card, Rank, Suit

CARDDECKS = Path("/usr/share/carddecks")
FACE_WIDTH = 252   # canonical face size in pixels: a 63 x 88 mm card at 4 px/mm
FACE_HEIGHT = 352
# kdegames decks whose artwork Debian's gnome-cards-data (aisleriot) also ships, as dondorf,
# paris, ornamental and tigullio. That package is kept for an independent check of the reader,
# so the project never reads, stores, trains, calibrates or evaluates anything on these.
SHARED_WITH_RESERVED = ("svg-dondorf", "svg-gm-paris", "svg-nicu-ornamental",
                        "svg-tigullio-international")
_RANK_ID = {Rank.ACE: "1", Rank.KING: "king", Rank.QUEEN: "queen", Rank.JACK: "jack",
            Rank.TEN: "10", Rank.NINE: "9"}
_SUIT_ID = {Suit.SPADES: "spade", Suit.HEARTS: "heart", Suit.CLUBS: "club",
            Suit.DIAMONDS: "diamond"}


class DeckUnusable(Exception):
    """A deck whose faces cannot be rendered cleanly or have no ordinary corner index."""


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pinochle-table" / "faces"


def deck_names() -> list[str]:
    """Names of the installed kdegames SVG decks ("svg-standard", ...), less those shared with
    the reserved gnome-cards-data (SHARED_WITH_RESERVED)."""
    if not CARDDECKS.is_dir():
        return []
    return sorted(p.name for p in CARDDECKS.iterdir()
                  if p.is_dir() and p.name not in SHARED_WITH_RESERVED and _svg_file(p.name))


def _svg_file(deck: str) -> Path | None:
    found = sorted((CARDDECKS / deck).glob("*.svg*"))
    return found[0] if found else None


def element_id(card: Card) -> str:
    """The SVG element id of a face in the kdegames decks: "1_spade", "queen_heart" ..."""
    return f"{_RANK_ID[card.rank]}_{_SUIT_ID[card.suit]}"


def _rsvg(svg: Path, elem: str, zoom: float) -> np.ndarray:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "face.png"
        proc = subprocess.run(
            ["rsvg-convert", "-i", elem, "-z", f"{zoom:.4f}", "-o", str(out), str(svg)],
            capture_output=True, text=True, timeout=120)
        if proc.returncode != 0 or not out.exists():
            raise DeckUnusable(f"rsvg-convert failed on {elem}: {proc.stderr.strip()[:120]}")
        image = cv2.imread(str(out), cv2.IMREAD_UNCHANGED)
    if image is None or image.ndim != 3 or image.shape[2] != 4:
        raise DeckUnusable(f"{elem} did not render as an RGBA image")
    return image


def cut_out_card(rgba: np.ndarray) -> np.ndarray:
    """The largest opaque region shaped like a card, as BGRA cropped to it."""
    opaque = (rgba[:, :, 3] > 128).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(opaque, connectivity=8)
    best = None
    for i in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[i])
        if h == 0 or not 0.55 <= w / h <= 0.85 or area < 0.85 * w * h:
            continue
        if best is None or area > best[4]:
            best = (x, y, w, h, area)
    if best is None:
        raise DeckUnusable("no card-shaped region in the rendered element")
    x, y, w, h, _ = best
    return rgba[y:y + h, x:x + w].copy()


def render_face(svg: Path, card: Card, zoom: float) -> np.ndarray:
    """One face at the canonical size, BGRA (transparent outside the rounded corners)."""
    card_img = cut_out_card(_rsvg(svg, element_id(card), zoom))
    return cv2.resize(card_img, (FACE_WIDTH, FACE_HEIGHT), interpolation=cv2.INTER_AREA)


def face_problem(face: np.ndarray, card: Card) -> str | None:
    """Why this rendered face is unfit for reading, or None when it looks like a normal card."""
    bgr = face[:, :, :3].astype(np.int16)
    alpha = face[:, :, 3]
    if float((alpha > 128).mean()) < 0.93:
        return "mostly transparent: mis-cropped"
    gray = bgr.mean(axis=2)
    if float(np.median(gray[alpha > 128])) < 150:
        return "not a light face"
    h, w = gray.shape
    corner = bgr[int(0.02 * h):int(0.30 * h), int(0.02 * w):int(0.20 * w)]
    b, g, r = corner[:, :, 0], corner[:, :, 1], corner[:, :, 2]
    red = (r - np.maximum(g, b) > 60) & (r > 120)
    dark = corner.max(axis=2) < 90
    ink = float((red | dark).mean())
    if not 0.03 <= ink <= 0.6:
        return f"no corner index (ink {ink:.0%})"
    red_share = float(red.mean()) / ink
    if card.suit.is_red and red_share < 0.6:
        return "corner index is not red"
    if not card.suit.is_red and red_share > 0.1:
        return "corner index is not black"
    return None


def _deck_zoom(svg: Path) -> float:
    """The rsvg zoom that makes this deck's cards about FACE_HEIGHT * 1.5 pixels tall."""
    probe = cut_out_card(_rsvg(svg, element_id(Card.parse("KS")), 1.0))
    return 1.5 * FACE_HEIGHT / probe.shape[0]


def load_deck(deck: str, cache_dir: Path | None = None,
              checked: bool = True) -> dict[Card, np.ndarray]:
    """All 24 faces of a kdegames deck (BGRA, canonical size), rendering missing ones into the
    cache. Raises `DeckUnusable` naming the first face that fails its check (`checked=False`
    skips the check, for decks that are only ever enrolled)."""
    if deck in SHARED_WITH_RESERVED:
        raise DeckUnusable(f"{deck} is kept out: its artwork is also in gnome-cards-data, which "
                           "is reserved for an independent check of the reader")
    cache = (cache_dir or default_cache_dir()) / (deck if checked else f"{deck}-unchecked")
    faces: dict[Card, np.ndarray] = {}
    missing = [c for c in ALL_CARDS if not (cache / f"{c}.png").exists()]  # rendered once
    if (cache / "UNUSABLE").exists():
        raise DeckUnusable((cache / "UNUSABLE").read_text())
    svg = _svg_file(deck) if missing else None
    if missing and svg is None:
        raise DeckUnusable(f"{deck} is not installed under {CARDDECKS}")
    try:
        zoom = _deck_zoom(svg) if svg is not None else 1.0
        for card in ALL_CARDS:
            path = cache / f"{card}.png"
            stored = cv2.imread(str(path), cv2.IMREAD_UNCHANGED) if path.exists() else None
            if stored is not None and stored.shape == (FACE_HEIGHT, FACE_WIDTH, 4):
                face = np.asarray(stored)
            else:
                assert svg is not None
                face = render_face(svg, card, zoom)
            problem = face_problem(face, card) if checked else None
            if problem:
                raise DeckUnusable(f"{deck} {card}: {problem}")
            faces[card] = face
    except DeckUnusable as exc:
        cache.mkdir(parents=True, exist_ok=True)
        (cache / "UNUSABLE").write_text(str(exc))
        raise
    cache.mkdir(parents=True, exist_ok=True)
    for card in missing:
        cv2.imwrite(str(cache / f"{card}.png"), faces[card], [cv2.IMWRITE_PNG_COMPRESSION, 6])
    return faces


def usable_decks(names: Iterable[str] | None = None,
                 cache_dir: Path | None = None) -> dict[str, str | None]:
    """Each deck name mapped to None when usable, else the reason it is not."""
    out: dict[str, str | None] = {}
    for name in names if names is not None else deck_names():
        try:
            load_deck(name, cache_dir)
            out[name] = None
        except DeckUnusable as exc:
            out[name] = str(exc)
    return out


def flatten(face: np.ndarray, background: tuple[int, int, int] = (255, 255, 255)) -> np.ndarray:
    """A BGRA face composited over a plain background, as BGR."""
    alpha = face[:, :, 3:4].astype(np.float32) / 255.0
    bg = np.empty_like(face[:, :, :3])
    bg[:] = background
    return (face[:, :, :3] * alpha + bg * (1.0 - alpha)).astype(np.uint8)


def load_face_folder(folder: Path) -> dict[Card, np.ndarray]:
    """The 24 faces of a deck from a folder of `<card>.png` images ("AS.png", "10H.png" ...),
    each cut out (where it is transparent round the card) and sized like a rendered face, BGRA.
    Raises `DeckUnusable` naming a missing or unreadable face."""
    faces: dict[Card, np.ndarray] = {}
    for card in ALL_CARDS:
        path = Path(folder) / f"{card}.png"
        image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
        if image is None or image.ndim != 3:
            raise DeckUnusable(f"{path} is missing or not a colour image")
        if image.shape[2] == 3:
            image = np.dstack([image, np.full(image.shape[:2], 255, np.uint8)])
        faces[card] = cv2.resize(cut_out_card(image), (FACE_WIDTH, FACE_HEIGHT),
                                 interpolation=cv2.INTER_AREA)
    return faces
