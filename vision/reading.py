"""Reading one straightened card: `identify(card_image, deck=None) -> Reading`.

Two stages. A fast matcher (matcher.py) shortlists the likeliest cards from both index
corners; then each shortlisted card's stored corners are slid over the card's corners
(templates.py), and the best correlation, averaged over the two corners, decides. The
confidence combines the lead over the runner-up with how well the best matches at all; below
ABSTAIN the reading names no card.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from table.rules import Card

from .index import STORE_H, STORE_W, corner_windows, to_portrait
from .profile import DeckProfile, builtin_profile

ABSTAIN = 0.5          # confidence below which a reading names no card
SHORTLIST = 4          # cards the fast matcher passes on to template matching
# Tuned on simulated frames (bench/bench_vision.py, other seeds than the figures in README):
# a correct reading's best correlation is almost always above 0.93, and its lead over the
# runner-up (often the same rank in the other suit of that colour) mostly above 0.015.
LEAD_MID, LEAD_SCALE = 0.01, 0.003   # correlation lead over the runner-up: 0.01 is a coin toss
FIT_MID, FIT_SCALE = 0.85, 0.02      # best correlation: below 0.85 it is hardly a face we know


@dataclass(frozen=True)
class Reading:
    """What a card image was read as: `card` is None when unsure (abstained).
    `candidates` are the best two cards with their match distances, best first."""

    card: Card | None
    confidence: float
    candidates: tuple[tuple[Card, float], ...] = ()


def read_card(card: np.ndarray, deck: DeckProfile | None = None) -> Reading:
    """Read a READ_SIZE portrait card (see index.to_portrait)."""
    profile = deck or builtin_profile()
    matcher = profile.refs()
    dist = matcher.distances(corner_windows(card)).mean(axis=0)   # per card, LDA space
    shortlist = [int(matcher.cards[i]) for i in np.argsort(dist)[:SHORTLIST]]
    windows = corner_windows(card, STORE_W, STORE_H)
    scores = profile.templates().scores(windows, shortlist)
    # The fast matcher is weakest between suits of one rank (a spade's pip against a club's):
    # the winner's rank in every suit gets the careful look too.
    rank = max(scores, key=lambda c: scores[c]) % 6
    siblings = [s * 6 + rank for s in range(4) if s * 6 + rank not in scores]
    scores |= profile.templates().scores(windows, siblings)
    order = sorted(scores, key=lambda c: scores[c], reverse=True)
    best, second = scores[order[0]], scores[order[1]] if len(order) > 1 else 0.0
    # The runner-up's distance behind the best, and how well the best matches at all.
    lead = 1.0 / (1.0 + np.exp(-(best - second - LEAD_MID) / LEAD_SCALE))
    fit = 1.0 / (1.0 + np.exp(-(best - FIT_MID) / FIT_SCALE))
    confidence = float(lead * fit)
    cards = [Card.from_index(c) for c in order[:2]]
    candidates = tuple((Card.from_index(c), round(scores[c], 3)) for c in order[:2])
    return Reading(cards[0] if confidence >= ABSTAIN else None, round(confidence, 4), candidates)


def identify(card_image: np.ndarray, deck: DeckProfile | None = None) -> Reading:
    """Read a BGR image of one card, cropped to its outline and straightened, in any of the
    four right-angle orientations; `deck` is an enrolled profile (default: ordinary indices)."""
    return read_card(to_portrait(card_image), deck)
