"""The corner network, its training (JAX on the CPU, from a seed) and its export to ONNX.

Input 3 x 88 x 40 (vision.corners.prepare); three 3x3 convolutions each followed by ReLU and a
2x2 max-pool (8, 16, 32 channels by default), a fourth 3x3 convolution (64), then a 128-unit
hidden layer and RANKS + SUITS logits. About 480,000 weights (730,000 at channels 12, 24, 48,
96); only Conv, Relu, MaxPool, Flatten and Gemm, which OpenCV's dnn module has read since long
before 4.6.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from vision.corners import RANKS, SUITS, WINDOW_H, WINDOW_W, prepare

CHANNELS = (8, 16, 32, 64)
HIDDEN = 128
Params = dict[str, np.ndarray]


def init(seed: int, channels: tuple[int, ...] = CHANNELS) -> Params:
    if len(channels) != len(CHANNELS):
        raise ValueError(f"the network has {len(CHANNELS)} convolutions, not {len(channels)}")
    rng = np.random.default_rng(seed)
    params: Params = {}
    c_in = 3
    for i, c_out in enumerate(channels):
        fan_in = c_in * 9
        params[f"conv{i}_w"] = (rng.normal(0, np.sqrt(2 / fan_in), (c_out, c_in, 3, 3))
                                .astype(np.float32))
        params[f"conv{i}_b"] = np.zeros(c_out, np.float32)
        c_in = c_out
    flat = channels[-1] * (WINDOW_H // 8) * (WINDOW_W // 8)
    params["fc0_w"] = rng.normal(0, np.sqrt(2 / flat), (HIDDEN, flat)).astype(np.float32)
    params["fc0_b"] = np.zeros(HIDDEN, np.float32)
    params["fc1_w"] = rng.normal(0, np.sqrt(1 / HIDDEN), (RANKS + SUITS, HIDDEN)) \
        .astype(np.float32)
    params["fc1_b"] = np.zeros(RANKS + SUITS, np.float32)
    return params


def forward(params: Any, x: Any) -> Any:
    """Logits for a batch N x 3 x H x W (JAX arrays)."""
    import jax
    import jax.numpy as jnp

    for i in range(len(CHANNELS)):
        x = jax.lax.conv_general_dilated(x, params[f"conv{i}_w"], (1, 1), "SAME",
                                         dimension_numbers=("NCHW", "OIHW", "NCHW"))
        x = jax.nn.relu(x + params[f"conv{i}_b"][None, :, None, None])
        if i < 3:
            x = jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 1, 2, 2), (1, 1, 2, 2),
                                      "VALID")
    x = x.reshape(x.shape[0], -1)
    x = jax.nn.relu(x @ params["fc0_w"].T + params["fc0_b"])
    return x @ params["fc1_w"].T + params["fc1_b"]


def train(x: np.ndarray, ranks: np.ndarray, suits: np.ndarray, seed: int, steps: int,
          batch: int = 128, log: Callable[[str], None] = print,
          channels: tuple[int, ...] = CHANNELS) -> Params:
    """Adam with a cosine-decayed rate and light weight decay; `x` corner windows (uint8)."""
    import jax
    import jax.numpy as jnp
    import optax

    params = {k: jnp.asarray(v) for k, v in init(seed, channels).items()}
    schedule = optax.warmup_cosine_decay_schedule(0.0, 2e-3, min(200, steps // 10 + 1),
                                                  max(steps, 2))
    opt = optax.adamw(schedule, weight_decay=1e-4)
    state = opt.init(params)

    def cross_entropy(logits: Any, labels: Any, classes: int) -> Any:
        # A label below 0 (occlude.UNKNOWN) is "cannot tell": every class equally likely.
        target = jnp.where(labels[:, None] < 0, 1.0 / classes,
                           jax.nn.one_hot(labels, classes))
        return -(target * jax.nn.log_softmax(logits)).sum(axis=-1)

    def loss_fn(p: Any, xb: Any, rb: Any, sb: Any) -> Any:
        logits = forward(p, xb)
        return jnp.mean(cross_entropy(logits[:, :RANKS], rb, RANKS)
                        + cross_entropy(logits[:, RANKS:], sb, SUITS))

    @jax.jit
    def step(p: Any, s: Any, xb: Any, rb: Any, sb: Any) -> Any:
        loss, grads = jax.value_and_grad(loss_fn)(p, xb, rb, sb)
        updates, s = opt.update(grads, s, p)
        return optax.apply_updates(p, updates), s, loss

    rng = np.random.default_rng(seed)
    order = rng.permutation(len(x))
    at, running = 0, 0.0
    for n in range(steps):
        if at + batch > len(order):
            order, at = rng.permutation(len(x)), 0
        idx = order[at:at + batch]
        at += batch
        params, state, loss = step(params, state, prepare(x[idx]), ranks[idx], suits[idx])
        running = 0.98 * running + 0.02 * float(loss) if n else float(loss)
        if n % 250 == 0 or n == steps - 1:
            log(f"step {n}/{steps}: loss {running:.4f}")
    return {k: np.asarray(v) for k, v in params.items()}


def logits_numpy(params: Params, x: np.ndarray, batch: int = 1024) -> np.ndarray:
    """The network run by JAX on corner windows (uint8), for calibration."""
    import jax

    run = jax.jit(forward)
    return np.concatenate([np.asarray(run(params, prepare(x[i:i + batch])))
                           for i in range(0, len(x), batch)]) if len(x) else \
        np.zeros((0, RANKS + SUITS), np.float32)


def export_onnx(params: Params, path: Path) -> None:
    """The network as an ONNX graph of plain operators (opset 11), input N x 3 x H x W."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    nodes, inits = [], []
    x = "input"
    for i in range(len(CHANNELS)):
        inits += [numpy_helper.from_array(params[f"conv{i}_w"], f"conv{i}_w"),
                  numpy_helper.from_array(params[f"conv{i}_b"], f"conv{i}_b")]
        nodes.append(helper.make_node("Conv", [x, f"conv{i}_w", f"conv{i}_b"], [f"c{i}"],
                                      kernel_shape=[3, 3], pads=[1, 1, 1, 1]))
        nodes.append(helper.make_node("Relu", [f"c{i}"], [f"r{i}"]))
        x = f"r{i}"
        if i < 3:
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
        nodes, "corner_reader",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["N", 3, WINDOW_H, WINDOW_W])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["N", RANKS + SUITS])],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)],
                              producer_name="vision.training")
    model.ir_version = 7
    onnx.checker.check_model(model)
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))
