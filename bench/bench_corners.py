"""Leave-decks-out benchmark of the corner reader: it reads only designs it was not trained on.

    .venv/bin/python bench/bench_corners.py [--shots 420] [--seed 7] [--model DIR]

The committed model (vision/data/corner_reader.onnx) was trained without the evaluation
designs listed in its JSON (see vision/training/designs.py: EVALUATION), and its abstain
threshold was set on other left-out designs (CALIBRATION). Every pinochle face of each
evaluation design is shot `--shots` times with camera damage (vision/training/camera.py: 1.5-4.5
px/mm, blur, noise, JPEG, lamp colour and glare, an outline a few pixels off) and read by the
corner reader as `vision.identify` uses it (cv2.dnn, one core), without the stored corners'
second word (the built-in profile holds Dondorf's faces, so it would not be unseen). Prints
the share read correctly, misread silently (with a 95 % upper bound) and abstained; how many
of the designs' other faces (2-8, jokers, backs) and blank crops were named as a pinochle card;
and the time per card. Then the same pinochle faces again (`--shots` each, a rng of their own) with
one index corner covered, as in a trick or a meld row, by a thumb or a printed face of a
training deck lying across it (vision/training/occlude.py: cover_corner, three quarters of
that corner's index area hidden, none of the other's): the card must be read from the other
corner alone. `--model DIR` benches a model trained elsewhere (`python -m
vision.training --out DIR`), on the designs its JSON calls evaluation and on evaluation designs
of designs.py that its JSON does not list (added after it was trained, so never seen by it).
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
from vision.training import camera
from vision.training.designs import designs
from vision.training.occlude import cover_corner


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


def read(card: np.ndarray) -> Card | None:
    """The card the corner reader names surely, or None."""
    reader = corners.corner_reader()
    seen = reader.read(to_portrait(card))
    if seen.names_card and seen.confidence >= reader.abstain_below:
        return Card.from_index(seen.ranked_cards(1)[0][0])
    return None


def _outcome(named: Card | None, truth: Card, *tallies: Counter[str]) -> str:
    """Whether a pinochle face was read right, misread or abstained on, counted in each tally."""
    outcome = "abstained" if named is None else "correct" if named == truth else "misread"
    for tally in tallies:
        tally["cards"] += 1
        tally[outcome] += 1
    return outcome


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shots", type=int, default=420, help="shots of each pinochle face")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--model", type=Path, help="folder of corner_reader.onnx/.json")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    if args.model is not None:   # read by that model instead of the committed one
        corners.MODEL = args.model / corners.MODEL.name
        corners.META = args.model / corners.META.name
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
    spent = 0.0
    for design in evaluated:
        mine = per_design.setdefault(design.name, Counter())
        for face in design.load():
            for _ in range(args.shots if face.card is not None else max(1, args.shots // 20)):
                card = camera.shoot(face.image, rng)
                start = time.perf_counter()
                named = read(card)
                spent += time.perf_counter() - start
                if face.card is None:
                    tally["other faces"] += 1
                    tally["other faces named"] += named is not None
                    continue
                outcome = _outcome(named, face.card, tally, mine)
                if outcome == "misread":
                    misreads.append(f"{design.name} {face.card} read as {named}")
    for _ in range(args.shots * 4):
        tally["blanks"] += 1
        tally["blanks named"] += read(camera.blank(rng)) is not None
    # One corner covered, by a printed face of a deck the model was trained on or a thumb.
    covers = [f.image for n in sorted(trained) if n in available and available[n].printed
              for f in available[n].load()]
    covered: Counter[str] = Counter()
    rng = np.random.default_rng([args.seed, 1])
    for design in evaluated:
        for face in design.load():
            if face.card is None:
                continue
            for _ in range(args.shots):
                named = read(camera.shoot(cover_corner(face.image, rng, covers), rng))
                if _outcome(named, face.card, covered) == "misread":
                    misreads.append(f"{design.name} {face.card} (one corner covered) "
                                    f"read as {named}")
    n = tally["cards"]
    bound = upper_bound(tally["misread"], n)
    print(f"unseen designs: {', '.join(d.name for d in evaluated)} "
          f"(model trained on {len(trained)} designs)")
    for name, mine in per_design.items():
        print(f"  {name}: {mine['correct'] / mine['cards']:.2%} correct, {mine['misread']} "
              f"misread, {mine['abstained'] / mine['cards']:.2%} abstained of {mine['cards']}")
    print(f"correct {tally['correct'] / n:.2%}, silent misreads {tally['misread']} in {n:,} "
          f"(95 % upper bound {bound:.2e}, 1 in {1 / bound:,.0f}), "
          f"abstained {tally['abstained'] / n:.2%}")
    print(f"other faces named as a pinochle card: {tally['other faces named']} of "
          f"{tally['other faces']}; blank crops: {tally['blanks named']} of {tally['blanks']}")
    print(f"reading: {1000 * spent / (n + tally['other faces']):.2f} ms per card (one core)")
    m = covered["cards"]
    covered_bound = upper_bound(covered["misread"], m)
    print(f"one corner covered (a thumb or a card of {len(covers)} training faces): correct "
          f"{covered['correct'] / m:.2%}, silent misreads {covered['misread']} in {m:,} (95 % "
          f"upper bound {covered_bound:.2e}), abstained {covered['abstained'] / m:.2%}")
    for line in misreads[:20]:
        print("  misread:", line)
    print(json.dumps({
        "bench": "corners", "designs": [d.name for d in evaluated], "cards": n,
        "correct": round(tally["correct"] / n, 5), "misreads": tally["misread"],
        "misread_bound95": bound, "abstained": round(tally["abstained"] / n, 5),
        "other_faces": tally["other faces"], "other_faces_named": tally["other faces named"],
        "blanks": tally["blanks"], "blanks_named": tally["blanks named"],
        "ms_per_card": round(1000 * spent / (n + tally["other faces"]), 3),
        "covered": {"cards": m, "correct": round(covered["correct"] / m, 5),
                    "misreads": covered["misread"], "misread_bound95": covered_bound,
                    "abstained": round(covered["abstained"] / m, 5)}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
