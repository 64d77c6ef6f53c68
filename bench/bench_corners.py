"""Leave-decks-out benchmark of the corner reader: it reads only designs it was not trained on.

    .venv/bin/python bench/bench_corners.py [--shots 420] [--seed 7] [--model DIR]
                                            [--zooms 0.95 1 1.05] [--no-middle]

The committed model (vision/data/corner_reader.onnx) was trained without the evaluation
designs listed in its JSON (split "evaluation" in vision/training/github_decks.py), and its
abstain threshold was set on other left-out designs (CALIBRATION). Every pinochle face of each
evaluation design is shot `--shots` times with camera damage (vision/training/camera.py: 1.5-4.5
px/mm, blur, noise, JPEG, lamp colour and glare, an outline a few pixels off) and read by the
corner reader as `vision.identify` uses it (cv2.dnn, one core), without the stored corners'
second word (the built-in profile holds Dondorf's faces, so it would not be unseen), with the
middle check (vision/middle.py) vetoing readings whose rank the face's middle rules out
(`--no-middle`: without it); `--zooms` reads each corner at these zooms instead of the
model's (vision.corners.corner_views). Prints
the share read correctly, misread silently (with a 95 % upper bound) and abstained; how many
of the designs' other faces (2-8, jokers, backs) and blank crops were named as a pinochle card;
and the time per card. Then the same pinochle faces again (`--shots` each, a rng of their own) with
one index corner covered, as in a trick or a meld row, by a thumb or a printed face of a
training deck lying across it (vision/training/occlude.py: cover_corner, three quarters of
that corner's index area hidden, none of the other's): the card must be read from the other
corner alone; and, half as many, with such a face's own index corner over one corner
(occlude.py: index_over_corner, as on a trick pile). `--model DIR` benches a model trained
elsewhere (`python -m vision.training --out DIR`), on the designs its JSON calls evaluation and
on evaluation designs of designs.py that its JSON does not list (added after it was trained, so
never seen by it).
One split only (designs in designs.py), not k-fold: a training takes about half an hour here.
Ends with one JSON line.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2
import numpy as np

from table.rules import Card
from vision import corners
from vision.index import to_portrait
from vision.reading import CornerCard, corner_card
from vision.training import camera
from vision.training.designs import designs
from vision.training.occlude import cover_corner, index_over_corner


def upper_bound(errors: int, trials: int, level: float = 0.95) -> float:
    """Clopper-Pearson upper bound on a rate seen as `errors` in `trials`."""
    if trials == 0:
        return 1.0
    if errors >= trials:
        return 1.0

    def cdf(p: float) -> float:   # P(X <= errors) for X ~ Binomial(trials, p)
        total = 0.0
        for k in range(errors + 1):
            total += math.exp(math.lgamma(trials + 1) - math.lgamma(k + 1)
                              - math.lgamma(trials - k + 1) + k * math.log(p)
                              + (trials - k) * math.log1p(-p))
        return total

    low, high = 0.0, 1.0
    for _ in range(60):
        mid = (low + high) / 2
        if cdf(mid) > 1 - level:
            low = mid
        else:
            high = mid
    return high


def read(card: np.ndarray, middle: bool) -> CornerCard:
    """The corner reader's reading: the card it names surely (not ruled out by the middle,
    with `middle`), or None, and the card the middle ruled out."""
    return corner_card(to_portrait(card), middle)


def _outcome(read: CornerCard, truth: Card, *tallies: Counter[str]) -> str:
    """Whether a pinochle face was read right, misread or abstained on, counted in each tally
    (and what the middle check's veto did, if it vetoed)."""
    named = read.card
    outcome = "abstained" if named is None else "correct" if named == truth else "misread"
    for tally in tallies:
        tally["cards"] += 1
        tally[outcome] += 1
        if read.vetoed is not None:
            tally["vetoed correct" if read.vetoed == truth else "vetoed misread"] += 1
    return outcome


def _figures(tally: Counter[str], middle: bool) -> str:
    """Correct / misread (95 % bound) / abstained, with the middle check and, when it vetoed
    any, without it (what the vetoed readings would have been)."""
    n = tally["cards"]
    bound = upper_bound(tally["misread"], n)
    line = (f"correct {tally['correct'] / n:.2%}, silent misreads {tally['misread']} in {n:,} "
            f"(95 % upper bound {bound:.2e}, 1 in {1 / bound:,.0f}), "
            f"abstained {tally['abstained'] / n:.2%}")
    if middle:
        right, wrong = tally["vetoed correct"], tally["vetoed misread"]
        line += (f"; the middle check vetoed {right} correct readings and {wrong} misreads; "
                 f"without it: correct {(tally['correct'] + right) / n:.2%}, silent misreads "
                 f"{tally['misread'] + wrong}, abstained "
                 f"{(tally['abstained'] - right - wrong) / n:.2%}")
    return line


def _summary(counts: Counter[str]) -> dict[str, object]:
    """The JSON figures of one set of shots with a corner covered."""
    m = max(counts["cards"], 1)
    return {"cards": counts["cards"], "correct": round(counts["correct"] / m, 5),
            "misreads": counts["misread"], "misread_bound95": upper_bound(counts["misread"], m),
            "abstained": round(counts["abstained"] / m, 5),
            "vetoed": {"correct": counts["vetoed correct"], "misreads": counts["vetoed misread"]}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shots", type=int, default=420, help="shots of each pinochle face")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--model", type=Path, help="folder of corner_reader.onnx/.json")
    parser.add_argument("--zooms", type=float, nargs="+",
                        help="read each corner at these zooms (default: the model's)")
    parser.add_argument("--no-middle", action="store_true",
                        help="without the middle check's veto")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    if args.model is not None:   # read by that model instead of the committed one
        corners.MODEL = args.model / corners.MODEL.name
        corners.META = args.model / corners.META.name
    if args.zooms:
        corners.corner_reader().zooms = tuple(args.zooms)
    middle = not args.no_middle
    meta = json.loads(corners.META.read_text())
    listed = {d["name"]: d["split"] for d in meta["designs"]}
    available = {d.name: d for d in designs(0)}
    # Evaluation designs newer than the model (not in its manifest at all) are unseen too.
    held_out = [n for n, split in listed.items() if split == "evaluation"] + [
        n for n, d in available.items() if d.split == "evaluation" and n not in listed]
    trained = {n for n, split in listed.items() if split == "train"}
    evaluated = [available[n] for n in held_out if n in available and n not in trained]
    if not evaluated:
        print("none of the evaluation designs is installed (see vision/training/designs.py)")
        return 1
    rng = np.random.default_rng(args.seed)
    tally: Counter[str] = Counter()
    per_design: dict[str, Counter[str]] = {}
    misreads: list[str] = []
    spent = cpu = 0.0
    for design in evaluated:
        mine = per_design.setdefault(design.name, Counter())
        for face in design.load():
            for _ in range(args.shots if face.card is not None else max(1, args.shots // 20)):
                card = camera.shoot(face.image, rng)
                start, start_cpu = time.perf_counter(), time.process_time()
                seen = read(card, middle)
                spent += time.perf_counter() - start
                cpu += time.process_time() - start_cpu
                if face.card is None:
                    tally["other faces"] += 1
                    tally["other faces named"] += seen.card is not None
                    tally["other faces vetoed"] += seen.vetoed is not None
                    continue
                outcome = _outcome(seen, face.card, tally, mine)
                if outcome == "misread":
                    misreads.append(f"{design.name} {face.card} read as {seen.card}")
    for _ in range(args.shots * 4):
        tally["blanks"] += 1
        tally["blanks named"] += read(camera.blank(rng), middle).card is not None
    # One corner covered, by a printed face of a deck the model was trained on or a thumb;
    # then by such a face's own index corner (half as many shots).
    covers = [f.image for n in sorted(trained) if n in available and available[n].printed
              for f in available[n].load()]
    covered: Counter[str] = Counter()
    crossed: Counter[str] = Counter()
    for key, (lay, shots, counts, how) in enumerate((
            (cover_corner, args.shots, covered, "one corner covered"),
            (index_over_corner, args.shots // 2, crossed, "another card's index over one"))):
        rng = np.random.default_rng([args.seed, key + 1])
        for design in evaluated:
            for face in design.load():
                if face.card is None:
                    continue
                for _ in range(shots):
                    seen = read(camera.shoot(lay(face.image, rng, covers), rng), middle)
                    if _outcome(seen, face.card, counts) == "misread":
                        misreads.append(f"{design.name} {face.card} ({how}) read as "
                                        f"{seen.card}")
    n = tally["cards"]
    bound = upper_bound(tally["misread"], n)
    zooms = corners.corner_reader().zooms
    print(f"unseen designs: {', '.join(d.name for d in evaluated)} "
          f"(model trained on {len(trained)} designs); each corner read at zooms {zooms}, "
          f"{'with' if middle else 'without'} the middle check")
    for name, mine in per_design.items():
        print(f"  {name}: {mine['correct'] / mine['cards']:.2%} correct, {mine['misread']} "
              f"misread, {mine['abstained'] / mine['cards']:.2%} abstained of {mine['cards']}")
    print(_figures(tally, middle))
    print(f"other faces named as a pinochle card: {tally['other faces named']} of "
          f"{tally['other faces']}; blank crops: {tally['blanks named']} of {tally['blanks']}")
    print(f"reading: {1000 * spent / (n + tally['other faces']):.2f} ms per card (one core; "
          f"CPU time {1000 * cpu / (n + tally['other faces']):.2f} ms)")
    print(f"one corner covered (a thumb or a card of {len(covers)} training faces): "
          + _figures(covered, middle))
    print("another card's index corner over one corner (a card on a trick pile): "
          + _figures(crossed, middle))
    for line in misreads[:30]:
        print("  misread:", line)
    print(json.dumps({
        "bench": "corners", "designs": [d.name for d in evaluated], "zooms": list(zooms),
        "middle_check": middle, "cards": n,
        "correct": round(tally["correct"] / n, 5), "misreads": tally["misread"],
        "misread_bound95": bound, "abstained": round(tally["abstained"] / n, 5),
        "other_faces": tally["other faces"], "other_faces_named": tally["other faces named"],
        "blanks": tally["blanks"], "blanks_named": tally["blanks named"],
        "vetoed": {"correct": tally["vetoed correct"], "misreads": tally["vetoed misread"],
                   "other_faces": tally["other faces vetoed"]},
        "ms_per_card": round(1000 * spent / (n + tally["other faces"]), 3),
        "cpu_ms_per_card": round(1000 * cpu / (n + tally["other faces"]), 3),
        "covered": _summary(covered), "crossed": _summary(crossed)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
