"""Train the corner reader: `python -m vision.training [--seed 2026] [--steps 5000] ...`.

1. `--gather` first fetches the npm decks (`npm pack`) into ~/.cache/pinochle-train/npm, and
   names the GitHub decks whose snapshot is missing (github_decks.py: how to bring each).
2. Windows of the training designs, shot through camera.py, train the network from the seed.
3. Shots of the calibration designs (never trained on), half of them with one corner covered by
   a thumb or a face of a training deck (as in a trick or a meld row), set how the two corners
   are pooled (vision.corners.pool: the `independence` and `hidden` that read the most of them
   right, each corner read at `--zooms`) and the abstain threshold: the lowest confidence above
   every wrong reading, firmed up or ruled out by the middle check (vision/middle.py) as
   vision.reading.corner_card reads (`--no-middle`: every wrong reading, as the corners read).
4. The network is written as ONNX with a JSON beside it (threshold, pooling, seed, designs and
   where they came from), and checked: cv2.dnn must give JAX's logits.
With `--ensemble DIR...`, networks trained apart (`--out DIR`, another `--seed` or `--channels`)
are copied beside the model and read with it, their log-probabilities averaged, before step 3.
Evaluation designs are used by none of this; bench/bench_corners.py reads them.
Needs the `train` extra (JAX, optax, onnx) and, for the decks, rsvg-convert and npm.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from table.rules import Card
from vision.corners import META, MODEL, CornerReader, combine
from vision.middle import NOT_PIPS, PIPS, MiddleCheck, middle_check, pip_count
from vision.reading import settled

from . import camera, convnet, github_decks, model, samples
from . import designs as design_list
from .designs import Design, cache_dir
from .occlude import cover_corner

NPM_DECKS = ("@letele/playing-cards@0.1.0",)
# Ways of pooling the two corners calibration chooses from (vision.corners.pool).
POOLING = tuple((independence, hidden) for independence in (0.0, 0.5, 1.0)
                for hidden in (0.0, 0.03, 0.1, 0.3, 1.0))


def gather() -> None:
    """Unpack the npm decks into the cache (npm pack: no install, no scripts run), and write
    @letele/playing-cards' React components out as SVG files (with node)."""
    target = cache_dir() / "npm"
    target.mkdir(parents=True, exist_ok=True)
    for spec in NPM_DECKS:
        name = subprocess.run(["npm", "pack", spec], cwd=target, capture_output=True,
                              text=True, check=True).stdout.strip().splitlines()[-1]
        unpacked = target / name.removesuffix(".tgz")
        unpacked.mkdir(exist_ok=True)
        subprocess.run(["tar", "xzf", name, "-C", str(unpacked)], cwd=target, check=True)
    letele = sorted(target.glob("letele-playing-cards-*/package/dist/index.esm.js"))[-1]
    subprocess.run(["node", str(Path(__file__).parent / "react_to_svg.mjs"), str(letele),
                    str(cache_dir() / "letele")], check=True)
    for problem in github_decks.check_snapshots(github_decks.DECKS):
        print(f"left out: {problem}", file=sys.stderr)


def corner_log_p(reader: CornerReader, cards: np.ndarray, zooms: tuple[float, ...],
                 batch: int = 256) -> np.ndarray:
    """Both corners' log-probabilities of each READ_SIZE card, read at `zooms` as the exported
    model reads them (vision.corners.CornerReader.corner_log_p): N x 2 x K."""
    return np.concatenate([reader.corner_log_p(list(cards[i:i + batch]), zooms)
                           for i in range(0, len(cards), batch)])


def readings(log_p: np.ndarray, independence: float, hidden: float,
             middle: tuple[MiddleCheck, tuple[np.ndarray, np.ndarray]] | None = None
             ) -> tuple[np.ndarray, np.ndarray]:
    """Per card (both corners' log-probabilities, `corner_log_p`): the card index named (-1 for
    none), its confidence. With `middle` (the check and its `middles` looks), as
    vision.reading.corner_card reads: a card whose rank the middle rules out made unsure
    (confidence 0), any other firmed up by pips in rows (vision.reading.settled; a sure
    reading stays sure and names the same card either way, so its firmer confidence decides
    nothing at the threshold)."""
    named, conf = np.full(len(log_p), -1), np.zeros(len(log_p))
    for i, pair in enumerate(log_p):
        read = combine(pair, independence, hidden)
        if read.names_card:
            named[i] = read.ranked_cards(1)[0][0]
            if middle is not None:
                check, (likely, pips) = middle
                rank = int(Card.from_index(int(named[i])).rank)
                if check.rules_out(rank, float(likely[i]), int(pips[i])):
                    continue   # vetoed: confidence 0
                if pips[i] >= check.pip_rows:   # pips in rows: no court card, no ace
                    read = settled(read, NOT_PIPS) or read
        conf[i] = read.confidence
    return named, conf


def covered_shots(designs: list[Design], per_face: int, seed: int, covers: list[np.ndarray]
                  ) -> tuple[np.ndarray, list[int | None]]:
    """Shots of the pinochle faces of `designs` with one index corner covered (a thumb or one
    of the faces `covers` lying across it): READ_SIZE cards and their card indices."""
    rng = np.random.default_rng(seed)
    cards, truth = [], []
    for design in designs:
        for face in design_list.pinochle_faces(design.load()):
            for _ in range(per_face):
                cards.append(camera.shoot(cover_corner(face.image, rng, covers), rng))
                truth.append(face.card.index if face.card is not None else None)
    return np.stack(cards), truth


def middles(check: MiddleCheck, cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Both looks of the middle check at READ_SIZE cards: how likely each shows pips, and the
    pips counted in rows (vision.middle)."""
    likely = np.concatenate([check.kinds(cards[i:i + 512])[:, PIPS]
                             for i in range(0, len(cards), 512)])
    return likely, np.array([pip_count(c) for c in cards])


def _wrong(named: np.ndarray, truth: list[int | None]) -> tuple[np.ndarray, np.ndarray]:
    """The true card index of each shot (-1: not a pinochle face), and which readings name a
    pinochle face wrongly."""
    want = np.array([-1 if t is None else t for t in truth])
    return want, (named >= 0) & (named != want) & (want >= 0)


def calibrate(named: np.ndarray, conf: np.ndarray, truth: list[int | None]) -> float:
    """The lowest threshold above every wrong reading of a pinochle face (at least 0.5), to
    six decimals. (Other faces, 2-8s above all, are no part of a pinochle deck: how many of
    them it names is reported, not held against the threshold: one Penguins face read as the
    nine of diamonds would otherwise set it above nearly every sure reading.)"""
    _, wrong = _wrong(named, truth)
    worst = float(conf[wrong].max()) if wrong.any() else 0.0
    return max(0.5, float(np.floor(worst * 1e6) + 1) / 1e6)


def figures(named: np.ndarray, conf: np.ndarray, truth: list[int | None], threshold: float
            ) -> dict[str, float]:
    """What a threshold gives on readings of shots whose truth is known."""
    want, wrong = _wrong(named, truth)
    sure = conf >= threshold
    cards = want >= 0
    return {
        "cards": int(cards.sum()), "other faces": int((~cards).sum()),
        "wrong below threshold": int(wrong.sum()), "wrong above": int((wrong & sure).sum()),
        "correct": float(((named == want) & sure & cards).sum() / max(cards.sum(), 1)),
        "abstained": float((~sure & cards).sum() / max(cards.sum(), 1)),
        "other faces named": float((sure & ~cards & (named >= 0)).sum()
                                   / max((~cards).sum(), 1))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--steps", type=int, default=5000, help="training batches of 128")
    parser.add_argument("--synth", type=int, default=design_list.SYNTH_DESIGNS,
                        help="font-drawn designs")
    parser.add_argument("--real-shots", type=int, default=40,
                        help="shots of each face of a real deck")
    parser.add_argument("--synth-shots", type=int, default=5,
                        help="shots of each face of a drawn deck")
    parser.add_argument("--calibration-shots", type=int, default=40)
    parser.add_argument("--calibrate-only", action="store_true",
                        help="keep the model in --out, only set its threshold again")
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes making training windows (the figures do not depend "
                             "on it: each design has its own seed)")
    parser.add_argument("--zooms", type=float, nargs="+", default=[1.0],
                        help="read each corner at these zooms, averaged (vision.corners."
                             "corner_views; each is one more pass of the network per corner)")
    parser.add_argument("--no-middle", action="store_true",
                        help="calibrate without the middle check's veto")
    parser.add_argument("--closer", type=float, default=model.CLOSER_MOST, metavar="ZOOM",
                        help="half the training windows seen up to this much closer (1: none)")
    parser.add_argument("--channels", type=int, nargs=4, default=list(model.CHANNELS),
                        help="channels of the four convolutions")
    parser.add_argument("--ensemble", type=Path, nargs="*", metavar="DIR",
                        help="also read with the networks trained into these folders (copied "
                             "beside the model; log-probabilities averaged), and calibrate so; "
                             "none given: read with the model alone")
    parser.add_argument("--only", nargs="*", help="use only these designs (a quick check)")
    parser.add_argument("--out", type=Path, default=MODEL.parent)
    parser.add_argument("--gather", action="store_true", help="npm pack the npm decks first")
    design_list.add_fonts_option(parser)
    args = parser.parse_args(argv)
    design_list.check_fonts(parser, args)
    if args.gather:
        gather()
    log = convnet.elapsed_log()

    try:
        everything, train, calibration = design_list.for_training(args.synth, args.only)
    except ValueError as exc:
        parser.error(str(exc))
    per_face = {"*": args.synth_shots} | {d.name: args.real_shots for d in train if d.printed}
    onnx_path, meta_path = args.out / MODEL.name, args.out / META.name
    if args.calibrate_only:
        info = json.loads(meta_path.read_text())
    else:
        data = _cached_windows(train, per_face, args.seed, log, args.jobs)
        log(f"{len(data)} training windows from {len(train)} designs")
        params = model.train(data.x, data.ranks, data.suits, args.seed, args.steps, log=log,
                             channels=tuple(args.channels), most=args.closer)
        model.export_onnx(params, onnx_path)
        info = {"abstain_below": 0.5, "seed": args.seed, "steps": args.steps,
                "channels": args.channels, "closer": [model.CLOSER_SHARE, args.closer],
                "training windows": len(data)}
        meta_path.write_text(json.dumps(info))
        check = np.stack([w for d in calibration[:1] for f in d.load()[:8]
                          for w in camera.shoot_corners(f.image, np.random.default_rng(0))])
        ours = CornerReader(onnx_path, meta_path).logits(check)
        theirs = model.logits_numpy(params, check)
        if not np.allclose(ours, theirs, atol=1e-3):
            log(f"cv2.dnn and JAX disagree by {np.abs(ours - theirs).max():.4g}")
            return 1
    if args.ensemble is not None:
        info["ensemble"] = [_ensemble_member(folder, args.out / f"{MODEL.stem}_{i}{MODEL.suffix}")
                            for i, folder in enumerate(args.ensemble, 1)]
        meta_path.write_text(json.dumps(info, indent=1) + "\n")
    # The threshold is set on the real decks left out of training when there are any: the
    # drawn ones include deliberately odd pips that no printed deck has.
    real = [d for d in calibration if d.printed] or calibration
    cards, truth, _ = samples.card_shots(real, args.calibration_shots, args.seed + 1)
    covers = [f.image for d in train if d.printed for f in d.load()]
    covered, covered_truth = covered_shots(real, args.calibration_shots, args.seed + 2, covers)
    zooms = tuple(args.zooms)
    log_p = corner_log_p(CornerReader(onnx_path, meta_path), np.concatenate([cards, covered]),
                         zooms)
    every = truth + covered_truth
    middle = None if args.no_middle else middle_check()
    looks = middles(middle, np.concatenate([cards, covered])) if middle is not None else None
    choices = []
    for independence, hidden in POOLING:
        read = readings(log_p, independence, hidden,
                        None if middle is None or looks is None else (middle, looks))
        threshold = calibrate(*read, every)
        choices.append((figures(*read, every, threshold)["correct"], -independence, -hidden,
                        threshold, read))
        log(f"zooms {zooms}, independence {independence}, hidden {hidden}: threshold "
            f"{threshold:.6f}, {choices[-1][0]:.2%} of all calibration shots read right")
    # The pooling that reads the most right (on a tie, the one closer to a plain mean).
    _, independence, hidden, threshold, (named, conf) = max(choices, key=lambda c: c[:3])
    independence, hidden = -independence, -hidden
    figures_clean = figures(named[:len(cards)], conf[:len(cards)], truth, threshold)
    figures_covered = figures(named[len(cards):], conf[len(cards):], covered_truth, threshold)
    log(f"calibration on {', '.join(d.name for d in real)}: zooms {zooms}, "
        f"independence {independence}, "
        f"hidden {hidden}, threshold {threshold:.6f}, {figures_clean}; "
        f"one corner covered: {figures_covered}")
    if args.calibrate_only and "designs" in info:
        # The model was trained on what its JSON says, whatever designs.py now lists.
        trained = [d for d in info["designs"] if d["split"] == "train"]
        names = {d["name"] for d in trained}
        others = [{"name": d.name, "source": d.source,
                   "split": "calibration" if d in real else "calibration (unused)"
                   if d.split == "calibration" else "not used (newer than the model)"
                   if d.split == "train" else d.split}
                  for d in _manifest(everything) if d.name not in names]
        info["designs"] = sorted(trained + others, key=lambda d: (d["split"], d["name"]))
    else:
        info["designs"] = [{"name": d.name, "source": d.source,
                            "split": d.split if d in real or d.split != "calibration"
                            else "calibration (unused)"} for d in _manifest(everything)]
    info |= {"abstain_below": threshold, "independence": independence, "hidden": hidden,
             "zooms": list(zooms),
             "middle check": None if middle is None else {"veto_below": middle.veto_below,
                                                          "pip_rows": middle.pip_rows},
             "calibration": figures_clean | {"one corner covered": figures_covered}}
    meta_path.write_text(json.dumps(info, indent=1) + "\n")
    log(f"wrote {onnx_path} ({onnx_path.stat().st_size // 1024} KB) and {meta_path}")
    return 0


def _ensemble_member(folder: Path, to: Path) -> dict[str, Any]:
    """Copy the network trained into `folder` to `to`; how it was trained, for the JSON."""
    trained = json.loads((folder / META.name).read_text())
    to.write_bytes((folder / MODEL.name).read_bytes())
    return {"file": to.name, "seed": trained["seed"], "steps": trained["steps"],
            "channels": trained.get("channels", list(model.CHANNELS)),
            "closer": trained.get("closer", [0.0, 1.0])}


def _cached_windows(train: list[Design], per_face: dict[str, int], seed: int,
                    log: Callable[[str], None], jobs: int = 1) -> samples.Windows:
    """The training windows, made once per design, shots, seed and data code (cached per
    design, each from its own seed, so adding a design makes only its windows)."""
    code = "".join((Path(__file__).parent / f).read_text()
                   for f in ("camera.py", "synth.py", "samples.py", "occlude.py"))
    printed = [d for d in train if d.printed]   # their faces lie across corners
    _COVERS[:] = [f.image for d in printed for f in d.load()]
    todo = []
    for design in train:
        shots = per_face.get(design.name, per_face["*"])
        key = hashlib.sha1(json.dumps([design.name, design.source, shots, seed,
                                       [(d.name, d.source) for d in printed]]).encode()
                           + code.encode()).hexdigest()[:16]
        todo.append((design, {"*": shots}, _design_seed(seed, design.name),
                     cache_dir() / "windows" / f"{design.name}-{key}.npz"))
    parts = []
    _JOBS[:] = todo   # forked workers see them (a design's loader is a closure: no pickling)
    with multiprocessing.get_context("fork").Pool(jobs) if jobs > 1 else _Serial() as pool:
        for n, part in enumerate(pool.imap(_design_windows, range(len(todo)))):
            parts.append(part)
            if n % 20 == 0:
                log(f"windows of {n + 1}/{len(todo)} designs")
    return samples.Windows(*(np.concatenate([getattr(p, f) for p in parts])
                             for f in ("x", "ranks", "suits")))


def _design_seed(seed: int, name: str) -> int:
    return int(hashlib.sha1(f"{seed}:{name}".encode()).hexdigest()[:12], 16)


_JOBS: list[tuple[Design, dict[str, int], int, Path]] = []
_COVERS: list[np.ndarray] = []   # faces of the training decks, to lie across corners


def _design_windows(job: int) -> samples.Windows:
    design, per_face, seed, path = _JOBS[job]
    if path.exists():
        with np.load(path) as saved:
            return samples.Windows(saved["x"], saved["ranks"], saved["suits"])
    data = samples.training_windows([design], per_face, seed, covers=_COVERS)
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_suffix(".part.npz")
    np.savez(part, x=data.x, ranks=data.ranks, suits=data.suits)
    part.replace(path)
    return data


class _Serial:
    """A stand-in for a pool of one: maps in this process."""

    def __enter__(self) -> _Serial:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap(self, func: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        return map(func, items)


def _manifest(everything: list[Design]) -> list[Design]:
    return sorted(everything, key=lambda d: (d.split, d.name))


if __name__ == "__main__":
    sys.exit(main())
