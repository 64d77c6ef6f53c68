"""Build vision/data/index_atlas.png, the built-in profile, from the kdegames decks:
`python -m vision.build_atlas` (needs kdegames-card-data-kf5 and rsvg-convert)."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from table.rules import Card

from .faces import FACE_HEIGHT, FACE_WIDTH, flatten, load_deck, usable_decks
from .index import to_portrait
from .profile import ATLAS, MIDDLES, DeckProfile, save_middles
from .templates import card_middle


def profile_from_decks(decks: Iterable[str], cache_dir: Path | None = None,
                       name: str = "built-in", others: bool = False) -> DeckProfile:
    """One profile holding every face of the given kdegames decks (`others`: read as the
    corners of other decks than the one on the table, as the built-in profile is)."""
    images: dict[Card, list[np.ndarray]] = {}
    for deck in decks:
        for card, face in load_deck(deck, cache_dir).items():
            images.setdefault(card, []).append(flatten(face))
    assert all(img.shape[:2] == (FACE_HEIGHT, FACE_WIDTH) for v in images.values() for img in v)
    profile = DeckProfile.from_cards(name, images)
    profile.others = others
    return profile


def middles_from_decks(decks: Iterable[str], cache_dir: Path | None = None
                       ) -> tuple[np.ndarray, np.ndarray]:
    """The middle of every face of the given kdegames decks, and the card of each."""
    middles, cards = [], []
    for deck in decks:
        for card, face in load_deck(deck, cache_dir).items():
            middles.append(card_middle(to_portrait(flatten(face))))
            cards.append(card.index)
    return np.stack(middles), np.array(cards)


def readable_decks(cache_dir: Path | None = None) -> list[str]:
    """The installed kdegames decks whose faces pass every check."""
    return [deck for deck, why in usable_decks(cache_dir=cache_dir).items() if why is None]


def main() -> int:
    reasons = usable_decks()
    for deck, why in reasons.items():
        if why is not None:
            print(f"left out {deck}: {why}")
    decks = [deck for deck, why in reasons.items() if why is None]
    if not decks:
        print("no usable kdegames decks: install kdegames-card-data-kf5", file=sys.stderr)
        return 1
    ATLAS.parent.mkdir(parents=True, exist_ok=True)
    profile_from_decks(decks).save(ATLAS)
    save_middles(*middles_from_decks(decks), MIDDLES)
    print(f"wrote {ATLAS} from {len(decks)} decks: {', '.join(decks)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
