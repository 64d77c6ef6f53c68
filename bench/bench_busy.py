"""Cards found on rendered busy backgrounds (vision.busy: noise, stripes, wood, blotches, some
cards fanned over each other): the tuning set of the edge-based finder (vision.edges). A card is
found, as on the real photos, when an outline holds the centres of its corner indices that show.
Prints figures per texture and one JSON line.

    .venv/bin/python bench/bench_busy.py --scenes 200 --seed 7
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from table.rules import Card
from vision.busy import TEXTURES, Laid, busy_scene, index_centres
from vision.detect import card_outlines

CROPS = Path(__file__).resolve().parent.parent / "tests" / "vision" / "data" / "crops"


def faces() -> dict[Card, np.ndarray]:
    """kdegames' standard deck as the tests store it (tests/vision/data/crops)."""
    return {Card.parse(path.stem.split("_")[0]): cv2.imread(str(path), cv2.IMREAD_COLOR)
            for path in sorted((CROPS / "svg-standard").glob("*_0.jpg"))}


def found_cards(outlines: list[np.ndarray], laid: list[Laid]) -> int:
    found = 0
    for centres in index_centres(laid):
        if centres and any(all(cv2.pointPolygonTest(q.reshape(-1, 1, 2), c, False) >= 0
                               for c in centres) for q in outlines):
            found += 1
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenes", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    deck = faces()
    tally = {kind: [0, 0, 0, 0] for kind in TEXTURES}
    seconds = 0.0
    for i in range(args.scenes):
        kind = TEXTURES[i % len(TEXTURES)]
        frame, laid = busy_scene(deck, rng, kind=kind)
        start = time.process_time()
        outlines = card_outlines(frame, edges=True)
        seconds += time.process_time() - start
        shown = sum(bool(c) for c in index_centres(laid))
        tally[kind][0] += shown
        tally[kind][1] += found_cards(outlines, laid)
        tally[kind][2] += max(0, len(outlines) - len(laid))
        tally[kind][3] += found_cards(card_outlines(frame), laid)
    for kind, (cards, found, extra, white) in tally.items():
        print(f"  {kind:9s} found {found}/{cards} ({found / max(cards, 1):.1%}; by white alone "
              f"{white}), {extra} outlines beyond the cards laid")
    cards, found, extra, white = (sum(t[i] for t in tally.values()) for i in range(4))
    print(f"busy scenes (tuning set): found {found}/{cards} ({found / max(cards, 1):.1%}), by "
          f"white alone {white / max(cards, 1):.1%}; {extra} outlines beyond the cards laid; "
          f"{args.scenes / max(seconds, 1e-9):.1f} scenes/s")
    print(json.dumps({"busy_cards": cards, "busy_found": round(found / max(cards, 1), 4),
                      "busy_found_by_white": round(white / max(cards, 1), 4),
                      "busy_extra_outlines": extra}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
