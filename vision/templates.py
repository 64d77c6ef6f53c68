"""The careful second look: a card's stored index corners slid a few pixels each way over the
corners of the card being read, scored by normalised correlation in colour (so red and black
ink differ, and a spade's stem is not lost to blurring)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

MARGIN = 4                          # pixels the stored corner may sit off, each way
CORE_W, CORE_H = 28, 54             # the part of a stored corner that is compared
WINDOW_W, WINDOW_H = CORE_W + 2 * MARGIN, CORE_H + 2 * MARGIN
STORED_BLUR = 0.7   # blur both alike, so resampling noise matters less
SEEN_BLUR = 0.7


def _smooth(patch: np.ndarray, sigma: float) -> np.ndarray:
    return cv2.GaussianBlur(patch, (0, 0), sigma)


@dataclass(frozen=True)
class Templates:
    """Stored corner cores grouped by card index."""

    by_card: dict[int, list[np.ndarray]]

    @classmethod
    def build(cls, patches: np.ndarray, cards: np.ndarray) -> Templates:
        by_card: dict[int, list[np.ndarray]] = {}
        for patch, card in zip(patches, cards, strict=True):
            core = _smooth(patch, STORED_BLUR)[MARGIN:MARGIN + CORE_H, MARGIN:MARGIN + CORE_W]
            by_card.setdefault(int(card), []).append(np.ascontiguousarray(core))
        return cls(by_card)

    def scores(self, windows: np.ndarray, cards: Sequence[int]) -> dict[int, float]:
        """Each card's best correlation with the windows (STORE size), averaged over them."""
        smoothed = [np.ascontiguousarray(_smooth(w, SEEN_BLUR)[:WINDOW_H, :WINDOW_W])
                    for w in windows]
        out: dict[int, float] = {}
        for card in cards:
            stored = self.by_card.get(card)
            if not stored:
                out[card] = -1.0
                continue
            out[card] = float(np.mean([
                max(float(cv2.matchTemplate(w, t, cv2.TM_CCOEFF_NORMED).max()) for t in stored)
                for w in smoothed]))
        return out
