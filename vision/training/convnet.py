"""The small convolutional networks the table reads with (the corner reader, the middle
check): their shape, initialisation from a seed, forward pass and training (JAX on the CPU)
and export to ONNX of plain operators (Conv, Relu, MaxPool, Flatten, Gemm, opset 11), which
OpenCV's dnn module has read since long before 4.6.

A network is 3x3 convolutions, each followed by ReLU and the first `pools` of them by a 2x2
max-pool, then one hidden layer (ReLU) and the logits.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

Params = dict[str, np.ndarray]


@dataclass(frozen=True)
class Shape:
    """A network's input (3 x height x width), convolutions and outputs."""

    height: int
    width: int
    channels: tuple[int, ...]
    pools: int
    hidden: int
    outputs: int


def init(shape: Shape, seed: int) -> Params:
    """He-initialised weights from the seed, zero biases."""
    rng = np.random.default_rng(seed)
    params: Params = {}
    c_in = 3
    for i, c_out in enumerate(shape.channels):
        params[f"conv{i}_w"] = (rng.normal(0, np.sqrt(2 / (c_in * 9)), (c_out, c_in, 3, 3))
                                .astype(np.float32))
        params[f"conv{i}_b"] = np.zeros(c_out, np.float32)
        c_in = c_out
    side = 2 ** shape.pools
    flat = shape.channels[-1] * (shape.height // side) * (shape.width // side)
    params["fc0_w"] = rng.normal(0, np.sqrt(2 / flat), (shape.hidden, flat)).astype(np.float32)
    params["fc0_b"] = np.zeros(shape.hidden, np.float32)
    params["fc1_w"] = (rng.normal(0, np.sqrt(1 / shape.hidden), (shape.outputs, shape.hidden))
                       .astype(np.float32))
    params["fc1_b"] = np.zeros(shape.outputs, np.float32)
    return params


def forward(shape: Shape, params: Any, x: Any) -> Any:
    """Logits for a batch N x 3 x H x W (JAX arrays)."""
    import jax
    import jax.numpy as jnp

    for i in range(len(shape.channels)):
        x = jax.lax.conv_general_dilated(x, params[f"conv{i}_w"], (1, 1), "SAME",
                                         dimension_numbers=("NCHW", "OIHW", "NCHW"))
        x = jax.nn.relu(x + params[f"conv{i}_b"][None, :, None, None])
        if i < shape.pools:
            x = jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 1, 2, 2), (1, 1, 2, 2),
                                      "VALID")
    x = x.reshape(x.shape[0], -1)
    x = jax.nn.relu(x @ params["fc0_w"].T + params["fc0_b"])
    return x @ params["fc1_w"].T + params["fc1_b"]


def cross_entropy(logits: Any, labels: Any, classes: int) -> Any:
    """Per-sample cross entropy; a label below 0 is "cannot tell": every class equally
    likely."""
    import jax
    import jax.numpy as jnp

    target = jnp.where(labels[:, None] < 0, 1.0 / classes, jax.nn.one_hot(labels, classes))
    return -(target * jax.nn.log_softmax(logits)).sum(axis=-1)


def elapsed_log() -> Callable[[str], None]:
    """A log that prints each line after the seconds since it was made."""
    start = time.monotonic()

    def log(text: str) -> None:
        print(f"[{time.monotonic() - start:6.0f} s] {text}", flush=True)
    return log


def train(shape: Shape, x: np.ndarray, labels: tuple[np.ndarray, ...],
          loss: Callable[[Any, tuple[Any, ...]], Any], seed: int, steps: int,
          prepare: Callable[[np.ndarray], np.ndarray] | None = None, batch: int = 128,
          log: Callable[[str], None] = print, log_every: int = 250) -> Params:
    """Adam with a cosine-decayed rate and light weight decay, from the seed. `loss(logits,
    labels of the batch)` is the batch's mean loss; `prepare`, if given, makes each batch of
    `x` the network's input (else `x` already is)."""
    import jax
    import optax

    params = {k: jax.numpy.asarray(v) for k, v in init(shape, seed).items()}
    schedule = optax.warmup_cosine_decay_schedule(0.0, 2e-3, min(200, steps // 10 + 1),
                                                  max(steps, 2))
    opt = optax.adamw(schedule, weight_decay=1e-4)
    state = opt.init(params)

    def loss_fn(p: Any, xb: Any, yb: tuple[Any, ...]) -> Any:
        return loss(forward(shape, p, xb), yb)

    @jax.jit
    def step(p: Any, s: Any, xb: Any, yb: tuple[Any, ...]) -> Any:
        value, grads = jax.value_and_grad(loss_fn)(p, xb, yb)
        updates, s = opt.update(grads, s, p)
        return optax.apply_updates(p, updates), s, value

    rng = np.random.default_rng(seed)
    order = rng.permutation(len(x))
    at, running = 0, 0.0
    for n in range(steps):
        if at + batch > len(order):
            order, at = rng.permutation(len(x)), 0
        idx = order[at:at + batch]
        at += batch
        xb = prepare(x[idx]) if prepare is not None else x[idx]
        params, state, value = step(params, state, xb, tuple(y[idx] for y in labels))
        running = 0.98 * running + 0.02 * float(value) if n else float(value)
        if n % log_every == 0 or n == steps - 1:
            log(f"step {n}/{steps}: loss {running:.4f}")
    return {k: np.asarray(v) for k, v in params.items()}


def logits_numpy(shape: Shape, params: Params, x: np.ndarray, batch: int = 1024) -> np.ndarray:
    """The network run by JAX on prepared input N x 3 x H x W."""
    import jax

    run = jax.jit(lambda p, xb: forward(shape, p, xb))
    if not len(x):
        return np.zeros((0, shape.outputs), np.float32)
    return np.concatenate([np.asarray(run(params, x[i:i + batch]))
                           for i in range(0, len(x), batch)])


def export_onnx(shape: Shape, params: Params, path: Path, name: str, producer: str) -> None:
    """The network as an ONNX graph of plain operators (opset 11), input N x 3 x H x W."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    nodes, inits = [], []
    x = "input"
    for i in range(len(shape.channels)):
        inits += [numpy_helper.from_array(params[f"conv{i}_w"], f"conv{i}_w"),
                  numpy_helper.from_array(params[f"conv{i}_b"], f"conv{i}_b")]
        nodes.append(helper.make_node("Conv", [x, f"conv{i}_w", f"conv{i}_b"], [f"c{i}"],
                                      kernel_shape=[3, 3], pads=[1, 1, 1, 1]))
        nodes.append(helper.make_node("Relu", [f"c{i}"], [f"r{i}"]))
        x = f"r{i}"
        if i < shape.pools:
            nodes.append(helper.make_node("MaxPool", [x], [f"p{i}"], kernel_shape=[2, 2],
                                          strides=[2, 2]))
            x = f"p{i}"
    nodes.append(helper.make_node("Flatten", [x], ["flat"], axis=1))
    for j, (src, dst) in enumerate((("flat", "h0"), ("h1", "logits"))):
        inits += [numpy_helper.from_array(params[f"fc{j}_w"], f"fc{j}_w"),
                  numpy_helper.from_array(params[f"fc{j}_b"], f"fc{j}_b")]
        nodes.append(helper.make_node("Gemm", [src, f"fc{j}_w", f"fc{j}_b"], [dst], transB=1))
        if j == 0:
            nodes.append(helper.make_node("Relu", ["h0"], ["h1"]))
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("input", TensorProto.FLOAT,
                                       ["N", 3, shape.height, shape.width])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["N", shape.outputs])],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)],
                              producer_name=producer)
    model.ir_version = 7
    onnx.checker.check_model(model)
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))
