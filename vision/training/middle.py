"""Train the middle check (vision/middle.py): `python -m vision.training.middle [--seed 2026]`.

1. Shots of the pinochle faces of the training designs (camera.py), about `--covered` of them
   with something over the face (another card lying across it at any angle, one laid over
   most of it as in a meld row or a trick, a thumb or a blot near a corner): a middle hidden
   by a fifth or more is labelled "cannot tell" (every kind equally likely), so that a covered
   middle vetoes nothing.
2. A small network (3 x 56 x 40 in; 3x3 convolutions of 8, 16, 32 channels, each ReLU and a
   2x2 max-pool; 32 hidden units; 3 kinds out), trained from the seed with JAX and written
   as ONNX (only Conv, Relu, MaxPool, Flatten and Gemm, as OpenCV 4.6's dnn reads them).
3. Shots of the calibration designs (never trained on), clean and covered the same ways, and
   with one index corner covered as the bench covers it, set `veto_below`: the largest
   threshold that vetoes at most VETO_COST of their readings' own kind.
Evaluation designs are used by none of this; bench/bench_corners.py reads them.
Needs the `train` extra (JAX, optax, onnx).
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.faces import FACE_HEIGHT, FACE_WIDTH
from vision.middle import (
    INDEX_H,
    INDEX_W,
    KINDS,
    META,
    MODEL,
    PIPS,
    VIEW_H,
    VIEW_W,
    MiddleCheck,
    kind_of,
    middle_view,
    pip_count,
    prepare,
)

from . import camera, convnet
from . import designs as design_list
from .convnet import Params
from .designs import Design, cache_dir
from .occlude import _card_across, _cover, _lay, cover_corner

UNKNOWN = -1          # a label: the middle is covered, it cannot tell
HIDDEN = 0.2          # hiding this share of the middle makes it "cannot tell"
VETO_COST = 0.002     # share of calibration nines and tens the network may veto, at most
CHANNELS = (8, 16, 32)
HIDDEN_UNITS = 32

# The middle, at the face's 4 px per mm: inside a 3 mm border, the index corners left out.
_MIDDLE = np.zeros((FACE_HEIGHT, FACE_WIDTH), bool)
_MIDDLE[12:-12, 12:-12] = True
_MIDDLE[:INDEX_H * 2, :INDEX_W * 2] = False
_MIDDLE[-INDEX_H * 2:, -INDEX_W * 2:] = False


def _laid_over(other: np.ndarray, rng: np.random.Generator
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Another face (BGRA, face size) laid over most of this one, nearly square to it, as in a
    meld row or a trick: shifted along or across by a fifth to nine tenths of the card."""
    angle = float(rng.uniform(-12, 12))
    m = np.asarray(cv2.getRotationMatrix2D((FACE_WIDTH / 2, FACE_HEIGHT / 2), angle, 1.0),
                   np.float64)
    side = int(rng.integers(4))
    share = float(rng.uniform(0.2, 0.9))
    shift = (share * FACE_WIDTH, 0.0) if side < 2 else (0.0, share * FACE_HEIGHT)
    sign = 1 if side % 2 else -1
    m[:, 2] += np.array([sign * shift[0], sign * shift[1]]) + rng.uniform(-10, 10, 2)
    laid = cv2.warpAffine(other, m, (FACE_WIDTH, FACE_HEIGHT), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    alpha = laid[:, :, 3].astype(np.float32) / 255.0
    colour = laid[:, :, :3].astype(np.float32) * np.float32(rng.uniform(0.8, 1.1))
    return alpha, colour, alpha > 0.5


def covered(image: np.ndarray, rng: np.random.Generator, faces: list[np.ndarray]
            ) -> tuple[np.ndarray, float]:
    """A face (BGRA) with something over it (see the module's docstring) and the share of its
    middle hidden."""
    kind = int(rng.integers(4))
    if kind == 0:
        cover = _card_across(faces[int(rng.integers(len(faces)))],
                             float(rng.uniform(0, FACE_WIDTH)), float(rng.uniform(0, FACE_HEIGHT)),
                             rng)
    elif kind == 1:
        cover = _laid_over(faces[int(rng.integers(len(faces)))], rng)
    elif kind == 2:   # a thumb, a blot or a card near one corner
        cover = _cover(rng, faces)
        if rng.random() < 0.5:
            cover = (cover[0][::-1, ::-1], cover[1][::-1, ::-1], cover[2][::-1, ::-1])
    else:             # one index corner covered as the bench covers it
        laid = cover_corner(image, rng, faces)
        hides = np.any(laid != image, axis=2)
        return laid, float(hides[_MIDDLE].mean())
    out, hidden = _lay(image, [cover])
    return out, float(hidden[_MIDDLE].mean())


def middle_shots(designs: list[Design], per_face: dict[str, int], seed: int,
                 faces: list[np.ndarray], covered_share: float,
                 log: Callable[[str], None] = print
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Middle views (vision.middle.middle_view) of shots of the pinochle faces of `designs`
    (per_face[design.name] each, or per_face["*"]), the kind each face shows, whether its
    middle was covered (by HIDDEN or more: "cannot tell") and the pips counted in it
    (vision.middle.pip_count)."""
    rng = np.random.default_rng(seed)
    views, kinds, hidden, pips = [], [], [], []
    for n, design in enumerate(designs):
        count = per_face.get(design.name, per_face["*"])
        for face in design_list.pinochle_faces(design.load()):
            for _ in range(count):
                image, share = face.image, 0.0
                if rng.random() < covered_share:
                    image, share = covered(image, rng, faces)
                card = camera.shoot(image, rng)
                views.append(middle_view(card))
                pips.append(pip_count(card))
                kinds.append(kind_of(face.rank))
                hidden.append(share >= HIDDEN)
        if n % 25 == 0:
            log(f"middles of {n + 1}/{len(designs)} designs")
    return np.stack(views), np.array(kinds, np.int32), np.array(hidden, bool), \
        np.array(pips, np.int32)


SHAPE = convnet.Shape(VIEW_H, VIEW_W, CHANNELS, 3, HIDDEN_UNITS, KINDS)


def _loss(logits: Any, labels: tuple[Any, ...]) -> Any:
    import jax.numpy as jnp

    return jnp.mean(convnet.cross_entropy(logits, labels[0], KINDS))


def train(views: np.ndarray, labels: np.ndarray, seed: int, steps: int, batch: int = 128,
          log: Callable[[str], None] = print) -> Params:
    """Middle views (uint8) and their kinds (below 0: cannot tell, every kind alike)."""
    return convnet.train(SHAPE, prepare(views), (labels,), _loss, seed, steps, batch=batch,
                         log=log, log_every=500)


def export_onnx(params: Params, path: Path) -> None:
    convnet.export_onnx(SHAPE, params, path, "middle_check", "vision.training.middle")


def logits_numpy(params: Params, views: np.ndarray) -> np.ndarray:
    return convnet.logits_numpy(SHAPE, params, prepare(views))


def veto_threshold(own: np.ndarray, cost: float = VETO_COST) -> float:
    """The largest threshold (to four decimals, at most 0.25: a middle that cannot tell gives
    each kind a third) below which at most `cost` of the probabilities `own` (that nines and
    tens show pips, on shots of them) fall."""
    if len(own) == 0:
        return 0.0
    k = int(np.floor(cost * len(own)))
    level = float(np.sort(own)[k]) if k < len(own) else 1.0
    return min(0.25, float(np.floor(level * 1e4)) / 1e4)


def pip_rows_threshold(pips: np.ndarray) -> int:
    """The fewest pips in rows that no court card or ace showed (`pips`: pip_count of shots of
    them, their middles clear), at least 3."""
    return max(3, int(pips.max(initial=0)) + 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.middle",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--steps", type=int, default=4000, help="training batches of 128")
    parser.add_argument("--real-shots", type=int, default=30,
                        help="shots of each pinochle face of a printed training deck")
    parser.add_argument("--synth-shots", type=int, default=2,
                        help="shots of each pinochle face of a drawn training deck")
    parser.add_argument("--calibration-shots", type=int, default=30,
                        help="shots of each pinochle face of a printed calibration deck")
    parser.add_argument("--synth-calibration-shots", type=int, default=2,
                        help="shots of each pinochle face of a drawn calibration deck")
    parser.add_argument("--calibrate-only", action="store_true",
                        help="keep the network in --out, only set its thresholds again")
    parser.add_argument("--covered", type=float, default=0.4,
                        help="share of shots with something over the face")
    parser.add_argument("--synth", type=int, default=design_list.SYNTH_DESIGNS,
                        help="font-drawn designs")
    parser.add_argument("--only", nargs="*", help="use only these designs (a quick check)")
    parser.add_argument("--out", type=Path, default=MODEL.parent)
    design_list.add_fonts_option(parser)
    args = parser.parse_args(argv)
    design_list.check_fonts(parser, args)
    log = convnet.elapsed_log()

    try:
        everything, train_designs, calibration = design_list.for_training(args.synth, args.only)
    except ValueError as exc:
        parser.error(str(exc))
    # Faces of the training decks lie over the middles (plain paper when there are none).
    faces = [f.image for d in train_designs if d.printed for f in d.load()] or \
        [f.image for d in train_designs for f in d.load()]
    per_face = {"*": args.synth_shots} | {d.name: args.real_shots for d in train_designs
                                          if d.printed}
    code = "".join(inspect.getsource(f) for f in (_laid_over, covered, middle_shots,
                                                  middle_view, kind_of)) + \
        "".join((Path(__file__).parent / f).read_text() for f in ("camera.py", "occlude.py"))
    key = hashlib.sha1(json.dumps([[(d.name, d.source) for d in train_designs], per_face,
                                   args.seed, args.covered]).encode()
                       + code.encode()).hexdigest()[:16]
    onnx_path, meta_path = args.out / MODEL.name, args.out / META.name
    info = json.loads(meta_path.read_text()) if args.calibrate_only else {}
    if not args.calibrate_only:
        cached = cache_dir() / "middle" / f"train-{key}.npz"
        if cached.exists():
            with np.load(cached) as saved:
                views, kinds, hidden = saved["views"], saved["kinds"], saved["hidden"]
        else:
            views, kinds, hidden, _ = middle_shots(train_designs, per_face, args.seed, faces,
                                                   args.covered, log)
            cached.parent.mkdir(parents=True, exist_ok=True)
            np.savez(cached, views=views, kinds=kinds, hidden=hidden)
        labels = np.where(hidden, UNKNOWN, kinds).astype(np.int32)
        log(f"{len(views)} training middles from {len(train_designs)} designs "
            f"({(labels == UNKNOWN).mean():.1%} covered: cannot tell)")
        params = train(views, labels, args.seed, args.steps, log=log)
        export_onnx(params, onnx_path)
        meta_path.write_text(json.dumps({"veto_below": 0.0, "pip_rows": 99}))
        check = MiddleCheck.load(onnx_path, meta_path)
        check.net.setInput(prepare(views[:64]))
        ours = np.asarray(check.net.forward()).reshape(-1, KINDS)
        if not np.allclose(ours, logits_numpy(params, views[:64]), atol=1e-3):
            log("cv2.dnn and JAX disagree")
            return 1
        info = {"seed": args.seed, "steps": args.steps, "training middles": len(views)}
    # The thresholds: on the calibration decks (never trained on), the printed ones shot more.
    if args.calibrate_only:   # the thresholds it had do not matter here
        check = MiddleCheck(cv2.dnn.readNetFromONNX(str(onnx_path)), 0.0, 99)
    cal_views, truth, cal_hidden, pips = middle_shots(
        calibration, {"*": args.synth_calibration_shots}
        | {d.name: args.calibration_shots for d in calibration if d.printed},
        args.seed + 1, faces, args.covered, log)
    probs = np.concatenate([check.kinds_of_views(cal_views[i:i + 512])
                            for i in range(0, len(cal_views), 512)])
    nines = truth == PIPS
    veto_below = veto_threshold(probs[nines, PIPS])
    # (A court card under a pip card shows that card's pips: a covered middle is left out
    # here; such a veto costs an abstention, never a wrong card, and is counted below.)
    pip_rows = pip_rows_threshold(pips[~nines & ~cal_hidden])
    clear = ~cal_hidden
    figures = {
        "shots": len(truth), "middle covered": int(cal_hidden.sum()),
        "nines and tens vetoed": float((probs[nines, PIPS] < veto_below).mean()),
        "court cards and aces vetoed, middle clear":
            float((pips[~nines & ~cal_hidden] >= pip_rows).mean()),
        "court cards and aces vetoed, middle covered":
            float((pips[~nines & cal_hidden] >= pip_rows).mean()),
        "nines and tens whose pips are counted": float((pips[nines] >= pip_rows).mean()),
        "kind right, middle clear": float((probs[clear].argmax(axis=1)
                                           == truth[clear]).mean())}
    log(f"calibration on {len(calibration)} designs: veto below {veto_below}, pip rows "
        f"{pip_rows}, {figures}")
    meta_path.write_text(json.dumps(info | {
        "veto_below": veto_below, "pip_rows": pip_rows, "calibration": figures,
        "designs": [{"name": d.name, "source": d.source, "split": d.split}
                    for d in sorted(everything, key=lambda d: (d.split, d.name))]},
        indent=1) + "\n")
    log(f"wrote {onnx_path} ({onnx_path.stat().st_size // 1024} KB) and {meta_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
