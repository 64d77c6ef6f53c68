"""Does an outline look like a card? `looks_like_card(frame, quad) -> bool`.

On a busy ground (a patterned cloth, a road, wood) light card-shaped patches of the ground
and outlines that take two cards, or a card and the ground, as one come up beside the real
cards. A card is paper: the band just inside its sides is of one even, light, colourless tone
(the paper of the cards over it counts too: a card partly covered is still a card); its sides
stand out from what lies beyond along much of their length; and at least one of its corners
holds ink (the index). The outline is straightened with a margin round it and judged on that
small picture. Thresholds tuned on rendered busy scenes (vision.busy, bench/bench_busy.py),
never on the real photos.
"""

from __future__ import annotations

import cv2
import numpy as np

from .quads import order_corners

W, H, M = 48, 68, 6    # the straightened card (px) and the margin round it
BAND = (2, 7)          # the band inside the sides, px in from them
PAPER_SATURATION = 90  # HSV saturation of paper at most (a warm lamp tints it; as detect)
PAPER_SHARE = 0.5      # share of the band that is paper, at least
PAPER_DARKER = 0.7     # paper is at least this share of the band's light level
SIDE_CONTRAST = 14.0   # a stretch of side stands out when inside and outside differ this much
SIDES_SHOWN = 0.4      # share of the sides' stretches that stand out, at least
NOT_PAPER = 0.4        # share of the sides' stretches not paper inside, at most
STRETCHES = 6          # stretches a side is judged in
INK = (0.03, 0.65)     # share of an index corner's box that is ink
CORNER_BOX = (0.26, 0.3)   # the index box, as shares of the card's width and length
NO_CARD = (0.0, 0.0, 1.0, False)   # the scores of what is no card at all (see scores)


def straightened(frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The card inside `quad` (ordered, a short side first) upright, W x H, with a margin M."""
    dst = np.array([[M, M], [M + W, M], [M + W, M + H], [M, M + H]], np.float32)
    m = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    return cv2.warpPerspective(frame, m, (W + 2 * M, H + 2 * M), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)


def _band(shape: tuple[int, int], inner: int, outer: int) -> np.ndarray:
    """A ring of the straightened picture between `inner` and `outer` px inside the card's
    sides (negative: outside them)."""
    mask = np.zeros(shape, np.uint8)
    cv2.rectangle(mask, (M + inner, M + inner), (M + W - inner, M + H - inner), 255, -1)
    cv2.rectangle(mask, (M + outer, M + outer), (M + W - outer, M + H - outer), 0, -1)
    return mask


def _paper(hsv: np.ndarray, light: float) -> np.ndarray:
    """Where an HSV picture is paper: colourless, and not far below `light`."""
    return (hsv[:, :, 1] <= PAPER_SATURATION) & (hsv[:, :, 2] >= PAPER_DARKER * light)


def scores(frame: np.ndarray, quad: np.ndarray) -> tuple[float, float, float, bool]:
    """The band's paper share, the sides' shares of stretches that are a card's edge (paper
    inside, something else outside) and that are not paper inside, and ink in a corner."""
    card = straightened(frame, quad)
    hsv = cv2.cvtColor(card, cv2.COLOR_BGR2HSV)
    band = _band(card.shape[:2], BAND[0], BAND[1]) > 0
    light = float(np.percentile(hsv[:, :, 2][band], 80))
    if light < 60:
        return NO_CARD
    paper = _paper(hsv, light)
    edge, bad = _stretches(card, paper)
    n = 4 * STRETCHES
    return float(paper[band].mean()), sum(edge) / n, sum(bad) / n, _has_index(hsv, light)


def _stretches(card: np.ndarray, paper: np.ndarray) -> tuple[list[int], list[int]]:
    """Per side of a straightened card (top, right, bottom, left), how many of its STRETCHES
    are a card's edge (paper inside, something else outside), and how many are not paper
    inside."""
    lab = cv2.cvtColor(card, cv2.COLOR_BGR2LAB).astype(np.float32)
    edge, bad = [0] * 4, [0] * 4
    for side in range(4):
        # turned so that this side lies along the top, at row M (the margin is the same)
        p, c = np.rot90(paper, side), np.rot90(lab, side)
        w = p.shape[1]
        for cols in np.array_split(np.arange(M + 3, w - M - 3), STRETCHES):
            inside = p[M + 2:M + 5, cols]
            if inside.mean() < 0.5:
                bad[side] += 1
                continue
            diff = np.linalg.norm(c[M + 1:M + 4, cols].mean(axis=(0, 1))
                                  - c[M - 4:M - 1, cols].mean(axis=(0, 1)))
            edge[side] += bool(diff >= SIDE_CONTRAST)
    return edge, bad


def sides_shown(frame: np.ndarray, quad: np.ndarray) -> list[float]:
    """Per side of the outline (in the order of its corners), the share of its stretches
    that stand out as a card's edge (as `scores` judges them)."""
    card = straightened(frame, quad)
    hsv = cv2.cvtColor(card, cv2.COLOR_BGR2HSV)
    band = _band(card.shape[:2], BAND[0], BAND[1]) > 0
    edge, _ = _stretches(card, _paper(hsv, float(np.percentile(hsv[:, :, 2][band], 80))))
    return [e / STRETCHES for e in edge]


def paper_along(frame: np.ndarray, quad: np.ndarray) -> list[float]:
    """Per side of the outline, the share of the strip just inside it (as `scores` looks at
    it) that is paper."""
    card = straightened(frame, quad)
    hsv = cv2.cvtColor(card, cv2.COLOR_BGR2HSV)
    band = _band(card.shape[:2], BAND[0], BAND[1]) > 0
    paper = _paper(hsv, float(np.percentile(hsv[:, :, 2][band], 80)))
    return [float(np.rot90(paper, side)[M + 2:M + 5, M + 3:-M - 3].mean()) for side in range(4)]


def looks_like_card(frame: np.ndarray, quad: np.ndarray) -> bool:
    """Paper inside the sides, sides that are a card's edges along enough of their length
    and paper along nearly all of it, and ink in a corner (see the module's docstring).
    `frame` is BGR, `quad` in its pixels."""
    paper, edge, bad, index = scores(frame, quad)
    return paper >= PAPER_SHARE and edge >= SIDES_SHOWN and bad <= NOT_PAPER and index


def _has_index(hsv: np.ndarray, light: float) -> bool:
    """Ink in the index box of at least one corner."""
    ink = ((hsv[:, :, 2].astype(np.float32) < 0.7 * light)
           | (hsv[:, :, 1] > 2 * PAPER_SATURATION)).astype(np.uint8)
    bw, bh = round(CORNER_BOX[0] * W), round(CORNER_BOX[1] * H)
    for x in (M + 2, M + W - 2 - bw):
        for y in (M + 2, M + H - 2 - bh):
            share = float(ink[y:y + bh, x:x + bw].mean())
            if INK[0] <= share <= INK[1]:
                return True
    return False


PAIR_ROWS = (0.3, 0.7)   # where along an outline two cards side by side may meet
PAIR_LINE = 0.7          # share of the way across that the line between them is an edge
PAIR_EDGE = 24.0         # grey-level step (Sobel, blurred) of that edge


def parted(frame: np.ndarray, quad: np.ndarray) -> list[np.ndarray] | None:
    """Two cards side by side (touching or overlapping) taken as one outline: their two
    widths make a card's shape too. The line where they meet is a straight edge right across
    the outline, near its middle; cut there, each half must look like a card. The halves,
    or None when the outline is not such a pair."""
    both = _upright_pair(frame, quad)
    row = _line_across(both)
    if row is None:
        return None
    w, h = 2 * W, 2 * H
    # each card's margin is paper along the line (a court's picture ends at a line too)
    hsv = cv2.cvtColor(both, cv2.COLOR_BGR2HSV)
    paper = _paper(hsv, float(np.percentile(hsv[:, :, 2], 80)))
    cols = slice(round(0.08 * w), round(0.92 * w))
    if min(paper[row - 7:row - 2, cols].mean(), paper[row + 3:row + 8, cols].mean()) < 0.6:
        return None
    f = float(row) / h
    q = quad.astype(np.float32)
    right, left = q[1] + f * (q[2] - q[1]), q[0] + f * (q[3] - q[0])
    halves = [order_corners(np.array([q[0], q[1], right, left], np.float32)),
              order_corners(np.array([left, right, q[2], q[3]], np.float32))]
    return halves if all(looks_like_card(frame, half) for half in halves) else None


def _upright_pair(frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The outline straightened, 2W x 2H (its short side along the top)."""
    w, h = 2 * W, 2 * H
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    return cv2.warpPerspective(frame, m, (w, h), flags=cv2.INTER_AREA)


def _line_across(both: np.ndarray) -> int | None:
    """The row of a straight edge right across a straightened outline near its middle (where
    two cards side by side would meet), or None."""
    w, h = both.shape[1], both.shape[0]
    gray = cv2.cvtColor(both, cv2.COLOR_BGR2GRAY)
    step = np.abs(cv2.Sobel(cv2.GaussianBlur(gray, (3, 3), 0), cv2.CV_32F, 0, 1, ksize=3))
    rows = np.arange(round(PAIR_ROWS[0] * h), round(PAIR_ROWS[1] * h))
    across = step[:, round(0.08 * w):round(0.92 * w)] > PAIR_EDGE
    # a line a pixel or so aslant: take the best of each row and its neighbours
    line = np.maximum.reduce([across[rows - 1], across[rows], across[rows + 1]]).mean(axis=1)
    best = int(np.argmax(line))
    return int(rows[best]) if line[best] >= PAIR_LINE else None


def line_across(frame: np.ndarray, quad: np.ndarray) -> bool:
    """Whether a straight edge runs right across the outline near its middle, as where two
    cards side by side meet (or a line printed across one card)."""
    return _line_across(_upright_pair(frame, quad)) is not None
