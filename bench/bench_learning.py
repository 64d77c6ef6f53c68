"""Benchmark of the table learning its deck (vision/learning.py) on simulated frames and on
the real photos.

    .venv/bin/python bench/bench_learning.py [--hands 3] [--seed 1] [--decks N]
    .venv/bin/python bench/bench_learning.py --deck letele|tekeye [--hands 3] [--seed 1]
    .venv/bin/python bench/bench_learning.py --photos [--phone] [--jobs 2]

Each readable kdegames deck is played as a deck the table has never seen: it is read with a
profile of the other decks only (as `bench_vision.py --held-out` does). These are the corner
network's training decks, so it reads most of them at once: `--deck` plays instead a deck it
never trained on (bench/unseen_decks.py: letele, a calibration deck to tune on; tekeye, an
evaluation deck to measure only), read by the built-in profile as at a real table. A hand lays
all 24 faces, three at a time on the play spots of a three-seat mat, each trick under a new
camera pose and lamp, and the tracker reads them. What the table does with each is what a real table
does: a card asked about is settled on the phone (learnt at once), a card read surely is learnt
once the hand is over, and a silent misread is corrected on the page (learnt as the right card).
Prints, for each hand, how many cards were read at once, asked about, misread, or not found;
the second hand is read with what the first taught. Ends with one JSON line.

The learnt corners come from the pictures of earlier hands only; each hand's figures are
measured on its own new pictures (new pose, lamp, places). Nothing was tuned on these figures.

`--photos`: the real photos of one Bicycle deck (../shared/vision-dev/photos, measured only),
in two halves (every other photo). The table learns from the sure readings of one half, with no
label and no phone (a misread is learnt as it was read), then reads the other half with what it
learnt; and the other way round. With `--phone`, a card of the learning half left unread (or
misread) is also settled on the phone, named by its label as a player would name it, when its
outline holds that card's corners alone; the half measured is read with no label. Prints the
cards found and read, and named wrongly, read cold (the built-in profile) and with what was
learnt, over all the photos.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from bench.bench_vision import inside, photo_dir, photo_paths, photos
from bench.unseen_decks import DECKS as UNSEEN_DECKS
from bench.unseen_decks import make_deck, unseen_dir
from table.rules import ALL_CARDS, Card, CardPlayed
from vision.build_atlas import profile_from_decks, readable_decks
from vision.calibration import calibrate
from vision.detect import Detection, straighten
from vision.faces import DeckUnusable, load_face_folder
from vision.learning import DeckLearner
from vision.mat import mat_layout
from vision.profile import DeckProfile, builtin_profile
from vision.simulator import MatScene
from vision.tracker import CardUnsure, Tracker

SEATS = 3
FRAMES = 14   # per trick: the cards slide in, lie still, are read or asked about


Faces = dict[Card, np.ndarray]


def play_trick(deck: str | Faces, cards: list[Card], learner: DeckLearner,
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


def play_deck(name: str, deck: str | Faces, base: DeckProfile, hands: int, seed: int
              ) -> list[dict[str, int]]:
    """`hands` hands of `deck` (a kdegames deck's name, or faces), learnt on top of `base`."""
    learner = DeckLearner(base)
    rng = np.random.default_rng([seed, sum(map(ord, name))])
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


def learn_and_read(folder: Path, learn_from: list[Path], read: list[Path], phone: bool
                   ) -> tuple[dict[str, Any], dict[str, Any]]:
    """The photos `learn_from` read cold, every sure reading learnt (and with `phone`, a card
    not read or misread settled on the phone as its label names it, as a player would, when
    its outline holds the corners of that card alone); then `read` read with what was learnt.
    The two tallies (bench_vision.photos)."""
    learner = DeckLearner(builtin_profile())

    def learn(frame: np.ndarray, found: list[Detection],
              labels: dict[Card, list[tuple[float, float]]]) -> None:
        for d in found:
            held = [card for card, centres in labels.items()
                    if any(inside(d, c) for c in centres)]
            truth = held[0] if len(held) == 1 else None
            if phone and truth is not None and d.reading.card != truth:
                learner.learn(truth, straighten(frame, d.corners), settled=True)
            elif d.reading.card is not None:
                learner.learn(d.reading.card, straighten(frame, d.corners), settled=False)

    cold = photos(folder, learn_from, seen=learn)
    print(f"learnt from {len(learn_from)} photos: {learner.describe()}", flush=True)
    return cold, photos(folder, read, deck=learner.profile)


def _fold(job: tuple[Path, int, bool]) -> tuple[dict[str, Any], dict[str, Any]]:
    folder, half, phone = job
    paths = photo_paths(folder)
    return learn_and_read(folder, paths[half::2], paths[1 - half::2], phone)


def photo_figures(jobs: int, phone: bool) -> dict[str, Any] | None:
    folder = photo_dir()
    if folder is None:
        print("../shared/vision-dev/photos is not there")
        return None
    with multiprocessing.Pool(min(jobs, 2)) as pool:
        folds = pool.map(_fold, [(folder, 0, phone), (folder, 1, phone)])
    out: dict[str, Any] = {"bench": "learning", "photos": True, "phone": phone}
    for way, tallies in (("cold", [c for c, _ in folds]), ("learnt", [r for _, r in folds])):
        cards = sum(t["cards"] for t in tallies)
        read = sum(t["read"] for t in tallies)
        wrong = sum(t["wrong"] for t in tallies)
        print(f"{way:6s}: of {int(cards)} cards found and read {read / cards:.2%}, "
              f"named wrongly {int(wrong)}")
        out[way] = {"cards": int(cards), "read": round(read / cards, 4), "wrong": int(wrong)}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--decks", type=int, default=0, help="only the first N decks")
    parser.add_argument("--deck", choices=sorted(UNSEEN_DECKS),
                        help="a deck the corner network never trained on, read by the "
                             "built-in profile")
    parser.add_argument("--photos", action="store_true",
                        help="the real photos: learn from one half, read the other")
    parser.add_argument("--phone", action="store_true",
                        help="with --photos: cards asked about are settled on the phone")
    parser.add_argument("--jobs", type=int, default=2, help="processes for --photos")
    args = parser.parse_args()
    if args.photos:
        figures = photo_figures(args.jobs, args.phone)
        if figures is None:
            return 1
        print(json.dumps(figures))
        return 0
    if args.deck:
        try:
            faces = load_face_folder(make_deck(args.deck, unseen_dir()))
        except (OSError, subprocess.SubprocessError, DeckUnusable) as exc:
            print(f"cannot make the faces of {args.deck} ({exc})", file=sys.stderr)
            return 1
        games = [(args.deck, faces, builtin_profile())]
    else:
        decks = readable_decks()
        if len(decks) < 2:
            print("needs two or more readable kdegames decks (kdegames-card-data-kf5)",
                  file=sys.stderr)
            return 1
        played = decks[:args.decks] if args.decks else decks
        games = [(deck, deck, profile_from_decks([d for d in decks if d != deck],
                                                 name="the other decks", others=True))
                 for deck in played]
    hands: list[dict[str, int]] = [{"read": 0, "asked": 0, "misread": 0, "missed": 0}
                                   for _ in range(args.hands)]
    for name, deck, base in games:
        results = play_deck(name, deck, base, args.hands, args.seed)
        line = "  ".join(f"hand {h + 1}: read {r['read']:2d} asked {r['asked']:2d} "
                         f"misread {r['misread']} missed {r['missed']}"
                         for h, r in enumerate(results))
        print(f"{name:28s} {line}", flush=True)
        for total, result in zip(hands, results, strict=True):
            for key, value in result.items():
                total[key] += value
    laid = 24 * len(games)
    for h, total in enumerate(hands):
        print(f"hand {h + 1}: of {laid} cards read at once {total['read'] / laid:.1%}, "
              f"asked {total['asked'] / laid:.1%}, misread {total['misread']}, "
              f"not found {total['missed']}")
    print(json.dumps({"bench": "learning", "deck": args.deck or "kdegames",
                      "decks": len(games), "cards_per_hand": laid, "hands": hands,
                      "seed": args.seed}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
