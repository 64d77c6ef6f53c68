"""Nearest-neighbour matching of corner indices in a space that separates the cards.

The stored patches are multiplied into many camera-like copies; a linear discriminant (LDA)
projection is learnt from them, which weighs what tells the 24 faces apart (the suit pip, the
rank glyph) above what differs between decks and shots. A new corner is projected and each
card scores the squared distance to its nearest stored copy.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass

import numpy as np

from .faces import default_cache_dir
from .index import degrade, features

VERSION = 1          # bump when features or training change, so cached matchers are rebuilt
COPIES = 12          # camera-like copies made of every stored patch
RIDGE = 0.02         # keeps the within-card scatter invertible
MIN_COPIES = 12


@dataclass(frozen=True)
class Matcher:
    mean: np.ndarray      # D
    project: np.ndarray   # D x K
    refs: np.ndarray      # M x K, sorted by card
    starts: np.ndarray    # first row of each card in refs
    cards: np.ndarray     # the card index of each group

    @classmethod
    def train(cls, patches: np.ndarray, cards: np.ndarray, seed: int = 0) -> Matcher:
        rng = np.random.default_rng(seed)
        copies = max(MIN_COPIES, COPIES * 384 // max(len(patches), 1))
        copies = min(copies, 160)
        feats = features(np.concatenate([degrade(p, rng, copies) for p in patches]))
        labels = np.repeat(cards, copies)
        mean = feats.mean(axis=0)
        classes, index = np.unique(labels, return_inverse=True)
        class_means = np.stack([feats[index == i].mean(axis=0) for i in range(len(classes))])
        centred = feats - class_means[index]
        within = (centred.T @ centred).astype(np.float64) / len(feats)
        spread = (class_means - mean) * np.sqrt(np.bincount(index) / len(feats))[:, None]
        within += RIDGE * np.trace(within) / len(within) * np.eye(len(within))
        # Whiten by the Cholesky factor of the within-card scatter (within = L L^T); the
        # between-card scatter has rank below the number of cards, so its eigenvectors come
        # from a small matrix.
        chol = np.linalg.cholesky(within)
        white_spread = np.linalg.solve(chol, spread.T.astype(np.float64)).T   # cards x D
        vals, vecs = np.linalg.eigh(white_spread @ white_spread.T)
        keep = max(1, len(classes) - 1)
        top = np.argsort(vals)[::-1][:keep]
        directions = white_spread.T @ vecs[:, top] / np.sqrt(np.maximum(vals[top], 1e-12))
        project = np.linalg.solve(chol.T, directions).astype(np.float32)
        order = np.argsort(labels, kind="stable")
        refs = (feats[order] - mean) @ project
        sorted_labels = labels[order]
        starts = np.searchsorted(sorted_labels, classes)
        return cls(mean.astype(np.float32), project, refs.astype(np.float32), starts, classes)

    @classmethod
    def cached(cls, patches: np.ndarray, cards: np.ndarray) -> Matcher:
        """`train`, or its result saved earlier under the cache folder for the same patches."""
        key = hashlib.sha1(patches.tobytes() + cards.astype(np.int64).tobytes()
                           + f"{VERSION} {COPIES} {RIDGE}".encode()).hexdigest()[:16]
        path = default_cache_dir().parent / "matchers" / f"{key}.npz"
        if path.exists():
            try:
                with np.load(path) as data:
                    return cls(*(data[f] for f in ("mean", "project", "refs", "starts", "cards")))
            except (OSError, ValueError, KeyError):
                pass  # a damaged cache file is simply rebuilt
        matcher = cls.train(patches, cards)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
            np.savez(tmp, mean=matcher.mean, project=matcher.project, refs=matcher.refs,
                     starts=matcher.starts, cards=matcher.cards)
            tmp.replace(path)
        except OSError:
            pass  # no writable cache: train again next time
        return matcher

    def distances(self, windows: np.ndarray) -> np.ndarray:
        """Squared distance of each window to its nearest copy of each card: windows x cards."""
        z = (features(windows) - self.mean) @ self.project
        d = (np.sum(z * z, axis=1)[:, None] - 2 * z @ self.refs.T
             + np.sum(self.refs * self.refs, axis=1)[None, :])
        return np.minimum.reduceat(d, self.starts, axis=1)
