"""The kdegames decks whose artwork the reserved gnome-cards-data also ships are kept out of
everything: listing, loading, the built-in stored corners and the reader's designs."""

from __future__ import annotations

import pytest

from vision.faces import SHARED_WITH_RESERVED, DeckUnusable, deck_names, load_deck
from vision.profile import builtin_profile


def test_shared_decks_are_never_listed() -> None:
    assert not set(deck_names()) & set(SHARED_WITH_RESERVED)


@pytest.mark.parametrize("deck", SHARED_WITH_RESERVED)
def test_shared_decks_refuse_to_load(deck: str) -> None:
    with pytest.raises(DeckUnusable, match="reserved"):
        load_deck(deck)


def test_builtin_stored_corners_hold_only_the_listed_decks() -> None:
    """index_atlas.png was rebuilt without the shared decks: two corners of 24 faces a deck."""
    from vision.build_atlas import readable_decks

    decks = readable_decks()
    if not decks:
        pytest.skip("kdegames-card-data-kf5 is not installed")
    assert len(builtin_profile().patches) == 2 * 24 * len(decks)
