"""One drawn face for training: its picture and its label (own module, so that the designs and
the font-drawn synth both use it without importing each other)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from table.rules import Card
from vision.corners import NO_SUIT, OTHER_RANK

RANK_INK, PIP_INK = 1, 2


@dataclass(frozen=True)
class Face:
    image: np.ndarray   # BGRA, FACE_HEIGHT x FACE_WIDTH (transparent outside the corners)
    rank: int           # int(Rank), or OTHER_RANK
    suit: int           # Suit.index, or NO_SUIT
    # Where the index is, when the face was drawn here (synth.py): the same size as `image`,
    # RANK_INK on the rank's ink and PIP_INK on the pip's, in both index corners; else None.
    index_ink: np.ndarray | None = field(default=None, compare=False, repr=False)

    @property
    def card(self) -> Card | None:
        if self.rank == OTHER_RANK or self.suit == NO_SUIT:
            return None
        return Card.from_index(self.suit * 6 + self.rank)
