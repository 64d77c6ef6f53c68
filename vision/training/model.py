"""The corner network (vision/training/convnet.py), its training from a seed and its export.

Input 3 x 88 x 40 (vision.corners.prepare); three 3x3 convolutions each followed by ReLU and a
2x2 max-pool (8, 16, 32 channels by default), a fourth 3x3 convolution (64), then a 128-unit
hidden layer and RANKS + SUITS logits. About 480,000 weights (730,000 at channels 12, 24, 48,
96).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.corners import RANKS, SUITS, WINDOW_H, WINDOW_W, prepare

from . import convnet
from .convnet import Params

CHANNELS = (8, 16, 32, 64)
HIDDEN = 128
# Share of the training windows seen closer, and how much closer at most (see `closer`).
CLOSER_SHARE, CLOSER_MOST = 0.5, 1.3


def shape(channels: tuple[int, ...] = CHANNELS) -> convnet.Shape:
    if len(channels) != len(CHANNELS):
        raise ValueError(f"the network has {len(CHANNELS)} convolutions, not {len(channels)}")
    return convnet.Shape(WINDOW_H, WINDOW_W, tuple(channels), 3, HIDDEN, RANKS + SUITS)


def _loss(logits: Any, labels: tuple[Any, ...]) -> Any:
    import jax.numpy as jnp

    ranks, suits = labels
    return jnp.mean(convnet.cross_entropy(logits[:, :RANKS], ranks, RANKS)
                    + convnet.cross_entropy(logits[:, RANKS:], suits, SUITS))


def closer(windows: np.ndarray, rng: np.random.Generator, share: float = CLOSER_SHARE,
           most: float = CLOSER_MOST) -> np.ndarray:
    """About `share` of the corner windows seen up to `most` times closer: the first
    WINDOW_W / z x WINDOW_H / z pixels of the corner at the window's size (z log-uniform from
    1). An index bigger than the designs print (a jumbo index can reach 16 mm), or an outline
    found inside the card's edge, comes out so."""
    out = windows.copy()
    for i in np.flatnonzero(rng.random(len(windows)) < share):
        z = float(np.exp(rng.uniform(0.0, np.log(most))))
        part = windows[i, :round(WINDOW_H / z), :round(WINDOW_W / z)]
        out[i] = cv2.resize(part, (WINDOW_W, WINDOW_H), interpolation=cv2.INTER_LINEAR)
    return out


def train(x: np.ndarray, ranks: np.ndarray, suits: np.ndarray, seed: int, steps: int,
          batch: int = 128, log: Callable[[str], None] = print,
          channels: tuple[int, ...] = CHANNELS, most: float = CLOSER_MOST) -> Params:
    """`x` corner windows (uint8), their ranks and suits (below 0: cannot tell); each batch
    with some windows seen closer (`closer`, up to `most`; 1: none)."""
    rng = np.random.default_rng(seed + 1)
    return convnet.train(shape(channels), x, (ranks, suits), _loss, seed, steps,
                         prepare=lambda xb: prepare(closer(xb, rng, most=most)
                                                    if most > 1 else xb),
                         batch=batch, log=log)


def logits_numpy(params: Params, x: np.ndarray) -> np.ndarray:
    """The network run by JAX on corner windows (uint8), to check cv2.dnn's."""
    channels = tuple(params[f"conv{i}_b"].shape[0] for i in range(len(CHANNELS)))
    return convnet.logits_numpy(shape(channels), params, prepare(x))


def export_onnx(params: Params, path: Path) -> None:
    channels = tuple(params[f"conv{i}_b"].shape[0] for i in range(len(CHANNELS)))
    convnet.export_onnx(shape(channels), params, path, "corner_reader", "vision.training")
