"""Deck profiles: stored corner indices of decks, the second word when the corner reader
(corners.py) is unsure. The built-in profile holds the faces of the kdegames decks with ordinary
indices (vision/data/index_atlas.png); `pinochle-table enroll` makes one for an unusual deck
from each of its 24 faces shown once. An enrolled deck's corners are the deck on the table and
overrule the corner reader; the built-in ones (`others`) and those learnt at the table only
settle what it is unsure of (vision.reading.read_card).

A profile is saved as one PNG: its stored corner patches in a column, with the card of each
in a text chunk, so it can be looked at as well as loaded.

The table also learns the deck it plays with (vision/learning.py): the corners of cards it has
seen, kept as a small profile of their own (`learned_from` names the profile they refine) and
added on top of that profile with `plus`.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np

from table.rules import ALL_CARDS, Card

from .index import READ_H, READ_W, STORE_H, STORE_W, corner_windows, degrade, features
from .matcher import Matcher
from .templates import CENTRE_H, CENTRE_W, Middles, Templates

ATLAS = Path(__file__).resolve().parent / "data" / "index_atlas.png"
MIDDLES = Path(__file__).resolve().parent / "data" / "middle_atlas.png"
_TEXT_KEY = "pinochle-table-deck"


class ProfileError(ValueError):
    """A deck profile file that cannot be read, or an incomplete enrollment."""


@dataclass
class DeckProfile:
    """Stored corner patches (N x STORE_H x STORE_W x 3) and the card index of each."""

    name: str
    patches: np.ndarray
    cards: np.ndarray
    _matcher: Matcher | None = field(default=None, repr=False)
    _templates: Templates | None = field(default=None, repr=False)
    middles: Middles | None = field(default=None, repr=False)   # faces' middles, if known
    learned_from: str | None = None   # a learned profile: the fingerprint of the one it refines
    # Corners of other decks than the one on the table (the built-in kdegames ones): they may
    # only settle a card the corner reader leans to. An enrolled deck's own corners overrule it.
    others: bool = False
    # Per picture (two corners each), whether it was of a card settled on the phone: a learnt
    # profile's corners of such a card may fill in the rank or suit the corner reader cannot
    # tell (vision.reading.read_card).
    settled: tuple[bool, ...] = ()

    def refs(self) -> Matcher:
        """The matcher built from this profile's patches (built once, then kept)."""
        if self._matcher is None:
            self._matcher = Matcher.cached(self.patches, self.cards)
        return self._matcher

    def templates(self) -> Templates:
        """The stored corners prepared for template matching (built once, then kept)."""
        if self._templates is None:
            self._templates = Templates.build(self.patches, self.cards)
        return self._templates

    @property
    def known_cards(self) -> list[Card]:
        return [Card.from_index(int(i)) for i in sorted(set(self.cards.tolist()))]

    @classmethod
    def from_cards(cls, name: str, images: Mapping[Card, Iterable[np.ndarray]]) -> DeckProfile:
        """A profile from straightened card images (any right-angle orientation)."""
        from .index import to_portrait

        patches, cards = [], []
        for card, imgs in images.items():
            for img in imgs:
                for window in corner_windows(to_portrait(img), STORE_W, STORE_H):
                    patches.append(window)
                    cards.append(card.index)
        if not patches:
            raise ProfileError("no card images given")
        return cls(name, np.stack(patches), np.array(cards))

    def save(self, path: str | Path) -> None:
        from PIL import Image, PngImagePlugin

        column = self.patches.reshape(-1, STORE_W, 3)
        info = PngImagePlugin.PngInfo()
        meta = {"name": self.name, "cards": [str(Card.from_index(int(c))) for c in self.cards],
                "patch": [STORE_W, STORE_H], "read": [READ_W, READ_H]}
        if self.learned_from is not None:
            meta["learned_from"] = self.learned_from
        if any(self.settled):
            meta["settled"] = [int(s) for s in self.settled]
        info.add_text(_TEXT_KEY, json.dumps(meta))
        # Written beside the file and then renamed over it: a table switched off while saving
        # keeps the previous profile whole.
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            Image.fromarray(column[:, :, ::-1].copy()).save(tmp, format="PNG", pnginfo=info,
                                                            optimize=True)
            tmp.replace(path)
        finally:
            tmp.unlink(missing_ok=True)

    @classmethod
    def load(cls, path: str | Path) -> DeckProfile:
        from PIL import Image

        try:
            with Image.open(path) as img:
                meta = json.loads(img.text[_TEXT_KEY])  # type: ignore[attr-defined]
                column = np.asarray(img.convert("RGB"))[:, :, ::-1]
        except (OSError, KeyError, ValueError) as exc:
            raise ProfileError(f"{path} is not a deck profile written by enroll ({exc})") from None
        if meta.get("patch") != [STORE_W, STORE_H] or meta.get("read") != [READ_W, READ_H]:
            raise ProfileError(f"{path} was written by a different version; enroll again")
        try:
            cards = np.array([Card.parse(c).index for c in meta["cards"]], np.int64)
            patches = np.ascontiguousarray(column).reshape(len(cards), STORE_H, STORE_W, 3)
        except ValueError as exc:
            raise ProfileError(f"{path} is damaged ({exc}); enroll again") from None
        learned_from = meta.get("learned_from")
        settled = meta.get("settled", [])
        if not isinstance(settled, list) or len(settled) not in (0, len(cards) // 2):
            raise ProfileError(f"{path} is damaged (its settled cards); enroll again")
        return cls(str(meta["name"]), patches, cards,
                   learned_from=str(learned_from) if learned_from is not None else None,
                   settled=tuple(bool(s) for s in settled))

    @cached_property
    def settled_cards(self) -> frozenset[int]:
        """The cards (indices) some picture of which was settled on the phone."""
        return frozenset(int(c) for c, s in zip(self.cards[::2], self.settled, strict=False)
                         if s)

    def settled_flags(self) -> tuple[bool, ...]:
        """`settled` for every picture (none settled when the profile records nothing)."""
        return self.settled or (False,) * (len(self.cards) // 2)

    def missing(self) -> list[Card]:
        """Faces of the pinochle deck this profile has not seen."""
        seen = set(self.cards.tolist())
        return [c for c in ALL_CARDS if c.index not in seen]

    def fingerprint(self) -> str:
        """A short digest of the stored corners: which profile a learned one refines."""
        digest = hashlib.sha1(np.ascontiguousarray(self.patches).tobytes()
                              + self.cards.astype(np.int64).tobytes())
        return digest.hexdigest()[:16]

    def plus(self, learned: DeckProfile) -> DeckProfile:
        """This profile with the corners of `learned` added (the table's own cards on top of
        the profile they refine). The matcher is this profile's, extended with the added
        corners rather than trained anew (which takes seconds); the faces' middles are kept."""
        if not len(learned.cards):
            return self
        combined = DeckProfile(self.name, np.concatenate([self.patches, learned.patches]),
                               np.concatenate([self.cards, learned.cards]).astype(np.int64),
                               middles=self.middles, others=self.others,
                               settled=self.settled_flags() + learned.settled_flags())
        combined._matcher = _extended(self.refs(), learned.patches, learned.cards)
        return combined


LEARNED_COPIES = 12   # camera-like copies of each added corner (as Matcher.train makes)


def _extended(matcher: Matcher, patches: np.ndarray, cards: np.ndarray) -> Matcher:
    """`matcher` with camera-like copies of more stored corners, projected the way it projects
    its own; nearest-copy distances then find them as they find the trained ones."""
    feats = np.concatenate([_copies(np.ascontiguousarray(p).tobytes()) for p in patches])
    added = (feats - matcher.mean) @ matcher.project
    labels = np.concatenate([np.repeat(matcher.cards, np.diff(np.append(matcher.starts,
                                                                         len(matcher.refs)))),
                             np.repeat(cards, LEARNED_COPIES)])
    refs = np.concatenate([matcher.refs, added.astype(np.float32)])
    order = np.argsort(labels, kind="stable")
    kinds = np.unique(labels)
    return Matcher(matcher.mean, matcher.project, refs[order],
                   np.searchsorted(labels[order], kinds), kinds)


@lru_cache(maxsize=256)   # a learned profile holds at most 24 x KEEP_PER_CARD x 2 corners
def _copies(patch: bytes) -> np.ndarray:
    """Features of camera-like copies of one stored corner (its bytes): a profile learnt
    card by card makes them once for each corner, not again at every card."""
    corner = np.frombuffer(patch, np.uint8).reshape(STORE_H, STORE_W, 3)
    return features(degrade(corner, np.random.default_rng(0), LEARNED_COPIES))


def save_middles(middles: np.ndarray, cards: np.ndarray, path: str | Path) -> None:
    """Faces' middles (N x CENTRE_H x CENTRE_W grey) as one PNG column, cards in a text chunk."""
    from PIL import Image, PngImagePlugin

    info = PngImagePlugin.PngInfo()
    info.add_text(_TEXT_KEY, json.dumps({
        "cards": [str(Card.from_index(int(c))) for c in cards], "middle": [CENTRE_W, CENTRE_H],
        "read": [READ_W, READ_H]}))
    Image.fromarray(middles.reshape(-1, CENTRE_W)).save(path, pnginfo=info, optimize=True)


def load_middles(path: str | Path) -> Middles:
    from PIL import Image

    try:
        with Image.open(path) as img:
            meta = json.loads(img.text[_TEXT_KEY])  # type: ignore[attr-defined]
            column = np.asarray(img.convert("L"))
    except (OSError, KeyError, ValueError) as exc:
        raise ProfileError(f"{path} is not a file of faces' middles ({exc})") from None
    if meta.get("middle") != [CENTRE_W, CENTRE_H] or meta.get("read") != [READ_W, READ_H]:
        raise ProfileError(f"{path} was written by a different version; rebuild it")
    cards = np.array([Card.parse(c).index for c in meta["cards"]])
    return Middles.build(column.reshape(len(cards), CENTRE_H, CENTRE_W), cards)


@lru_cache(maxsize=1)
def builtin_profile() -> DeckProfile:
    """The profile every deck with ordinary corner indices is read by."""
    if not ATLAS.exists():
        raise ProfileError(f"{ATLAS} is missing: run `python -m vision.build_atlas`")
    profile = DeckProfile.load(ATLAS)
    profile.others = True
    if MIDDLES.exists():
        profile.middles = load_middles(MIDDLES)
    return profile
