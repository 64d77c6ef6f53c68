"""Build vision/data/index_atlas.png, the built-in profile, from the kdegames decks:
`python -m vision.build_atlas` (needs kdegames-card-data-kf5 and rsvg-convert)."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

from .faces import FACE_HEIGHT, FACE_WIDTH, DeckUnusable, deck_names, flatten, load_deck
from .profile import ATLAS, DeckProfile


def profile_from_decks(decks: Iterable[str], cache_dir: Path | None = None,
                       name: str = "built-in") -> DeckProfile:
    """One profile holding every face of the given kdegames decks."""
    images: dict = {}
    for deck in decks:
        for card, face in load_deck(deck, cache_dir).items():
            images.setdefault(card, []).append(flatten(face))
    assert all(img.shape[:2] == (FACE_HEIGHT, FACE_WIDTH) for v in images.values() for img in v)
    return DeckProfile.from_cards(name, images)


def readable_decks(cache_dir: Path | None = None) -> list[str]:
    """The installed kdegames decks whose faces pass every check."""
    out = []
    for deck in deck_names():
        try:
            load_deck(deck, cache_dir)
            out.append(deck)
        except DeckUnusable:
            continue
    return out


def main() -> int:
    decks = readable_decks()
    if not decks:
        print("no usable kdegames decks: install kdegames-card-data-kf5", file=sys.stderr)
        return 1
    ATLAS.parent.mkdir(parents=True, exist_ok=True)
    profile_from_decks(decks).save(ATLAS)
    print(f"wrote {ATLAS} from {len(decks)} decks: {', '.join(decks)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
