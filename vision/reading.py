"""Reading one straightened card: `identify(card_image, deck=None) -> Reading`.

Both index corners are compared with every stored patch of the profile; each card scores its
best match per corner, the two corners' scores are averaged, and the confidence is how far the
best card stands above the runner-up. Below ABSTAIN the reading names no card.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from table.rules import Card

from .index import corner_windows, features, to_portrait
from .profile import DeckProfile, builtin_profile

ABSTAIN = 0.5          # confidence below which a reading names no card
FULL_MARGIN = 0.12     # a lead of this much cosine similarity over the runner-up is certainty
MIN_SCORE = 0.55       # a best match weaker than this is not a card face we know


@dataclass(frozen=True)
class Reading:
    """What a card image was read as: `card` is None when unsure (abstained).
    `candidates` are the best two cards with their match scores, best first."""

    card: Card | None
    confidence: float
    candidates: tuple[tuple[Card, float], ...] = ()


def read_windows(windows: np.ndarray, deck: DeckProfile | None = None) -> Reading:
    """Read from the corner windows (2 x PATCH_H x PATCH_W x 3) of one card."""
    feats, labels, starts = (deck or builtin_profile()).refs()
    scores = features(windows) @ feats.T                       # corners x refs
    per_card = np.maximum.reduceat(scores, starts, axis=1)     # corners x cards
    combined = per_card.mean(axis=0)
    order = np.argsort(combined)[::-1]
    cards = [Card.from_index(int(labels[starts[i]])) for i in order[:2]]
    best = float(combined[order[0]])
    second = float(combined[order[1]]) if len(order) > 1 else 0.0
    confidence = min(1.0, max(0.0, (best - second) / FULL_MARGIN))
    if best < MIN_SCORE:
        confidence *= max(0.0, best / MIN_SCORE - 0.5) * 2
    candidates = tuple((c, float(combined[i])) for c, i in zip(cards, order[:2], strict=False))
    return Reading(cards[0] if confidence >= ABSTAIN else None, round(confidence, 4), candidates)


def identify(card_image: np.ndarray, deck: DeckProfile | None = None) -> Reading:
    """Read a BGR image of one card, cropped to its outline and straightened, in any of the
    four right-angle orientations; `deck` is an enrolled profile (default: ordinary indices)."""
    return read_windows(corner_windows(to_portrait(card_image)), deck)
