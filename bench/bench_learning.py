"""Benchmark of the table learning its deck (vision/learning.py) on simulated frames.

    .venv/bin/python bench/bench_learning.py [--hands 3] [--seed 1] [--decks N]

Each readable kdegames deck is played as a deck the table has never seen: it is read with a
profile of the other decks only (as `bench_vision.py --held-out` does). A hand lays all 24
faces, three at a time on the play spots of a three-seat mat, each trick under a new camera
pose and lamp, and the tracker reads them. What the table does with each is what a real table
does: a card asked about is settled on the phone (learnt at once), a card read surely is learnt
once the hand is over, and a silent misread is corrected on the page (learnt as the right card).
Prints, for each hand, how many cards were read at once, asked about, misread, or not found;
the second hand is read with what the first taught. Ends with one JSON line.

The learnt corners come from the pictures of earlier hands only; each hand's figures are
measured on its own new pictures (new pose, lamp, places). Nothing was tuned on these figures.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from table.rules import ALL_CARDS, Card, CardPlayed
from vision.build_atlas import profile_from_decks, readable_decks
from vision.calibration import calibrate
from vision.detect import straighten
from vision.learning import DeckLearner
from vision.mat import mat_layout
from vision.simulator import MatScene
from vision.tracker import CardUnsure, Tracker

SEATS = 3
FRAMES = 14   # per trick: the cards slide in, lie still, are read or asked about


def play_trick(deck: str, cards: list[Card], learner: DeckLearner,
               rng: np.random.Generator) -> tuple[dict[str, int], list[tuple[Card, Any, bool]]]:
    """Lay `cards` on the play spots under a new camera pose and lamp; the tally, and what the
    table would learn from them: (card, picture, settled on the page)."""
    scene = MatScene.create(mat_layout(SEATS), deck, rng)
    tracker = Tracker(calibrate(scene.render(), scene.layout), deck=learner.profile,
                      clock=lambda: 0.0)
    for seat, card in enumerate(cards):
        scene.place(card, seat)
    read: dict[int, Card] = {}
    asked: set[int] = set()
    frame = scene.render()
    for _ in range(FRAMES):
        frame = scene.render()
        for item in tracker.update(frame):
            if isinstance(item, CardPlayed):
                read[item.seat] = item.card
            elif isinstance(item, CardUnsure) and item.seat is not None:
                asked.add(item.seat)
    tally = {"read": 0, "asked": 0, "misread": 0, "missed": 0}
    learn = []
    for seat, card in enumerate(cards):
        track = next((t for t in tracker.tracks if t.zone is not None and t.zone.seat == seat
                      and t.zone.area == "play" and not t.missing), None)
        if seat in read:
            right = read[seat] == card
            tally["read" if right else "misread"] += 1
        elif seat in asked:
            tally["asked"] += 1
            right = False
        else:
            tally["missed"] += 1
            continue
        if track is not None:
            learn.append((card, straighten(frame, track.corners), not right))
    return tally, learn


def play_deck(deck: str, others: list[str], hands: int, seed: int) -> list[dict[str, int]]:
    learner = DeckLearner(profile_from_decks(others, name="the other decks"))
    rng = np.random.default_rng([seed, sum(map(ord, deck))])
    per_hand = []
    for _ in range(hands):
        order = [ALL_CARDS[int(i)] for i in rng.permutation(len(ALL_CARDS))]
        total = {"read": 0, "asked": 0, "misread": 0, "missed": 0}
        sure = []
        for start in range(0, len(order), SEATS):
            tally, learn = play_trick(deck, order[start:start + SEATS], learner, rng)
            for key, value in tally.items():
                total[key] += value
            for card, picture, settled in learn:
                if settled:
                    learner.learn(card, picture, settled=True)   # on the phone, at once
                else:
                    sure.append((card, picture))
        for card, picture in sure:                               # the hand is over
            learner.learn(card, picture, settled=False)
        per_hand.append(total)
    return per_hand


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--decks", type=int, default=0, help="only the first N decks")
    args = parser.parse_args()
    decks = readable_decks()
    if len(decks) < 2:
        print("needs two or more readable kdegames decks (kdegames-card-data-kf5)",
              file=sys.stderr)
        return 1
    played = decks[:args.decks] if args.decks else decks
    hands: list[dict[str, int]] = [{"read": 0, "asked": 0, "misread": 0, "missed": 0}
                                   for _ in range(args.hands)]
    for deck in played:
        results = play_deck(deck, [d for d in decks if d != deck], args.hands, args.seed)
        line = "  ".join(f"hand {h + 1}: read {r['read']:2d} asked {r['asked']:2d} "
                         f"misread {r['misread']} missed {r['missed']}"
                         for h, r in enumerate(results))
        print(f"{deck:28s} {line}", flush=True)
        for total, result in zip(hands, results, strict=True):
            for key, value in result.items():
                total[key] += value
    laid = 24 * len(played)
    for h, total in enumerate(hands):
        print(f"hand {h + 1}: of {laid} cards read at once {total['read'] / laid:.1%}, "
              f"asked {total['asked'] / laid:.1%}, misread {total['misread']}, "
              f"not found {total['missed']}")
    print(json.dumps({"bench": "learning", "decks": len(played), "cards_per_hand": laid,
                      "hands": hands, "seed": args.seed}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
