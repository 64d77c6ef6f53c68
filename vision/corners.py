"""The corner reader: a small convolutional network (vision/data/corner_reader.onnx, trained by
`python -m vision.training` on many deck designs) that reads the rank and the suit printed in a
card's index corner, or says there is none. It runs through OpenCV's dnn module, so it needs
nothing beyond OpenCV (4.6 on the Pi).

Each of a card's two index corners (vision/index.py) is read on its own (at each of the
`zooms` stored with the model, their log-probabilities averaged, so that an outline found a
pixel or two off can sway the reading less; the shipped JSON reads it once), and the two readings
are pooled (`combine`): each corner's log-probabilities weighted by what it tells, so that a
corner that cannot tell (one under another card or a thumb: trained to say every rank, or every
suit, is equally likely) or sees no index (`hidden`) leaves the other to decide, and two corners
naming different cards cancel out. The confidence is the pooled probability of the rank times
that of the suit. How the corners pool (`independence`, `hidden`) and the threshold below which
a reading names no card (`abstain_below`) were set on designs left out of training, shots with
one corner covered among them, with the zooms; they are stored beside the model with the designs
it was trained and calibrated on.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from .index import corner_windows

# One index corner of a READ_SIZE card as the model sees it: 20 x 44 mm, room for a jumbo
# index (a rank 15 mm tall, its pip reaching 40 mm below the edge) with the outline a little off.
WINDOW_W, WINDOW_H = 40, 88
RANKS = 7                         # int(Rank) 0-5 (nine to ace), then OTHER_RANK
SUITS = 5                         # Suit.index 0-3 (spades, hearts, clubs, diamonds), then NO_SUIT
OTHER_RANK, NO_SUIT = 6, 4
DATA = Path(__file__).resolve().parent / "data"
MODEL = DATA / "corner_reader.onnx"
META = DATA / "corner_reader.json"


def prepare(windows: np.ndarray) -> np.ndarray:
    """N x WINDOW_H x WINDOW_W x 3 BGR corners -> the network's input, N x 3 x H x W float32:
    each colour channel divided by the paper's white (so lamp colour and brightness drop out),
    centred on grey."""
    x = windows.astype(np.float32)
    flat = x.reshape(len(x), -1, 3)
    k = int(0.9 * flat.shape[1])
    white = np.partition(flat, k, axis=1)[:, k].reshape(len(x), 1, 1, 3)
    scaled = np.clip(x / np.maximum(white, 24.0), 0.0, 1.5) - 0.5
    return np.ascontiguousarray(scaled.transpose(0, 3, 1, 2), dtype=np.float32)


def corner_views(card: np.ndarray, zooms: Sequence[float] = (1.0,)) -> np.ndarray:
    """Both index corners of a READ_SIZE card at each zoom, zoom by zoom: (2 * len(zooms)) x
    WINDOW_H x WINDOW_W x 3. Zoom z shows the first WINDOW_W / z x WINDOW_H / z pixels of the
    corner at the window's size: above 1 the index comes out bigger, below 1 smaller."""
    out = []
    for zoom in zooms:
        for window in corner_windows(card, round(WINDOW_W / zoom), round(WINDOW_H / zoom)):
            out.append(window if window.shape[:2] == (WINDOW_H, WINDOW_W) else
                       cv2.resize(window, (WINDOW_W, WINDOW_H),
                                  interpolation=cv2.INTER_AREA if zoom < 1 else cv2.INTER_LINEAR))
    return np.stack(out)


def log_softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def heads_log_p(logits: np.ndarray) -> np.ndarray:
    """Logits (..., RANKS + SUITS) -> each head's log-probabilities, side by side."""
    return np.concatenate([log_softmax(logits[..., :RANKS]), log_softmax(logits[..., RANKS:])],
                          axis=-1)


@dataclass(frozen=True)
class CornerReading:
    """Probabilities of each rank (RANKS) and suit (SUITS) from both corners together."""

    rank: np.ndarray
    suit: np.ndarray

    @property
    def best(self) -> tuple[int, int]:
        return int(self.rank.argmax()), int(self.suit.argmax())

    @property
    def names_card(self) -> bool:
        """Whether the likeliest rank and suit are a pinochle card's."""
        rank, suit = self.best
        return rank != OTHER_RANK and suit != NO_SUIT

    @property
    def confidence(self) -> float:
        """Probability that the best rank and the best suit are both right."""
        return float(self.rank.max() * self.suit.max())

    def without(self, ranks: Collection[int]) -> CornerReading:
        """This reading told that the card is of none of `ranks` (int(Rank)): their
        probability shared out over the other ranks in proportion (Bayes' rule)."""
        if not ranks:
            return self
        rank = self.rank.copy()
        rank[list(ranks)] = 0.0
        total = float(rank.sum())
        return CornerReading(rank / total, self.suit) if total > 0 else self

    def ranked_cards(self, count: int = 2) -> list[tuple[int, float]]:
        """The likeliest pinochle cards (index, probability), best first."""
        p = np.outer(self.suit[:NO_SUIT], self.rank[:OTHER_RANK]).ravel()   # suit * 6 + rank
        order = np.argsort(p)[::-1][:count]
        return [(int(i), float(p[i])) for i in order]


def pool(log_p: np.ndarray, independence: float, hidden: float = 0.0) -> np.ndarray:
    """Log-probabilities of one head from each corner (N x classes, the last one "no index
    here": OTHER_RANK or NO_SUIT) -> the card's, pooled.

    A corner may show no index because something covers it: `hidden` is how likely that is
    for a card's corner at the table, so a corner's "no index here" also counts, `hidden`
    times as much, for every card alike (a card under another says nothing of which it is;
    both corners seeing no index still name none). Then log-linear pooling: each
    corner's log-probabilities weighted by what it tells, its information (log classes -
    entropy: 0 for "cannot tell", log classes when sure). A corner that cannot tell gets no
    weight, whatever the other says, so one corner read alone keeps its own confidence.
    Between two corners that both tell, `independence` says how their evidence adds up: 0,
    as if they erred together (the same print, the same lamp), is their information-weighted
    mean; 1, as if they erred independently, is the product rule (log-probabilities summed).
    Two corners naming different cards pull apart, and the pooled probability stays low."""
    like = np.exp(log_p.astype(np.float64))
    like[:, :-1] += hidden * like[:, -1:]
    log_like = np.log(like) - np.log(like.sum(axis=1, keepdims=True))
    info = np.maximum(np.log(like.shape[1]) + (np.exp(log_like) * log_like).sum(axis=1), 0.0)
    scale = (1 - independence) * info.sum() + independence * info.max()
    weights = info / max(scale, 1e-9)
    return log_softmax((weights[:, None] * log_like).sum(axis=0))


def combine(logits: np.ndarray, independence: float = 0.0, hidden: float = 0.0
            ) -> CornerReading:
    """Per-corner logits or log-probabilities (N x (RANKS + SUITS); each head is normalised
    here, which leaves log-probabilities as they are) -> one reading of the card (see `pool`).

    The pooled card must be one that some corner reads on its own (its likeliest rank and
    suit): else, as when an outline holds parts of two cards, the suit one corner is surer of
    and the rank the other is surer of would make a card neither corner shows. Then the
    corners are pooled as a mixture, either as likely to be the card's (and stay unsure)."""
    ranks, suits = log_softmax(logits[:, :RANKS]), log_softmax(logits[:, RANKS:])
    pooled = CornerReading(np.exp(pool(ranks, independence, hidden)),
                           np.exp(pool(suits, independence, hidden)))
    own = zip(ranks.argmax(axis=1).tolist(), suits.argmax(axis=1).tolist(), strict=True)
    if pooled.best in own:
        return pooled
    return CornerReading(np.exp(ranks).mean(axis=0), np.exp(suits).mean(axis=0))


class CornerReader:
    """The network loaded through cv2.dnn, with its calibrated abstain threshold and pooling."""

    def __init__(self, model: Path = MODEL, meta: Path = META) -> None:
        try:
            info = json.loads(meta.read_text())
            # More networks (trained apart, stored beside the model) read with it: their
            # log-probabilities are averaged, and the threshold was calibrated so.
            self.nets = [cv2.dnn.readNetFromONNX(str(path)) for path in
                         [model] + [model.parent / e["file"] for e in info.get("ensemble", [])]]
        except (cv2.error, OSError, ValueError, KeyError, TypeError) as exc:
            raise RuntimeError(f"the corner reader {model} cannot be loaded ({exc}): "
                               "reinstall, or retrain with `python -m vision.training`") from None
        self.abstain_below = float(info["abstain_below"])
        # How two corners are pooled (see `pool`), set by calibration with the threshold
        # (a model calibrated before they were stored averaged its corners, much as 0, 0 do).
        self.independence = float(info.get("independence", 0.0))
        self.hidden = float(info.get("hidden", 0.0))
        # Each corner is read at these zooms, their log-probabilities averaged (see
        # `corner_log_p`; a model calibrated before they were stored read it once, as is).
        self.zooms = tuple(float(z) for z in info.get("zooms", [1.0]))

    def logits(self, windows: np.ndarray) -> np.ndarray:
        """N x WINDOW_H x WINDOW_W x 3 BGR corners -> N x (RANKS + SUITS) logits (of a
        single network; of several, each head's log-probabilities averaged over them)."""
        x = prepare(windows)
        out = []
        for net in self.nets:
            net.setInput(x)
            out.append(np.asarray(net.forward(), np.float32).reshape(len(windows), -1))
        if len(out) == 1:
            return out[0]
        return np.asarray(heads_log_p(np.stack(out)).mean(axis=0), np.float32)

    def corner_log_p(self, cards: Sequence[np.ndarray], zooms: Sequence[float] | None = None
                     ) -> np.ndarray:
        """Each READ_SIZE card's two corners, each read at every zoom (`self.zooms` unless
        given): log-probabilities of each head averaged over the zooms, N x 2 x (RANKS + SUITS).
        (Averaged, not the surest kept: keeping the surest of a few crops named more wrong
        cards on the calibration decks than it rescued.)"""
        zooms = self.zooms if zooms is None else tuple(zooms)
        logits = self.logits(np.concatenate([corner_views(c, zooms) for c in cards]))
        log_p = heads_log_p(logits.reshape(len(cards), len(zooms), 2, -1))
        return np.asarray(log_p.mean(axis=1), np.float32)

    def read(self, card: np.ndarray) -> CornerReading:
        """Both index corners of a READ_SIZE portrait card, read together."""
        return combine(self.corner_log_p([card])[0], self.independence, self.hidden)


@lru_cache(maxsize=1)
def corner_reader() -> CornerReader:
    """The reader of MODEL and META (loaded once)."""
    return CornerReader(MODEL, META)
