"""Card designs from public GitHub repositories, read from local snapshots (bare git mirrors).

Each deck names a repository, the commit its faces were checked at, the files of its faces (a
regular expression over paths, with the rank and suit as named groups) and the files of its
other faces (jokers, backs). Faces are read with `git show COMMIT:PATH` from the snapshot, so
nothing third-party is committed to this project. A snapshot is a bare git directory at
`$PINOCHLE_DECK_MIRRORS/<owner>+<name>/repo` (default /work/.mirror, where the `fetch` tool puts
them); `git clone --bare https://github.com/OWNER/NAME <that path>` makes one anywhere else.

A deck whose snapshot is absent is left out of the design list (like an uninstalled Debian
deck); `check_snapshots` names the missing ones with the command that brings each.
"""

from __future__ import annotations

import fcntl
import os
import re
import subprocess
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from table.rules import Rank, Suit
from vision.corners import NO_SUIT, OTHER_RANK
from vision.detect import card_outlines, straighten
from vision.faces import FACE_HEIGHT, FACE_WIDTH, DeckUnusable
from vision.quads import order_corners

from .face import Face
from .svg import render

SUITS = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
_RANKS = {"a": Rank.ACE, "ace": Rank.ACE, "1": Rank.ACE, "01": Rank.ACE,
          "k": Rank.KING, "king": Rank.KING, "13": Rank.KING,
          "q": Rank.QUEEN, "queen": Rank.QUEEN, "12": Rank.QUEEN,
          "j": Rank.JACK, "jack": Rank.JACK, "11": Rank.JACK,
          "10": Rank.TEN, "t": Rank.TEN, "ten": Rank.TEN,
          "9": Rank.NINE, "09": Rank.NINE, "nine": Rank.NINE,
          "es": Rank.ACE, "konge": Rank.KING, "dame": Rank.QUEEN, "knaegt": Rank.JACK}  # Danish
_DANISH_SUITS = {"spar": "spades", "hjerter": "hearts", "kloer": "clubs", "ruder": "diamonds"}
_OTHER_RANKS = {str(n) for n in range(2, 9)} | {f"0{n}" for n in range(2, 9)} | {
    "two", "three", "four", "five", "six", "seven", "eight"}

# Reserved for an independent check of the reader (see notes/COMMON.md): never a design here.
RESERVED_REPOS = frozenset({
    "edjeelectronics/tensorflow-object-detection-api-tutorial-train-multiple-objects-windows-10",
    "rickcrawford/cards_dataset", "geaxgx/playing-card-detection",
    "younestouati/playing-cards-standard-deck", "heruka_urgyen/react-playing-cards",
    "gnome/aisleriot", "gnome/gnome-games"})
# Artwork the reserved packages share, under any name: @younestouati's deck is Chris Aguilar's
# Vectorized Playing Cards (so is npm cardsJS); @heruka_urgyen's is Adrian Kennard's me.uk cards.
RESERVED_WORDS = ("gnome-cards", "aisleriot/cards", "bonded", "anglo", "younestouati",
                  "heruka", "bicycle", "aguilar", "vectorized", "cardsjs", "kennard", "me.uk",
                  "me-uk")


class SnapshotMissing(DeckUnusable):
    """The repository snapshot a deck is read from is not on this machine."""


@dataclass(frozen=True)
class GithubDeck:
    name: str
    repo: str           # "owner/name"
    commit: str         # the commit its faces were checked at
    faces: str          # regex over paths; named groups "rank" and "suit"
    others: str         # regex over paths of jokers and backs ("" for none)
    licence: str
    lineage: str        # where the artwork comes from (decks copying one artwork count once)
    split: str          # "train", "calibration" or "evaluation"
    white_page: bool = False   # faces drawn on a transparent card-sized page: put white under
    photo: bool = False        # photographs of a card on a table: find it and straighten it

    @property
    def source(self) -> str:
        return f"github:{self.repo}@{self.commit[:12]} ({self.licence}; {self.lineage})"


def mirror_root() -> Path:
    return Path(os.environ.get("PINOCHLE_DECK_MIRRORS", "/work/.mirror"))


def snapshot(repo: str, root: Path | None = None) -> Path:
    """The bare git directory of `repo`, or SnapshotMissing saying how to bring it."""
    path = (root or mirror_root()) / repo.replace("/", "+") / "repo"
    if (path / ".git" / "HEAD").exists():   # a snapshot with a work tree
        return path / ".git"
    if not (path / "HEAD").exists():
        raise SnapshotMissing(
            f"no snapshot of {repo} at {path}: bring it with the fetch tool "
            f"(fetch github:{repo}) or `git clone --bare https://github.com/{repo} {path}`")
    return path


def available(deck: GithubDeck, cache: Path, root: Path | None = None) -> bool:
    """Whether the deck's faces are in `cache` or its snapshot is here."""
    if (cache / "deck.txt").exists():
        return True
    try:
        snapshot(deck.repo, root)
    except SnapshotMissing:
        return False
    return True


def refused(name: str, source: str) -> str | None:
    """Why a deck may not be used (reserved for the independent check), or None. `source` is
    its repository, or anything saying where it and its artwork come from."""
    text = f"{name} {source}".lower()
    for repo in RESERVED_REPOS:
        if repo in text:
            return f"{name} ({source}): {repo} is reserved for the independent check"
    for word in RESERVED_WORDS:
        if word in text:
            return f"{name} ({source}) looks like reserved material ({word!r})"
    return None


def label(rank_token: str, suit_token: str) -> tuple[int, int] | None:
    """(rank, suit) of a face named by its file: a pinochle rank, or OTHER_RANK for 2-8;
    None when the tokens name no ordinary card."""
    suit_token = suit_token.lower()
    suit_token = _DANISH_SUITS.get(suit_token, suit_token)
    suit = next((s.index for s in SUITS if suit_token
                 and s.name.lower().startswith(suit_token.rstrip("s") or suit_token)), None)
    if suit is None:
        return None
    rank_token = rank_token.lower()
    if rank_token in _RANKS:
        return int(_RANKS[rank_token]), suit
    return (OTHER_RANK, suit) if rank_token in _OTHER_RANKS else None


def _git(git_dir: Path, *args: str) -> bytes:
    proc = subprocess.run(["git", f"--git-dir={git_dir}", *args], capture_output=True,
                          timeout=120)
    if proc.returncode != 0:
        raise DeckUnusable(f"git {' '.join(args)} in {git_dir}: "
                           f"{proc.stderr.decode(errors='replace').strip()[:200]}")
    return proc.stdout


def labelled_paths(deck: GithubDeck, paths: Iterable[str]) -> list[tuple[str, int, int]]:
    """(path, rank, suit) of every face of the deck among `paths`."""
    faces, others = re.compile(deck.faces), re.compile(deck.others) if deck.others else None
    out = []
    for path in paths:
        found = faces.fullmatch(path)
        named = label(found["rank"], found["suit"]) if found else None
        if named is not None:
            out.append((path, *named))
        elif others is not None and others.fullmatch(path):
            out.append((path, OTHER_RANK, NO_SUIT))
    return out


def _decode(data: bytes, path: str, cache: Path) -> np.ndarray | None:
    """A BGRA picture from a PNG/JPG blob, or from an SVG rendered with rsvg-convert."""
    if path.lower().endswith((".svg", ".svgz")):
        flat = path.replace("/", "_")
        svg, png = cache / "svg" / flat, cache / "svg" / f"{flat}.png"
        if not png.exists():
            svg.parent.mkdir(parents=True, exist_ok=True)
            svg.write_bytes(data)
            if not render(svg, png, "-h", "1056"):
                return None
        image = cv2.imread(str(png), cv2.IMREAD_UNCHANGED)
    else:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    if image is None or image.ndim != 3:
        return None
    if image.shape[2] == 3:
        image = cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)
    return image


def on_white(image: np.ndarray) -> np.ndarray:
    """A BGRA picture composited over white paper, fully opaque."""
    alpha = image[:, :, 3:4].astype(np.float32) / 255.0
    bgr = image[:, :, :3] * alpha + 255.0 * (1.0 - alpha)
    return np.dstack([bgr.astype(np.uint8), np.full(image.shape[:2], 255, np.uint8)])


_PHOTO_CUT = 2   # how photos are cut (straightened): a new way makes their faces anew


def straightened(photo: np.ndarray, longest: int = 1000) -> np.ndarray | None:
    """The largest card in a photograph, straightened upright (or upside down) to the canonical
    face size, opaque BGRA; None when no card outline is found. A photo of one card nearly
    fills its frame, as no card does on the table: it is first laid on a ground of the photo's
    own edge colour, twice its size, so the card covers a quarter of what the finder sees."""
    bgr = np.ascontiguousarray(photo[:, :, :3])
    shrink = longest / max(bgr.shape[:2])
    if shrink < 1:
        bgr = cv2.resize(bgr, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    h, w = bgr.shape[:2]
    edge = np.concatenate([bgr[:8].reshape(-1, 3), bgr[-8:].reshape(-1, 3),
                           bgr[:, :8].reshape(-1, 3), bgr[:, -8:].reshape(-1, 3)])
    ground = [float(v) for v in np.median(edge, axis=0)]
    bgr = cv2.copyMakeBorder(bgr, h // 2, h // 2, w // 2, w // 2, cv2.BORDER_CONSTANT,
                             value=ground)
    quads = card_outlines(bgr, edges=True)
    if not quads:
        return None
    quad = max(quads, key=lambda q: float(cv2.contourArea(q.reshape(-1, 1, 2).astype(np.float32))))
    card = straighten(bgr, order_corners(quad), (FACE_WIDTH, FACE_HEIGHT))
    return cv2.cvtColor(card, cv2.COLOR_BGR2BGRA)


def load_faces(deck: GithubDeck, fit: Callable[[np.ndarray], np.ndarray | None],
               cache: Path, root: Path | None = None) -> list[Face]:
    """Every labelled face of `deck`, fitted to the canonical face size by `fit` (None drops a
    face) and cached as PNG under `cache`. Raises SnapshotMissing, or DeckUnusable when the
    snapshot lacks the pinned commit or holds no pinochle face."""
    spec = repr((deck.repo, deck.commit, deck.faces, deck.others, deck.white_page, deck.photo))
    if deck.photo:
        spec += f" cut {_PHOTO_CUT}"
    cache.parent.mkdir(parents=True, exist_ok=True)
    with open(cache.parent / f"{cache.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)   # a trainer beside this one may be making it too
        return _made_faces(deck, fit, cache, spec, root)


def _made_faces(deck: GithubDeck, fit: Callable[[np.ndarray], np.ndarray | None],
                cache: Path, spec: str, root: Path | None) -> list[Face]:
    """`load_faces`, its cache made first if it is not that of `spec`."""
    done = cache / "deck.txt"   # written once every face is made, naming the entry made from
    if not (done.exists() and done.read_text() == spec):
        for old in cache.glob("face-*.png"):   # half made, or from another version of the entry
            old.unlink()
        git_dir = snapshot(deck.repo, root)
        try:
            _git(git_dir, "cat-file", "-e", f"{deck.commit}^{{commit}}")
        except DeckUnusable:
            raise DeckUnusable(f"{deck.name}: the snapshot of {deck.repo} at {git_dir} lacks "
                               f"commit {deck.commit}; bring a newer one") from None
        paths = _git(git_dir, "ls-tree", "-r", "--name-only", deck.commit).decode().split("\n")
        labelled = labelled_paths(deck, paths)
        if not any(rank != OTHER_RANK and suit != NO_SUIT for _, rank, suit in labelled):
            raise DeckUnusable(f"{deck.name}: no pinochle face in {deck.repo}@{deck.commit}")
        cache.mkdir(parents=True, exist_ok=True)
        for i, (path, rank, suit) in enumerate(labelled):
            image = _decode(_git(git_dir, "show", f"{deck.commit}:{path}"), path, cache)
            if image is not None and deck.white_page:
                image = on_white(image)
            if image is not None and deck.photo:
                image = straightened(image)
            face = fit(image) if image is not None else None
            if face is not None:
                cv2.imwrite(str(cache / f"face-{i:03d}-r{rank}-s{suit}.png"), face)
        done.write_text(spec)
    faces = []
    for png in sorted(cache.glob("face-*.png")):
        parts = png.stem.split("-")
        image = cv2.imread(str(png), cv2.IMREAD_UNCHANGED)
        if image is not None:
            faces.append(Face(image, int(parts[2][1:]), int(parts[3][1:])))
    return faces


def check_snapshots(decks: Sequence[GithubDeck], root: Path | None = None) -> list[str]:
    """What is missing for `decks`: one line per absent snapshot, with how to bring it."""
    problems = []
    for deck in decks:
        try:
            snapshot(deck.repo, root)
        except SnapshotMissing as exc:
            problems.append(f"{deck.name}: {exc}")
    return problems


def checked(decks: Iterable[GithubDeck]) -> tuple[GithubDeck, ...]:
    """The decks, or ValueError naming one that is reserved, badly split or named twice."""
    out: tuple[GithubDeck, ...] = ()
    for deck in decks:
        why = refused(deck.name, deck.source)
        if why:
            raise ValueError(why)
        if deck.split not in ("train", "calibration", "evaluation"):
            raise ValueError(f"{deck.name}: unknown split {deck.split!r}")
        if any(d.name == deck.name for d in out):
            raise ValueError(f"{deck.name} is listed twice")
        out += (deck,)
    return out


# Lineages.
_KNOLL = "Byron Knoll's vector-playing-cards"
_SPATZ = "Saul Spatz's SVGCards, jumbo index"


def _spatz(folder: str, split: str) -> GithubDeck:
    colours = ", four colours" if folder.endswith("4") else ""
    return GithubDeck(f"gh-spatz-{folder.lower().replace('/', '-')}", "saulspatz/SVGCards",
                      "f8df28774736ea2545fc8e7fb693eb55ce031945",
                      rf"Decks/{folder}/svgs/(?P<suit>club|diamond|heart|spade)(?P<rank>\w+)\.svg",
                      rf"Decks/{folder}/svgs/\w+(Back|Joker)\.svg", "public domain",
                      _SPATZ + colours, split)


_PYSOL_COMMIT = "6d382152d4c49169022785fcc629ff98b13e04b7"


def _pysol(cardset: str, licence: str, lineage: str, split: str) -> GithubDeck:
    """A PySolFC cardset: faces 01c (ace of clubs) to 13s (king of spades), backs back01..."""
    return GithubDeck(f"gh-pysol-{cardset}", "shlomif/PySolFC-Cardsets", _PYSOL_COMMIT,
                      rf"cardset-{cardset}/(?P<rank>\d\d)(?P<suit>[cdhs])\.(gif|png)",
                      rf"cardset-{cardset}/back\d+\.(gif|png)", licence, lineage, split)


DECKS = checked((
    GithubDeck("gh-knoll", "notpeter/Vector-Playing-Cards",
               "72cb5b288ed61251ef344e369446687cd51281a4",
               r"cards-svg/(?P<rank>\w+?)(?P<suit>[CDHS])\.svg", r"cards-svg/\w*Joker\w*\.svg",
               "public domain", _KNOLL, "train"),
    _spatz("Vertical2", "train"),
    _spatz("Vertical4", "train"),
    GithubDeck("gh-tekeye", "AlexHedley/poker-recording",
               "b6127ea184654371de086e62c6d7831907332749",
               r"resources/PlayingCards_4/fronts/(?P<suit>[a-z]+)_(?P<rank>\w+)\.svg",
               r"resources/PlayingCards_4/(fronts/joker_\w+|backs/\w+|other/blank_card)\.svg",
               "public domain (repository MIT)",
               "Tek Eye's SVG playing cards (courts as Byron Knoll's; its own index)",
               "evaluation"),
    # Photographs of a real Piatnik four-index deck (the 24 pinochle cards; the author's
    # recoloured variants _11, _22 are left out: the camera model does its own lamp colours).
    # No licence stated, so only ever read from the snapshot.
    GithubDeck("gh-vosloo-photos", "Vosloo/playing-cards-detection",
               "d7394f2a6589ebdf59a0977e2a548973d0b0829a",
               r"out/angle_1/(?P<rank>\w+?)(?P<suit>[CDHS])_00\.jpg", "",
               "no licence stated", "photographs of a real four-index deck", "calibration"),
    GithubDeck("gh-ocal-cartoon", "jessicakarpovich/Blackjack",
               "13604c7f888fac62a4c888079a94045138037269",
               r"Blackjack/cards/\d+-illustration-of-an?-(?P<rank>\w+)-of-(?P<suit>\w+)"
               r"-playing-card-pv\.png", "",
               "public domain (freestockphotos.biz)", "Open Clip Art cartoon deck, jumbo index",
               "calibration"),
    GithubDeck("gh-kenney", "pythonarcade/arcade", "4edcf7e9d10d8087042cd7597271f17f5cfcb726",
               r"arcade/resources/assets/images/cards/card(?P<suit>Clubs|Diamonds|Hearts|Spades)"
               r"(?P<rank>\w+)\.png",
               r"arcade/resources/assets/images/cards/card(Back_\w+|Joker)\.png",
               "CC0", "Kenney's playing cards", "calibration"),
    # Phone photographs of a real standard-index poker deck (United States Playing Card Co.; not
    # the jumbo-index Bicycle of the measurement photos) on a wooden table: 50 of the 51 found;
    # Jhearts.jpg is left out: it shows a doodled-over jack of spades.
    GithubDeck("gh-eeproject-photos", "rd-pong/EE326-Project-Playing-Card-Recognition",
               "5f8fe8412762e5bf30198d73fa679debc2469666",
               r"training/(?!Jhearts)(?P<rank>[0-9AJQK]+)(?P<suit>clubs|diamonds|hearts|spades)"
               r"\.jpg", "",
               "no licence stated", "photographs of a real standard-index deck", "evaluation",
               photo=True),
    # Photographs of a real four-index deck (serif indices, an eagle in the ace of spades),
    # each already straightened to the card by its author (224 x 340). No licence stated.
    GithubDeck("gh-kalkaran-photos", "kalkaran/PlayingCard_Dataset_Creation",
               "761fb832ed4416f878c64d01d44ba9f85011ca98",
               r"data/cards/(?P<rank>10|[2-9AJQK])(?P<suit>[cdhs])/(?P=rank)(?P=suit)\.jpg", "",
               "no licence stated", "straightened photographs of a real four-index deck",
               "evaluation"),
    # Phone photographs of a real two-index deck (serif indices, its own ace of spades) on a
    # table, named in Danish. The images were deleted at later commits. No licence stated.
    GithubDeck("gh-gruppe9-photos", "Gruppe9DTU/Gruppe9_KabaleRobot",
               "6929d062ed79eb604fb0180d5d372d0d44556614",
               r"app/src/main/res/drawable/(?P<suit>spar|hjerter|kloer|ruder)"
               r"(?P<rank>\d+|es|konge|dame|knaegt)\.jpg", "",
               "no licence stated", "photographs of a real two-index deck", "evaluation",
               photo=True),
    GithubDeck("gh-xscreensaver-fomin", "Zygo/xscreensaver",
               "906693799e4fb7581436590cf84ecb2d3c9186ba",
               r"hacks/images/klondike/(?P<suit>[CDHS])(?P<rank>[2-9TJQKA])\.png",
               r"hacks/images/klondike/back\d?\.png", "CC0 (backs CC-BY-SA)",
               "Dmitry Fomin's English pattern (courts as Byron Knoll's)", "train"),
    _pysol("xskat-french-large", "GPL-2.0+", "XSkat's French deck (Gunter Gerhardt)",
           "train"),
    _pysol("flying-high", "GPL, pictures CC0", "PySol's aviation deck", "train"),
    _pysol("greywyvern", "see its COPYRIGHT", "GreyWyvern's photo deck", "train"),
    _pysol("warwick", "GPL-2.0+", "kpat 2.0's deck by Warwick Allison", "train"),
))
