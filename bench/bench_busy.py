"""Cards found on rendered busy backgrounds (vision.busy: textured grounds, cards apart,
fanned, piled and in overlapping pairs, shadows, uneven light; faces of the corner reader's
training decks): the tuning set of find_cards' busy-background path. A card is found, as on the
real photos, when an outline holds the centres of its corner indices that show. An outline
holding no card's indices is a false one; one holding two cards' indices without being either
card is a merged one; every eighth scene has no card at all (its outlines are all false). Also
counted: cards with an outline true to the laid card (its corners within edges.SAME).
Prints figures per texture and one JSON line. Tune with the default seed; measure with another.
`--layout overlap`: every scene two or three cards each over a corner of another (as in a
photo of a few cards dropped on a table), instead of the mix of layouts; `--layout hand`:
three cards fanned tightly about a corner (as the photos' three-card scenes are made, by
geaxgx/playing-card-detection's public code); `--layout dropped`: two cards dropped anywhere
about the middle at sizes of their own, pasted with no shadow, the top one hiding each index of
the other wholly or not at all (as that code makes its two-card scenes). `--borders none`: the
faces' printed borders painted over with their paper (busy.borderless: white to the card's
rounded edge, as a real cut-out Bicycle card); `mixed`: every other scene so. `--jumbo 1.3`:
the faces' indices printed 1.3 times bigger (vision.busy.jumbo_index; a jumbo-index deck).
`--lamps own`: each face photographed under a lamp of its own, dimmer or brighter, warmer or
cooler than the scene's (vision.busy.photographed; the photos' cards were so cut out of videos);
`--lamps warm`: the whole frame under a warm lamp no white balance corrects (busy.warm_lamp).
`--deck letele` or `--deck tekeye`: faces of a deck the corner reader never trained on
(bench/unseen_decks.py), instead of its training decks. letele set the reader's abstain threshold
(a calibration deck): tune on it, with the default seed. tekeye is an evaluation deck: measure
only. `--deck vosloo`: photographs of a real Piatnik deck, cut out (a calibration deck too: tune
on it), so the faces bear a real printer's ink, paper and camera.

    .venv/bin/python bench/bench_busy.py --scenes 200 --seed 7 [--layout overlap] [--borders none]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2
import numpy as np

from bench.unseen_decks import DECKS as UNSEEN_DECKS
from bench.unseen_decks import make_deck, unseen_dir
from vision.busy import (
    DROPPED,
    HAND,
    LAMPS,
    LAYOUTS,
    OVERLAP,
    TEXTURES,
    Laid,
    borderless,
    busy_scene,
    index_centres,
    jumbo_index,
    training_decks,
)
from vision.detect import Detection, card_outlines, read_outlines, straighten, with_index_cards
from vision.edges import same_card
from vision.faces import DeckUnusable, load_face_folder
from vision.reading import identify

EMPTY_EVERY = 8
BORDERS = ("printed", "none", "mixed")


def _holds(quad: np.ndarray, centres: list[tuple[float, float]]) -> bool:
    return bool(centres) and all(
        cv2.pointPolygonTest(quad.reshape(-1, 1, 2), c, False) >= 0 for c in centres)


def judge(outlines: list[np.ndarray], laid: list[Laid]) -> tuple[int, int, int, int]:
    """Cards found, false outlines and merged outlines in one scene, and cards found by an
    outline true to the card (edges.same_card: every corner within SAME of its short side)."""
    shown = index_centres(laid)
    found = sum(any(_holds(q, c) for q in outlines) for c in shown if c)
    true = sum(any(same_card(q, item.corners) for q in outlines)
               for item, c in zip(laid, shown, strict=True) if c)
    false = merged = 0
    for quad in outlines:
        held = sum(_holds(quad, c) for c in shown)
        if any(same_card(quad, item.corners) for item in laid):
            continue
        false += held == 0
        merged += held >= 2
    return found, false, merged, true


def read(found: list[Detection], laid: list[Laid]) -> tuple[int, int]:
    """Cards found and read (an outline of `found` holding the card's indices that show names
    it) and misreads (an outline naming a card none of whose indices that show it holds). On the
    reader's training decks a reading says the outline is good enough to read, not how the
    reader does on a deck it never saw (`--deck` tells that)."""
    shown = index_centres(laid)
    right = sum(any(d.reading.card == item.card and _holds(d.corners, c) for d in found)
                for item, c in zip(laid, shown, strict=True) if c)
    wrong = sum(d.reading.card is not None and not any(
        d.reading.card == item.card and any(_holds(d.corners, [p]) for p in c)
        for item, c in zip(laid, shown, strict=True)) for d in found)
    return right, wrong


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenes", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--layout", choices=[*LAYOUTS, OVERLAP, HAND, DROPPED], default=None,
                        help="every scene of this layout (default: a mix of LAYOUTS)")
    parser.add_argument("--borders", choices=BORDERS, default="printed",
                        help="the faces' printed borders: kept, painted over with their paper "
                             "(a card with none), or painted over in every other scene")
    parser.add_argument("--jumbo", type=float, default=1.0, metavar="TIMES",
                        help="print the faces' indices this many times bigger (a jumbo-index "
                             "deck, as the real photos' Bicycle; default 1: as drawn)")
    parser.add_argument("--deck", choices=["training", *UNSEEN_DECKS],
                        default="training",
                        help="the corner reader's training decks, or a deck it never trained "
                             "on (letele, vosloo: its calibration decks, vosloo photographed; "
                             "tekeye: an evaluation deck)")
    parser.add_argument("--lamps", choices=LAMPS, default="scene",
                        help="own: each face photographed under a lamp of its own "
                             "(vision.busy.photographed), as the real photos' cards were; "
                             "warm: the whole frame under a warm lamp, uncorrected")
    parser.add_argument("--size", default="720x720", metavar="WxH",
                        help="frame size (the photos' is 720x720; 1920x1080 for the speed "
                             "at 1080p)")
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.lower().split("x") if v.isdigit())
    if len(size) != 2 or min(size) < 64:
        parser.error(f"--size is WIDTHxHEIGHT, at least 64x64, not {args.size}")
    rng = np.random.default_rng(args.seed)
    if args.deck == "training":
        decks = training_decks()
        if not decks:
            print("no kdegames training deck is installed (kdegames-card-data-kf5)")
            return 1
    else:
        try:
            decks = {args.deck: load_face_folder(make_deck(args.deck, unseen_dir()))}
        except (OSError, subprocess.SubprocessError, DeckUnusable) as exc:
            print(f"cannot make the faces of {args.deck} ({exc})")
            return 1
    names = sorted(decks)
    if args.jumbo != 1.0:
        decks = {name: {card: jumbo_index(face, args.jumbo) for card, face in faces.items()}
                 for name, faces in decks.items()}
    plain = {name: {card: borderless(face) for card, face in faces.items()}
             for name, faces in decks.items()} if args.borders != "printed" else decks
    counts = ("cards", "found", "read", "true", "white", "false", "merged", "empty",
              "empty_false", "cards_read", "misread")
    tally = {kind: dict.fromkeys(counts, 0) for kind in TEXTURES}
    seconds = 0.0
    for i in range(args.scenes):
        empty = i % EMPTY_EVERY == EMPTY_EVERY - 1
        kind = TEXTURES[(i // EMPTY_EVERY if empty else i) % len(TEXTURES)]
        bare = args.borders == "none" or (args.borders == "mixed" and i % 2 == 1)
        faces = (plain if bare else decks)[names[i % len(names)]]
        frame, laid = busy_scene(faces, rng, kind=kind, cards=not empty, layout=args.layout,
                                 size=(size[0], size[1]), lamps=args.lamps)
        start = time.process_time()
        outlines = card_outlines(frame, edges=True)
        seconds += time.process_time() - start
        t = tally[kind]
        if empty:
            t["empty"] += 1
            t["empty_false"] += len(outlines)
            t["misread"] += sum(d.reading.card is not None
                                for d in read_outlines(frame, outlines))
            continue
        found, false, merged, true = judge(outlines, laid)
        readings = [Detection(q, identify(straighten(frame, q))) for q in outlines]
        t["read"] += read(readings, laid)[0]
        right, wrong = read(with_index_cards(frame, readings), laid)
        t["cards_read"] += right
        t["misread"] += wrong
        t["cards"] += sum(bool(c) for c in index_centres(laid))
        t["found"] += found
        t["true"] += true
        t["false"] += false
        t["merged"] += merged
        t["white"] += judge(card_outlines(frame), laid)[0]
    for kind, t in tally.items():
        print(f"  {kind:9s} found {t['found']}/{t['cards']} "
              f"({t['found'] / max(t['cards'], 1):.1%}; read {t['read']}; "
              f"by white alone {t['white']}), "
              f"{t['false']} false and {t['merged']} merged outlines, "
              f"{t['empty_false']} on {t['empty']} grounds with no card")
    total = {key: sum(t[key] for t in tally.values()) for key in tally[TEXTURES[0]]}
    scenes = args.scenes - total["empty"]
    n = max(total["cards"], 1)
    print(f"busy scenes ({args.deck}, {args.layout or 'mixed'}, borders {args.borders}, "
          f"seed {args.seed}): "
          f"found {total['found']}/{total['cards']} "
          f"({total['found'] / n:.1%}; true to the card {total['true'] / n:.1%}), "
          f"found and read {total['read'] / n:.1%} (find_cards, with cards found by an "
          f"index: {total['cards_read'] / n:.1%}, {total['misread']} misread), "
          f"by white alone {total['white'] / n:.1%}; "
          f"{total['false'] / max(scenes, 1):.2f} false and "
          f"{total['merged'] / max(scenes, 1):.2f} merged outlines a scene; "
          f"{total['empty_false']} outlines on {total['empty']} grounds with no card; "
          f"{1000 * seconds / args.scenes:.1f} ms a {args.size} frame (CPU)")
    print(json.dumps({"busy_deck": args.deck, "busy_seed": args.seed,
                      "busy_layout": args.layout or "mixed",
                      "busy_borders": args.borders, "busy_jumbo": args.jumbo,
                      "busy_lamps": args.lamps,
                      "busy_cards": total["cards"],
                      "busy_found": round(total["found"] / n, 4),
                      "busy_read": round(total["read"] / n, 4),
                      "busy_cards_read": round(total["cards_read"] / n, 4),
                      "busy_misread": total["misread"],
                      "busy_true_outline": round(total["true"] / n, 4),
                      "busy_found_by_white": round(total["white"] / n, 4),
                      "busy_false_per_scene": round(total["false"] / max(scenes, 1), 3),
                      "busy_merged_per_scene": round(total["merged"] / max(scenes, 1), 3),
                      "busy_empty_outlines": total["empty_false"],
                      "busy_ms_per_frame": round(1000 * seconds / args.scenes, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
