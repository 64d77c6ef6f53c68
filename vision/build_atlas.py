"""Deck profiles of kdegames decks, for benchmarks and tests (needs kdegames-card-data-kf5 and
rsvg-convert): what a deck enrolled from clean faces would hold."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np

from table.rules import Card

from .faces import FACE_HEIGHT, FACE_WIDTH, flatten, load_deck, usable_decks
from .profile import DeckProfile


def profile_from_decks(decks: Iterable[str], cache_dir: Path | None = None,
                       name: str = "built-in") -> DeckProfile:
    """One profile holding every face of the given kdegames decks."""
    images: dict[Card, list[np.ndarray]] = {}
    for deck in decks:
        for card, face in load_deck(deck, cache_dir).items():
            images.setdefault(card, []).append(flatten(face))
    assert all(img.shape[:2] == (FACE_HEIGHT, FACE_WIDTH) for v in images.values() for img in v)
    return DeckProfile.from_cards(name, images)


def readable_decks(cache_dir: Path | None = None) -> list[str]:
    """The installed kdegames decks whose faces pass every check."""
    return [deck for deck, why in usable_decks(cache_dir=cache_dir).items() if why is None]
