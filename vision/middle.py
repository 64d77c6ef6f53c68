"""The middle of a card as a check on its corners: rows of pips (a nine or a ten), a picture
(a king, queen or jack) or one pip (an ace); a covered middle rules nothing out.

A corner index read wrong most often names a card of another kind (a nine of clubs read as a
queen); the middle of the face tells them apart without reading the index. Two looks, each
vetoing one way, both with thresholds set on designs left out of training (the JSON beside the
model):
- `pip_count`, measured: ink blobs of one size in the middle, the index corners left out (and
  ink those corners cut, unless mirrored across the middle as pips are: a jumbo rank's rest). A
  reading of a court card or an ace is vetoed when it finds `pip_rows` or more and they make up
  nearly all the ink there (a picture, or another card lying over the middle, adds other ink).
  It tells a nine or a ten surely, but sees no pips in many of them (touching pips, a soft shot).
  A nine is vetoed when it counts ten pips or more (a ten's); not the other way round: a ten's
  pip lost (under a thumb, two touching) counts nine far more often than a nine counts ten.
- a small convolutional network (middle_check.onnx, trained by `python -m
  vision.training.middle` on the training designs) gives the probability that the middle shows
  pips, a picture or one pip, taught "every kind alike" when something lies over it. A reading
  of a nine or a ten is vetoed when it finds pips less likely than `veto_below`. (Its word on
  court cards is not used: a cartoon king without a frame looks like pips to it, a crown alone
  like an ace.)
Both run on the READ_SIZE portrait card (vision.index), through OpenCV alone. Pips in rows
(`shows_pips`) also firm up an unsure reading of a nine or a ten in vision.reading.
"""


from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from table.rules import Rank

from .index import READ_H, READ_W

PIPS, COURT, ACE = 0, 1, 2          # what a middle shows (the network's outputs, in order)
TEN_PIPS = 10                       # the pips in a ten's middle
KINDS = 3
VIEW_W, VIEW_H = 40, 56             # the network's input: the card at about 0.64 px per mm
# The index corners painted over (READ_SIZE pixels, 2 per mm: 11 x 30 mm), so that the check
# sees the middle alone and does not read the index (it would err with the corner reader).
INDEX_W, INDEX_H = 22, 60
DATA = Path(__file__).resolve().parent / "data"
MODEL = DATA / "middle_check.onnx"
META = DATA / "middle_check.json"


def kind_of(rank: int) -> int:
    """What the middle of a card of this rank (int(Rank)) shows."""
    if rank == Rank.ACE:
        return ACE
    return PIPS if rank in (Rank.NINE, Rank.TEN) else COURT


# The ranks (int(Rank)) whose middle shows no pips: the court cards and the ace.
NOT_PIPS = frozenset(int(r) for r in Rank if kind_of(int(r)) != PIPS)


def middle_view(card: np.ndarray) -> np.ndarray:
    """A READ_SIZE BGR card -> its middle as the network sees it: the index corners filled with
    the card's paper colour, the whole shrunk to VIEW_H x VIEW_W x 3 (uint8)."""
    if card.shape[:2] != (READ_H, READ_W):
        raise ValueError(f"the middle check reads a {READ_W}x{READ_H} card, "
                         f"not {card.shape[1]}x{card.shape[0]}")
    out = card.copy()
    paper = [_percentile_90(channel) for channel in cv2.split(card)]
    out[:INDEX_H, :INDEX_W] = paper
    out[READ_H - INDEX_H:, READ_W - INDEX_W:] = paper
    return cv2.resize(out, (VIEW_W, VIEW_H), interpolation=cv2.INTER_AREA)


def prepare(views: np.ndarray) -> np.ndarray:
    """N x VIEW_H x VIEW_W x 3 BGR views -> the network's input, N x 3 x H x W float32: each
    colour channel divided by the card's white (lamp colour and brightness drop out), centred.
    (As vision.corners.prepare does today, but kept apart: this network was trained on this
    input, whatever the corner reader's next network takes.)"""
    x = views.astype(np.float32)
    flat = x.reshape(len(x), -1, 3)
    k = int(0.9 * flat.shape[1])
    white = np.partition(flat, k, axis=1)[:, k].reshape(len(x), 1, 1, 3)
    scaled = np.clip(x / np.maximum(white, 24.0), 0.0, 1.5) - 0.5
    return np.ascontiguousarray(scaled.transpose(0, 3, 1, 2), dtype=np.float32)


def softmax(logits: np.ndarray) -> np.ndarray:
    z = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return np.asarray(z / z.sum(axis=-1, keepdims=True), np.float64)


@dataclass
class MiddleCheck:
    """The network loaded through cv2.dnn, with the calibrated thresholds of both looks."""

    net: cv2.dnn.Net
    veto_below: float      # a nine or ten whose middle shows pips less likely than this is out
    pip_rows: int          # a court card or an ace whose middle shows this many pips is out

    @classmethod
    def load(cls, model: Path = MODEL, meta: Path = META) -> MiddleCheck:
        try:
            net = cv2.dnn.readNetFromONNX(str(model))
            info = json.loads(meta.read_text())
            return cls(net, float(info["veto_below"]), int(info["pip_rows"]))
        except (cv2.error, OSError, ValueError, KeyError) as exc:
            raise RuntimeError(f"the middle check {model} cannot be loaded ({exc}): "
                               "reinstall, or retrain with `python -m vision.training.middle`"
                               ) from None

    def kinds(self, cards: list[np.ndarray] | np.ndarray) -> np.ndarray:
        """READ_SIZE cards -> N x KINDS probabilities (pips, court, ace) of their middles."""
        if len(cards) == 0:
            return np.zeros((0, KINDS))
        return self.kinds_of_views(np.stack([middle_view(c) for c in cards]))

    def kinds_of_views(self, views: np.ndarray) -> np.ndarray:
        """Middle views (`middle_view`), N x VIEW_H x VIEW_W x 3 -> N x KINDS probabilities."""
        self.net.setInput(prepare(views))
        return softmax(np.asarray(self.net.forward(), np.float32).reshape(len(views), KINDS))

    def rules_out(self, rank: int, pips_likely: float, pips: int) -> bool:
        """Whether a middle rules out a card of `rank` (int(Rank)): a nine or a ten whose
        middle the network finds unlikely to show pips (`pips_likely`), a nine whose middle
        shows a ten's pips, a court card or an ace whose middle shows `pips` (pip_count) in
        rows."""
        if kind_of(rank) == PIPS:
            return pips_likely < self.veto_below or (rank == Rank.NINE and pips >= TEN_PIPS)
        return pips >= self.pip_rows

    def shows_pips(self, card: np.ndarray) -> bool:
        """Whether the middle of a READ_SIZE card shows pips in rows (`pip_rows` or more, nearly
        all its ink): no court card's and no ace's. (Measured, unlike the network's word, which
        takes another card's picture lying over the middle for this card's.)"""
        return pip_count(card) >= self.pip_rows

    def allows(self, card: np.ndarray, rank: int, covered: bool = False) -> bool:
        """Whether the middle of a READ_SIZE card leaves a reading of `rank` standing (only the
        looks that can rule it out are taken). A middle `covered` by another card shows that
        card's face and rules nothing out: the network takes a picture over it for this
        card's, and the pips counted may be the other card's (in a hand, the top card's over
        the middle of those under it vetoed 16 right readings on the tuning seed's rendered
        hands, and no wrong one there or in its mixed layouts)."""
        if covered:
            return True
        if kind_of(rank) == PIPS:
            return not self.rules_out(rank, float(self.kinds([card])[0, PIPS]),
                                      pip_count(card) if rank == Rank.NINE else 0)
        return not self.rules_out(rank, 1.0, pip_count(card))


@lru_cache(maxsize=1)
def middle_check() -> MiddleCheck:
    """The check of MODEL and META (loaded once)."""
    return MiddleCheck.load(MODEL, META)


# The pip count (tuned on the training designs; its threshold, pip_rows, is calibrated).
INK = 0.55            # a pixel this dark in some channel, against the card's white, is ink
BORDER = 8            # READ_SIZE pixels along each edge left out (cloth past an outline off)
PIP_AREA = (20, 700)  # a pip's ink in READ_SIZE pixels (5 to 14 mm across)
PIP_ASPECT = 2.5      # a pip is at most this much wider than tall, or taller than wide
ALIKE = 2.0           # pips of one card differ in area by at most this factor from the median
PIP_SHARE = 0.85      # pips are at least this share of the middle's ink
SIDE = 26             # ink centred nearer an edge than this (13 mm) is an index's, not the middle's
MIRROR = 6            # how far (3 mm) a pip's mirror image across the middle may be from a pip


def _index_corners() -> tuple[np.ndarray, np.ndarray]:
    """The index corners the pip count leaves out (a READ_SIZE boolean mask), and the pixels
    just beside them."""
    corners = np.zeros((READ_H, READ_W), np.uint8)
    for rows in (slice(0, INDEX_H), slice(READ_H - INDEX_H, READ_H)):   # some decks have
        for cols in (slice(0, INDEX_W), slice(READ_W - INDEX_W, READ_W)):   # four indices
            corners[rows, cols] = 1
    return corners > 0, cv2.dilate(corners, np.ones((3, 3), np.uint8)) > corners


_CORNERS, _BESIDE_CORNERS = _index_corners()


def ink_mask(card: np.ndarray) -> np.ndarray:
    """1 where a pixel of a uint8 BGR card is this dark in some channel against the card's
    white (each channel's 90th percentile), else 0: looked up in a table of the 256 levels per
    channel, the same as dividing every pixel at a fraction of the time."""
    blue, green, red = (cv2.LUT(channel, _dark_levels(_percentile_90(channel)))
                        for channel in cv2.split(card))
    return cv2.bitwise_or(cv2.bitwise_or(blue, green), red)


def _dark_levels(white: float) -> np.ndarray:
    """1 for each of the 256 levels of a channel that is ink against its `white`."""
    levels = np.arange(256, dtype=np.float32)
    return (levels / np.maximum(np.float32(white), 24.0) < INK).astype(np.uint8)


def _percentile_90(channel: np.ndarray) -> float:
    """np.percentile(channel, 90) of a uint8 channel (linear between order statistics), from
    its histogram."""
    position = 0.9 * (channel.size - 1)
    below = int(position)
    counts = np.cumsum(np.bincount(channel.ravel(), minlength=256))
    low = int(np.searchsorted(counts, below, side="right"))
    if position == below:
        return float(low)
    high = int(np.searchsorted(counts, below + 1, side="right"))
    return low + (high - low) * (position - below)


def pip_count(card: np.ndarray) -> int:
    """How many pips the middle of a READ_SIZE card shows in rows: ink blobs of one size, if
    they make up nearly all the ink there (else 0: a picture, or another card over it)."""
    ink = ink_mask(card)
    ink[_CORNERS] = 0
    ink[:BORDER] = 0
    ink[READ_H - BORDER:] = 0
    ink[:, :BORDER] = 0
    ink[:, READ_W - BORDER:] = 0
    count, labels, stats, centres = cv2.connectedComponentsWithStats(ink, connectivity=8)
    # A jumbo rank is wider than the corner left out, and the rest of it (an arc of a 9, the 0
    # of a 10) can be as big as a pip. Pips are laid out the same on the left and the right, so
    # ink cut by a corner is a pip only if its mirror image across the middle is one too.
    blobs = stats[:, cv2.CC_STAT_AREA]
    alone = np.zeros(count, bool)
    for label in set(labels[_BESIDE_CORNERS].tolist()) - {0}:
        mirror = np.hypot(centres[:, 0] - (READ_W - 1 - centres[label, 0]),
                          centres[:, 1] - centres[label, 1])
        twin = (mirror <= MIRROR) & (blobs * ALIKE >= blobs[label]) \
            & (blobs <= blobs[label] * ALIKE)
        alone[label] = not twin[1:].any()
    inside = (centres[1:, 0] >= SIDE) & (centres[1:, 0] <= READ_W - SIDE) & ~alone[1:]
    stats = stats[1:][inside]
    areas = stats[:, cv2.CC_STAT_AREA]
    w, h = stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]
    # A pip is a blob about as wide as tall (a card's edge or its shadow is a long line).
    sized = areas[(areas >= PIP_AREA[0]) & (areas <= PIP_AREA[1])
                  & (w <= PIP_ASPECT * h) & (h <= PIP_ASPECT * w)]
    if len(sized) < 2:
        return len(sized) if sized.sum() >= PIP_SHARE * areas.sum() > 0 else 0
    median = float(np.median(sized))
    alike = sized[(sized >= median / ALIKE) & (sized <= median * ALIKE)]
    return len(alike) if alike.sum() >= PIP_SHARE * areas.sum() else 0
