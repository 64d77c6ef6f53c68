"""Benchmark of the camera pipeline on simulated frames (vision/simulator.py).

    .venv/bin/python bench/bench_vision.py [--scenes-per-deck 12] [--seed 1]

Reading: for every kdegames deck whose faces pass the checks (ordinary corner indices), scenes
of 12 cards (a trick of four and eight meld cards) at 1920x1080 with perspective, lamp
gradient, glare, shadows, blur, noise and JPEG artefacts; every card found is straightened and
read. Prints the share read correctly, misread silently, and abstained (of the cards laid),
and the share the finder missed.
Speed: frames per second of the whole tracker (finding, hands, marker checks, reading) on a
12-card 1920x1080 frame sequence, on one core (OpenCV and BLAS held to one thread): steady (each
card read already) and over 80 frames from a fresh tracker, reads included.
Latency: cards laid one at a time by a hand, frames from the card lying still (hand gone) to
its event, and how the tracker settled each card (event right, wrong, or asked).
Ends with one JSON line.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2
import numpy as np

from table.rules import ALL_CARDS, CardPlayed
from vision.build_atlas import profile_from_decks, readable_decks
from vision.calibration import calibrate
from vision.detect import card_outlines, straighten
from vision.mat import mat_layout
from vision.reading import identify
from vision.simulator import Effects, MatScene
from vision.tracker import CardUnsure, Tracker


def twelve_card_scene(deck: str, rng: np.random.Generator, slide: int = 0) -> MatScene:
    scene = MatScene.create(mat_layout(4), deck, rng, effects=Effects(slide_frames=slide))
    for i, index in enumerate(rng.choice(len(ALL_CARDS), 12)):
        scene.place(ALL_CARDS[int(index)], i % 4, "play" if i < 4 else "meld")
    return scene


def reading(decks: list[str], scenes: int, rng: np.random.Generator,
            held_out: bool = False) -> dict[str, float]:
    """Lay and read cards of every deck; with `held_out`, each deck is read with a profile of
    the other decks only, as a deck the table has never seen would be."""
    laid = correct = wrong = abstained = missed = 0
    per_deck: dict[str, list[int]] = {}
    for deck in decks:
        profile = profile_from_decks([d for d in decks if d != deck]) if held_out else None
        for _ in range(scenes):
            scene = twelve_card_scene(deck, rng)
            frame = scene.render()
            outlines = card_outlines(frame)
            for item in scene.laid:
                laid += 1
                truth = scene.card_corners(item).mean(axis=0)
                near = [q for q in outlines if np.linalg.norm(q.mean(axis=0) - truth) < 15]
                if not near:
                    missed += 1
                    continue
                card = identify(straighten(frame, near[0]), profile).card
                if card is None:
                    abstained += 1
                elif card == item.card:
                    correct += 1
                else:
                    wrong += 1
                    print(f"  misread {item.card} as {card} ({deck})", file=sys.stderr)
                per_deck.setdefault(deck, [0, 0])[0] += int(card == item.card)
                per_deck[deck][1] += 1
    for deck, (ok, n) in per_deck.items():
        print(f"  {deck:28s} read {ok}/{n}")
    return {"cards": laid, "correct": correct / laid, "misread": wrong / laid,
            "abstained": abstained / laid, "missed": missed / laid}


def speed(deck: str, rng: np.random.Generator, frames: int = 80) -> tuple[float, float]:
    """Frames per second of the tracker over a 12-card scene: from a fresh tracker (so every
    card is read, twice, within the first frames) and in the steady state after that."""
    scene = twelve_card_scene(deck, rng)
    empty = MatScene.create(mat_layout(4), deck, rng, effects=Effects(slide_frames=0))
    empty.camera = scene.camera
    calibration = calibrate(empty.render(), mat_layout(4))
    shots = [scene.render() for _ in range(8)]
    tracker = Tracker(calibration, clock=lambda: 0.0)
    times = []
    for i in range(frames):
        start = time.perf_counter()
        tracker.update(shots[i % len(shots)])
        times.append(time.perf_counter() - start)
    return frames / sum(times), (frames - 20) / sum(times[20:])


def _ticker() -> Callable[[], float]:
    """A clock that moves on by one at each reading."""
    ticks = itertools.count()
    return lambda: float(next(ticks))


def latency(decks: list[str], rng: np.random.Generator, per_deck: int) -> dict[str, Any]:
    delays: list[int] = []
    right = wrong = asked = silent = 0
    for deck in decks:
        scene = MatScene.create(mat_layout(3), deck, rng, effects=Effects(slide_frames=2))
        tracker = Tracker(calibrate(scene.render(), mat_layout(3)), clock=_ticker())
        for n in range(per_deck):
            if n % 3 == 0 and n:
                scene.gather()
                for _ in range(6):
                    tracker.update(scene.render())
            card = ALL_CARDS[int(rng.integers(len(ALL_CARDS)))]
            scene.place(card, n % 3, "play")
            still_at = None
            outcome = None
            for _ in range(14):
                if still_at is None and scene.settled:
                    still_at = scene.frame_number
                events = tracker.update(scene.render())
                found = [e for e in events if isinstance(e, CardPlayed | CardUnsure)]
                if found:
                    outcome = found[0]
                    if still_at is not None:
                        delays.append(scene.frame_number - 1 - still_at)
                    break
            if isinstance(outcome, CardPlayed):
                right += outcome.card == card
                wrong += outcome.card != card
            elif isinstance(outcome, CardUnsure):
                asked += 1
            else:
                silent += 1
    total = right + wrong + asked + silent
    return {"cards": total, "right": right / total, "wrong": wrong / total,
            "asked": asked / total, "no_event": silent / total,
            "median_frames": float(np.median(delays)) if delays else None,
            "max_frames": max(delays) if delays else None}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenes-per-deck", type=int, default=12)
    parser.add_argument("--latency-cards", type=int, default=12, help="cards laid per deck")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--held-out", type=int, default=0, metavar="SCENES",
                        help="also read each deck with a profile of the other decks only")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    rng = np.random.default_rng(args.seed)
    decks = readable_decks()
    print(f"decks with ordinary indices: {len(decks)}: {', '.join(decks)}")
    read = reading(decks, args.scenes_per_deck, rng)
    print(f"read {read['cards']} cards: correct {read['correct']:.2%}, silent misreads "
          f"{read['misread']:.2%}, abstained {read['abstained']:.2%}, "
          f"not found {read['missed']:.2%}")
    fps_all, fps = speed("svg-standard", rng)
    print(f"whole pipeline, 1920x1080 with 12 cards, one core: {fps:.1f} frames/s once the "
          f"cards are read, {fps_all:.1f} frames/s over 80 frames including reading all 12")
    lat = latency(decks, rng, args.latency_cards)
    print(f"tracker, {lat['cards']} cards laid by hand: event right {lat['right']:.1%}, wrong "
          f"{lat['wrong']:.1%}, asked {lat['asked']:.1%}, none {lat['no_event']:.1%}; frames "
          f"from still to event: median {lat['median_frames']}, max {lat['max_frames']}")
    unseen = reading(decks, args.held_out, rng, held_out=True) if args.held_out else None
    if unseen:
        print(f"decks never seen (profile of the other {len(decks) - 1}): read "
              f"{unseen['cards']} cards: correct {unseen['correct']:.2%}, silent misreads "
              f"{unseen['misread']:.2%}, abstained {unseen['abstained']:.2%}")
    extra = {"unseen_deck_correct": round(unseen["correct"], 4),
             "unseen_deck_misread": round(unseen["misread"], 4),
             "unseen_deck_abstained": round(unseen["abstained"], 4)} if unseen else {}
    print(json.dumps({"bench": "vision", "decks": len(decks), "cards_read": read["cards"],
                      "correct": round(read["correct"], 5), "misread": round(read["misread"], 5),
                      "abstained": round(read["abstained"], 5),
                      "not_found": round(read["missed"], 5), "fps_1080p_12_cards": round(fps, 1),
                      "fps_including_reads": round(fps_all, 1),
                      "tracker_cards": lat["cards"], "tracker_right": round(lat["right"], 4),
                      "tracker_wrong": round(lat["wrong"], 4),
                      "tracker_asked": round(lat["asked"], 4),
                      "still_to_event_frames_median": lat["median_frames"],
                      "still_to_event_frames_max": lat["max_frames"], **extra}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
