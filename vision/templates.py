"""The careful second look: a card's stored index corners slid a few pixels each way over the
corners of the card being read, scored by normalised correlation in colour (so red and black
ink differ, and a spade's stem is not lost to blurring).

The correlation is OpenCV's TM_CCOEFF_NORMED (each colour channel centred, the whole
normalised), done for every shift and every stored corner in one matrix product: many small
`cv2.matchTemplate` calls cost ten times more.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

MARGIN = 4                          # pixels the stored corner may sit off, each way
CORE_W, CORE_H = 28, 54             # the part of a stored corner that is compared
WINDOW_W, WINDOW_H = CORE_W + 2 * MARGIN, CORE_H + 2 * MARGIN
STORED_BLUR = 0.7   # blur both alike, so resampling noise matters less
SEEN_BLUR = 0.7


def _smooth(patch: np.ndarray, sigma: float) -> np.ndarray:
    return cv2.GaussianBlur(patch, (0, 0), sigma)


def _unit(rows: np.ndarray) -> np.ndarray:
    """N x H x W x 3 -> N x D: each colour channel centred, then the whole scaled to length 1."""
    rows = rows.astype(np.float32)
    rows = rows - rows.mean(axis=(1, 2), keepdims=True)
    flat = rows.reshape(len(rows), -1)
    return flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-3)


def shifted_cores(window: np.ndarray) -> np.ndarray:
    """Every CORE-sized part of a WINDOW-sized patch (one per shift), as rows scaled so that
    their product with a unit row of `_unit` is the correlation. Centring them is not needed:
    a stored row is centred per channel already, so the mean drops out of the product; only
    the length must be that of the centred part (found from sums over each shift)."""
    w = window.astype(np.float32)
    views = np.lib.stride_tricks.sliding_window_view(w, (CORE_H, CORE_W), axis=(0, 1))
    rows = np.ascontiguousarray(views.transpose(0, 1, 3, 4, 2)).reshape(-1, CORE_H * CORE_W * 3)
    n = CORE_H * CORE_W
    sums = cv2.boxFilter(w, -1, (CORE_W, CORE_H), anchor=(0, 0), normalize=False,
                         borderType=cv2.BORDER_CONSTANT)
    squares = cv2.boxFilter(w * w, -1, (CORE_W, CORE_H), anchor=(0, 0), normalize=False,
                            borderType=cv2.BORDER_CONSTANT)
    h, k = w.shape[0] - CORE_H + 1, w.shape[1] - CORE_W + 1
    centred = (squares[:h, :k] - sums[:h, :k] ** 2 / n).sum(axis=2).reshape(-1, 1)
    return rows / np.sqrt(np.maximum(centred, 1e-6))


@dataclass(frozen=True)
class Templates:
    """Stored corner cores as unit rows, grouped by card index."""

    by_card: dict[int, np.ndarray]

    @classmethod
    def build(cls, patches: np.ndarray, cards: np.ndarray) -> Templates:
        cores: dict[int, list[np.ndarray]] = {}
        for patch, card in zip(patches, cards, strict=True):
            core = _smooth(patch, STORED_BLUR)[MARGIN:MARGIN + CORE_H, MARGIN:MARGIN + CORE_W]
            cores.setdefault(int(card), []).append(core)
        return cls({card: _unit(np.stack(c)) for card, c in cores.items()})

    @staticmethod
    def look(windows: np.ndarray, reach: int = 0) -> np.ndarray:
        """The corners being read, ready for `scores`: windows x shifts x D. A window is cut
        from the corner of the card (at least WINDOW size), `reach` pixels more each way where
        the card's outline may be that far off."""
        h, w = WINDOW_H + 2 * reach, WINDOW_W + 2 * reach
        return np.stack([shifted_cores(_smooth(win, SEEN_BLUR)[:h, :w]) for win in windows])

    def scores(self, seen: np.ndarray, cards: Sequence[int]) -> dict[int, float]:
        """Each card's best correlation with the corners `look` prepared, averaged over them.
        Every second shift is tried first; then the shifts around the best one."""
        known = [c for c in cards if c in self.by_card]
        out = {card: -1.0 for card in cards if card not in self.by_card}
        if not known:
            return out
        stored = np.concatenate([self.by_card[c] for c in known])         # T x D
        best = np.empty((len(seen), len(stored)), np.float32)
        columns = np.arange(len(stored))[:, None]
        coarse_rows, around = _shift_tables(math.isqrt(seen.shape[1]))  # square grid
        for w, shifts in enumerate(seen):
            first = (shifts[coarse_rows] @ stored.T).argmax(axis=0)         # per stored corner
            near = around[coarse_rows[first]]                                # T x 9
            needed = np.unique(near)
            products = shifts[needed] @ stored.T                             # needed x T
            best[w] = products[np.searchsorted(needed, near), columns].max(axis=1)
        start = 0
        for card in known:
            n = len(self.by_card[card])
            out[card] = float(best[:, start:start + n].max(axis=1).mean())
            start += n
        return out


    def lead(self, seen: np.ndarray, best: int, other: int) -> float | None:
        """How far the corners being read lean to `best` rather than `other`, in units that do
        not depend on how alike the two cards' corners are: at the shift where `best`'s stored
        corner (of the deck that fits best) matches, the correlation with the difference of
        the two cards' corners of that deck, scaled to unit length. Averaged over the corners
        being read; None when the two cards are not stored from the same decks."""
        mine, theirs = self.by_card.get(best), self.by_card.get(other)
        if mine is None or theirs is None or len(mine) != len(theirs):
            return None
        leads = []
        for shifts in seen:
            products = shifts @ mine.T                                      # shifts x decks
            shift, deck = np.unravel_index(int(products.argmax()), products.shape)
            diff = mine[deck] - theirs[deck]
            leads.append(float(shifts[shift] @ diff) / max(float(np.linalg.norm(diff)), 1e-3))
        return float(np.mean(leads))


@lru_cache(maxsize=4)
def _shift_tables(side: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows of the every-second-shift grid, and for each shift the 3 x 3 shifts around it
    (clipped at the edge of the grid), in a grid of side x side shifts."""
    grid = np.arange(side * side).reshape(side, side)
    coarse = grid[::2, ::2].ravel()
    around = np.empty((side * side, 9), np.intp)
    for y in range(side):
        for x in range(side):
            ys = np.clip([y - 1, y, y + 1], 0, side - 1)
            xs = np.clip([x - 1, x, x + 1], 0, side - 1)
            around[grid[y, x]] = grid[np.ix_(ys, xs)].ravel()
    return coarse, around



CENTRE_W, CENTRE_H = 60, 90       # the stored middle of a READ_SIZE card (grey)
CENTRE_REACH = 6                  # pixels the middle may sit off, each way


def card_middle(card: np.ndarray, reach: int = 0) -> np.ndarray:
    """The grey middle of a READ_SIZE portrait card, `reach` pixels more each way."""
    h, w = card.shape[:2]
    x0, y0 = (w - CENTRE_W) // 2 - reach, (h - CENTRE_H) // 2 - reach
    grey = cv2.cvtColor(card, cv2.COLOR_BGR2GRAY)
    return np.ascontiguousarray(grey[y0:y0 + CENTRE_H + 2 * reach, x0:x0 + CENTRE_W + 2 * reach])


def _detail(middle: np.ndarray) -> np.ndarray:
    """The pips and pictures of a middle without the light across it (a face's printed
    shading, the lamp), lightly blurred: what tells one card's middle from another's."""
    grey = middle.astype(np.float32)
    return _smooth(grey - _smooth(grey, 6.0), 1.0)


@dataclass(frozen=True)
class Middles:
    """Stored middles of card faces (the big pips of aces and tens, the court pictures),
    grouped by card index: a second opinion between two cards whose corners look alike
    at camera resolution (Tigullio's club and spade pips)."""

    by_card: dict[int, list[np.ndarray]]

    @classmethod
    def build(cls, middles: np.ndarray, cards: np.ndarray) -> Middles:
        """From `card_middle`s of faces (N x CENTRE_H x CENTRE_W) and their card indices."""
        out: dict[int, list[np.ndarray]] = {}
        for middle, card in zip(middles, cards, strict=True):
            out.setdefault(int(card), []).append(_detail(middle))
        return cls(out)

    def scores(self, card: np.ndarray, cards: Sequence[int]) -> dict[int, float]:
        """Each card's best correlation with the middle of a READ_SIZE card (either way up)."""
        seen = _detail(card_middle(card, CENTRE_REACH))
        turned = cv2.rotate(seen, cv2.ROTATE_180)
        out = {}
        for c in cards:
            best = -1.0
            for stored in self.by_card.get(c, []):
                for view in (seen, turned):
                    best = max(best, float(cv2.matchTemplate(view, stored,
                                                             cv2.TM_CCOEFF_NORMED).max()))
            out[c] = best
        return out
