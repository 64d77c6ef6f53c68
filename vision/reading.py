"""Reading one straightened card: `identify(card_image, deck=None) -> Reading`.

Both index corners are compared with the profile's stored patches (see matcher.py); each card
scores its nearest match per corner, the two corners are averaged, and the confidence is how far
the best card stands ahead of the runner-up. Below ABSTAIN the reading names no card.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from table.rules import Card

from .index import corner_windows, to_portrait
from .profile import DeckProfile, builtin_profile

ABSTAIN = 0.9          # confidence below which a reading names no card
TEMPERATURE = 0.7      # softens the distance gap into odds (tuned on simulated frames)
FARTHEST = 25.0        # a nearest match farther than this is not a face we know


@dataclass(frozen=True)
class Reading:
    """What a card image was read as: `card` is None when unsure (abstained).
    `candidates` are the best two cards with their match distances, best first."""

    card: Card | None
    confidence: float
    candidates: tuple[tuple[Card, float], ...] = ()


def read_windows(windows: np.ndarray, deck: DeckProfile | None = None) -> Reading:
    """Read from the corner windows (2 x PATCH_H x PATCH_W x 3) of one card."""
    matcher = (deck or builtin_profile()).refs()
    dist = matcher.distances(windows).sum(axis=0) / len(windows)   # per card
    order = np.argsort(dist)
    best, second = float(dist[order[0]]), float(dist[order[1]])
    # Odds of the best card over the runner-up, as a Gaussian model in the LDA space gives them.
    confidence = 1.0 / (1.0 + np.exp(-(second - best) / (2 * TEMPERATURE)))
    if best > FARTHEST:
        confidence *= FARTHEST / best
    cards = [Card.from_index(int(matcher.cards[i])) for i in order[:2]]
    candidates = tuple((c, round(float(dist[i]), 2)) for c, i in zip(cards, order[:2],
                                                                      strict=True))
    card = cards[0] if confidence >= ABSTAIN else None
    return Reading(card, round(float(confidence), 4), candidates)


def identify(card_image: np.ndarray, deck: DeckProfile | None = None) -> Reading:
    """Read a BGR image of one card, cropped to its outline and straightened, in any of the
    four right-angle orientations; `deck` is an enrolled profile (default: ordinary indices)."""
    return read_windows(corner_windows(to_portrait(card_image)), deck)
