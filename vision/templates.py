"""The careful second look: a card's stored index corners slid a few pixels each way over the
corners of the card being read, scored by normalised correlation in colour (so red and black
ink differ, and a spade's stem is not lost to blurring).

The correlation is OpenCV's TM_CCOEFF_NORMED (each colour channel centred, the whole
normalised), done as matrix products of stored corners with the parts of the corner being read
at each shift: many small `cv2.matchTemplate` calls cost ten times more. Every second shift is
tried first, then the shifts round each stored corner's best one; the products are grouped so
that none is larger than needed, since their arithmetic is most of the time a reading takes.
"""

from __future__ import annotations

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
FLAT_RMS = 2.0      # grey levels: a part of a corner whose ink varies less is blank


def _smooth(patch: np.ndarray, sigma: float) -> np.ndarray:
    return cv2.GaussianBlur(patch, (0, 0), sigma)


def _unit(rows: np.ndarray) -> np.ndarray:
    """N x H x W x 3 -> N x D: each colour channel centred, then the whole scaled to length 1.
    A row holds the channels one after the other (the layout `Seen.rows` cuts)."""
    rows = rows.astype(np.float32).transpose(0, 3, 1, 2)
    rows = rows - rows.mean(axis=(2, 3), keepdims=True)
    flat = rows.reshape(len(rows), -1)
    return flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-3)


def _centred_lengths(window: np.ndarray) -> np.ndarray:
    """The length of the CORE-sized part of a float window at every shift, each colour channel
    centred (from sums over each shift): shifts_y x shifts_x."""
    n = CORE_H * CORE_W
    sums = cv2.boxFilter(window, -1, (CORE_W, CORE_H), anchor=(0, 0), normalize=False,
                         borderType=cv2.BORDER_CONSTANT)
    squares = cv2.boxFilter(window * window, -1, (CORE_W, CORE_H), anchor=(0, 0),
                            normalize=False, borderType=cv2.BORDER_CONSTANT)
    h, k = window.shape[0] - CORE_H + 1, window.shape[1] - CORE_W + 1
    centred = (squares[:h, :k] - sums[:h, :k] ** 2 / n).sum(axis=2)
    # A part with almost no contrast (paper, a thumb) correlates with nothing: its length is
    # at least that of FLAT_RMS everywhere, else rounding would make its correlations huge.
    return np.sqrt(np.maximum(centred, FLAT_RMS ** 2 * n * window.shape[2]))


def shifted_cores(window: np.ndarray) -> np.ndarray:
    """Every CORE-sized part of a WINDOW-sized patch (one per shift), as rows scaled so that
    their product with a unit row of `_unit` is the correlation (see `Seen`)."""
    seen = Seen(window[None].astype(np.float32))
    return seen.rows(0, np.arange(seen.side * seen.side)) / seen.lengths[0][:, None]


class Seen:
    """The corners being read, smoothed, from which `Templates.scores` cuts the CORE-sized
    part at each shift it tries. Centring a cut is not needed: a stored row is centred per
    channel already, so the mean drops out of the product; only the length must be that of
    the centred part (`lengths`). What was found per card is kept for `Templates.lead`."""

    ALL_AT_ONCE = 81   # shifts per window up to which every cut is made at once (cheaper)

    def __init__(self, windows: np.ndarray) -> None:
        """`windows`: W x h x w x 3 float32, with as many shifts down as across."""
        self.count = len(windows)
        self.side = windows.shape[1] - CORE_H + 1
        if windows.shape[2] - CORE_W + 1 != self.side:
            raise ValueError("a window must allow as many shifts down as across")
        channels = np.ascontiguousarray(windows.transpose(0, 3, 1, 2))
        views = np.lib.stride_tricks.sliding_window_view(channels, (CORE_H, CORE_W),
                                                         axis=(2, 3))
        self._views = views.transpose(0, 2, 3, 1, 4, 5)   # W x sy x sx x 3 x CH x CW
        self.lengths = np.stack([_centred_lengths(w).ravel() for w in windows])   # W x S
        self._every: dict[int, np.ndarray] = {}
        self._coarse: np.ndarray | None = None
        self.found: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def rows(self, window: int, shifts: np.ndarray) -> np.ndarray:
        """The cut at each of `shifts` (indices into the side x side grid) as rows: n x D,
        not yet divided by their `lengths`."""
        if self.side * self.side <= self.ALL_AT_ONCE:
            if window not in self._every:
                every = np.ascontiguousarray(self._views[window])
                self._every[window] = every.reshape(self.side * self.side, -1)
            return self._every[window][shifts]
        ys, xs = np.divmod(shifts, self.side)
        return self._views[window][ys, xs].reshape(len(shifts), -1)

    def coarse(self) -> np.ndarray:
        """Rows of every second shift of every window: (W*C) x D."""
        if self._coarse is None:
            grid, _ = _shift_tables(self.side)
            self._coarse = np.concatenate([self.rows(w, grid) for w in range(self.count)])
        return self._coarse


@dataclass(frozen=True)
class Templates:
    """Stored corner cores as unit rows (`rows`), grouped by card index (`by_card`, views
    into `rows`, which start at `first_row`)."""

    rows: np.ndarray
    by_card: dict[int, np.ndarray]
    first_row: dict[int, int]

    @classmethod
    def build(cls, patches: np.ndarray, cards: np.ndarray) -> Templates:
        order = np.argsort(cards, kind="stable")
        cores = [_smooth(patch, STORED_BLUR)[MARGIN:MARGIN + CORE_H, MARGIN:MARGIN + CORE_W]
                 for patch in patches[order]]
        rows = _unit(np.stack(cores))
        kinds, starts, counts = np.unique(cards[order], return_index=True, return_counts=True)
        first_row = {int(k): int(i) for k, i in zip(kinds, starts, strict=True)}
        by_card = {int(k): rows[i:i + n] for k, i, n in zip(kinds, starts, counts, strict=True)}
        return cls(rows, by_card, first_row)

    @staticmethod
    def look(windows: np.ndarray, reach: int = 0) -> Seen:
        """The corners being read, ready for `scores`. A window is cut from the corner of the
        card (at least WINDOW size), `reach` pixels more each way where the card's outline
        may be that far off."""
        h, w = WINDOW_H + 2 * reach, WINDOW_W + 2 * reach
        return Seen(np.stack([_smooth(win, SEEN_BLUR)[:h, :w] for win in windows])
                    .astype(np.float32))

    def scores(self, seen: Seen, cards: Sequence[int]) -> dict[int, float]:
        """Each card's best correlation with the corners `look` prepared, averaged over them.
        Every second shift is tried first; then, for each stored corner, the shifts around
        its best one."""
        new = [c for c in dict.fromkeys(cards) if c in self.by_card and c not in seen.found]
        if new:
            self._find(seen, new)
        return {c: float(seen.found[c][0].max(axis=1).mean()) if c in self.by_card else -1.0
                for c in cards}

    def _find(self, seen: Seen, cards: list[int]) -> None:
        """For each window and stored corner of `cards`, the best correlation and the shift
        it is at, into `seen.found`. The fine look is done for the stored corners of all the
        cards together, one product per shift they settled round: few products, and none
        larger than needed."""
        grid, around = _shift_tables(seen.side)
        coarse = seen.coarse().T
        firsts = np.concatenate([
            grid[((self.by_card[c] @ coarse).reshape(-1, seen.count, len(grid))
                  / seen.lengths[:, grid]).argmax(axis=2)] for c in cards])   # T x W
        stored = np.concatenate([np.arange(self.first_row[c], self.first_row[c]
                                           + len(self.by_card[c])) for c in cards])
        best = np.empty((seen.count, len(stored)), np.float32)
        where = np.empty((seen.count, len(stored)), np.intp)
        for w in range(seen.count):
            for first in np.unique(firsts[:, w]):
                mine = np.flatnonzero(firsts[:, w] == first)
                near = around[first]
                products = (self.rows[stored[mine]] @ seen.rows(w, near).T
                            / seen.lengths[w, near])
                pick = products.argmax(axis=1)
                best[w, mine] = products[np.arange(len(mine)), pick]
                where[w, mine] = near[pick]
        start = 0
        for c in cards:
            n = len(self.by_card[c])
            seen.found[c] = best[:, start:start + n], where[:, start:start + n]
            start += n

    def lead(self, seen: Seen, best: int, other: int) -> float | None:
        """How far the corners being read lean to `best` rather than `other`, in units that do
        not depend on how alike the two cards' corners are: at the shift where `best`'s stored
        corner (of the deck that fits best) matches, the correlation with the difference of
        the two cards' corners of that deck, scaled to unit length (the shift as `scores`
        found it, so `best` must have been scored on `seen`). Averaged over the corners being
        read; None when the two cards are not stored from the same decks."""
        mine, theirs = self.by_card.get(best), self.by_card.get(other)
        if mine is None or theirs is None or len(mine) != len(theirs):
            return None
        values, shifts = seen.found[best]
        leads = []
        for w in range(seen.count):
            deck = int(values[w].argmax())
            shift = int(shifts[w, deck])
            row = seen.rows(w, np.array([shift]))[0] / seen.lengths[w, shift]
            diff = mine[deck] - theirs[deck]
            leads.append(float(row @ diff) / max(float(np.linalg.norm(diff)), 1e-3))
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
