"""Benchmark of the camera pipeline on simulated frames (vision/simulator.py).

    .venv/bin/python bench/bench_vision.py [--cards 12000] [--jobs 2] [--seed 1]

Reading: for every kdegames deck whose faces pass the checks (ordinary corner indices), frames
of 12 cards (a trick of four and eight meld cards) at 1920x1080 with perspective, lamp
gradient, glare, shadows, blur, noise and JPEG artefacts (a new camera pose and lamp every
`--per-scene` frames); every card found is straightened and read. Prints the share read
correctly, misread silently, and abstained (of the cards laid), and the share the finder
missed. `--cards 12000` (10,000 or more) is what can show a misread rate of 1 in 10,000.
Speed: frames per CPU second of the whole tracker (finding, hands, marker checks, reading) on
a 12-card 1920x1080 frame sequence, on one core (OpenCV and BLAS held to one thread): steady
(each card read already) and over 80 frames from a fresh tracker, reads included.
Unseen decks (bench/unseen_decks.py: @letele/playing-cards and Tek Eye's): the tracker's
speed on their 12-card frames on a blue cloth, beside a plain threshold-and-contour reader
(`baseline_reader`) on the same frames; and `find_cards` on 12-card scenes of them on seven
cloth colours with touching meld cards (`--scenes`). Real photos
(../shared/vision-dev/photos, when present; measured only, never tuned on): labelled cards
found, found and read, misread.
Latency: cards laid one at a time by a hand, frames from the card lying still (hand gone) to
its event, and how the tracker settled each card (event right, wrong, or asked); with
`--lamp warmer` (`cooler`, `dimmer`), every frame after calibration under another lamp.
Ends with one JSON line.
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import os
import subprocess
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

from bench.unseen_decks import make_deck, unseen_dir
from table.rules import ALL_CARDS, Card, CardPlayed
from vision.build_atlas import profile_from_decks, readable_decks
from vision.calibration import calibrate
from vision.detect import Detection, card_outlines, find_cards, grow, order_corners, straighten
from vision.faces import DeckUnusable, flatten, load_deck, load_face_folder
from vision.index import PATCH_H, PATCH_W, READ_H, READ_W
from vision.mat import mat_layout
from vision.profile import DeckProfile
from vision.reading import identify
from vision.simulator import Effects, MatScene
from vision.tracker import CardUnsure, Tracker
from vision.white import balanced


def twelve_card_scene(deck: str, rng: np.random.Generator, slide: int = 0) -> MatScene:
    scene = MatScene.create(mat_layout(4), deck, rng, effects=Effects(slide_frames=slide))
    lay_twelve(scene, rng)
    return scene


def lay_twelve(scene: MatScene, rng: np.random.Generator) -> None:
    """Clear the mat and lay 12 cards: a trick of four, and two meld cards for each seat."""
    scene.laid = []
    for i, index in enumerate(rng.choice(len(ALL_CARDS), 12)):
        scene.place(ALL_CARDS[int(index)], i % 4, "play" if i < 4 else "meld")


Tally = dict[str, Any]


def read_frames(deck: str, frames: int, seed: tuple[int, ...], per_scene: int,
                profile_decks: list[str] | None = None, dump: str | None = None) -> Tally:
    """Render `frames` 12-card frames of one deck (a fresh scene, so a fresh camera pose and
    lamp, every `per_scene` frames) and read every card; with `profile_decks`, read with a
    profile of those decks only."""
    cv2.setNumThreads(1)
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    profile = profile_from_decks(profile_decks, others=True) if profile_decks is not None \
        else None
    faces = load_deck(deck)
    tally: Tally = {"laid": 0, "correct": 0, "wrong": 0, "abstained": 0, "missed": 0,
                    "misreads": [], "abstentions": []}
    scene: MatScene | None = None
    for n in range(frames):
        if scene is None or n % per_scene == 0:
            scene = MatScene.create(mat_layout(4), faces, rng, effects=Effects(slide_frames=0))
        lay_twelve(scene, rng)
        frame = scene.render()
        outlines = card_outlines(frame)
        for k, item in enumerate(scene.laid):
            tally["laid"] += 1
            truth = scene.card_corners(item).mean(axis=0)
            near = [q for q in outlines if np.linalg.norm(q.mean(axis=0) - truth) < 15]
            if not near:
                tally["missed"] += 1
                if dump:
                    where = grow(scene.card_corners(item).astype(np.float32), 12)
                    cv2.imwrite(str(Path(dump) / f"missed_{deck}_{n}_{k}_{item.card}.png"),
                                straighten(frame, where))
                continue
            crop = straighten(frame, near[0])
            result = identify(crop, profile)
            what = f"{item.card} {result.candidates} {result.confidence} {deck} {seed} {n}"
            if result.card is None:
                tally["abstained"] += 1
                tally["abstentions"].append(what)
            elif result.card == item.card:
                tally["correct"] += 1
            else:
                tally["wrong"] += 1
                tally["misreads"].append(f"{item.card} as {result.card}: " + what)
            if dump and result.card != item.card:
                name = f"{deck}_{'_'.join(map(str, seed))}_{n}_{k}_{item.card}.png"
                cv2.imwrite(str(Path(dump) / name), crop)
    return tally


def reading(decks: list[str], cards: int, seed: int, jobs: int = 1, per_scene: int = 6,
            held_out: bool = False, dump: str | None = None) -> dict[str, Any]:
    """Lay and read about `cards` cards, shared evenly over the decks, in chunks that each have
    their own seed (so the figures do not depend on `jobs`); with `held_out`, each deck is read
    with a profile of the other decks only, as a deck the table has never seen would be."""
    frames = max(1, -(-cards // (12 * len(decks))))
    chunk = 4 * per_scene
    tasks = []
    for d, deck in enumerate(decks):
        others = [x for x in decks if x != deck] if held_out else None
        for c, start in enumerate(range(0, frames, chunk)):
            tasks.append((deck, min(chunk, frames - start), (seed, int(held_out), d, c),
                          per_scene, others, dump))
    if dump:
        Path(dump).mkdir(parents=True, exist_ok=True)
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            results = pool.starmap(read_frames, tasks)
    else:
        results = [read_frames(*task) for task in tasks]
    total: Tally = {"laid": 0, "correct": 0, "wrong": 0, "abstained": 0, "missed": 0,
                    "misreads": [], "abstentions": []}
    per_deck: dict[str, list[int]] = {}
    for task, result in zip(tasks, results, strict=True):
        for key, value in result.items():
            total[key] += value
        counts = per_deck.setdefault(task[0], [0, 0])
        counts[0] += result["correct"]
        counts[1] += result["laid"]
    for line in total["misreads"]:
        print(f"  misread {line}", file=sys.stderr)
    for deck, (ok, n) in per_deck.items():
        print(f"  {deck:28s} read {ok}/{n}")
    laid = total["laid"]
    return {"cards": laid, "correct": total["correct"] / laid, "misread": total["wrong"] / laid,
            "misreads": total["wrong"], "abstained": total["abstained"] / laid,
            "missed": total["missed"] / laid, "abstentions": total["abstentions"]}


CLOTHS: dict[str, tuple[int, int, int]] = {   # BGR
    "red": (40, 40, 150), "brown": (40, 70, 110), "blue": (120, 60, 30),
    "grey": (110, 110, 110), "green": (40, 110, 40), "black": (25, 25, 25),
    "beige": (170, 200, 220)}


def cloth_scene(faces: Path | dict[Card, np.ndarray], cloth: tuple[int, int, int],
                rng: np.random.Generator, size: tuple[int, int] = (1920, 1080)) -> MatScene:
    """12 cards on a plain cloth: a trick of four and two meld cards per seat, side by side
    touching, overlapping by up to 5 mm or 3 mm apart."""
    scene = MatScene.create(mat_layout(4), faces, rng, size=size,
                            effects=Effects(slide_frames=0), cloth=cloth,
                            pitch=float(rng.uniform(58, 66)))
    for i, index in enumerate(rng.choice(len(ALL_CARDS), 12, replace=False)):
        scene.place(ALL_CARDS[int(index)], i % 4, "play" if i < 4 else "meld")
    return scene


SCENE_DECKS = ("letele", "tekeye")   # drawn decks the reader never trained on (unseen_decks)


def unseen_faces() -> dict[str, Path]:
    """Folders of faces of decks the reader was not built from (bench/unseen_decks.py makes
    them); {} with a message when that cannot be done."""
    try:
        return {deck: make_deck(deck, unseen_dir()) for deck in SCENE_DECKS}
    except (OSError, subprocess.SubprocessError, DeckUnusable) as exc:
        print(f"unseen decks: cannot make their faces ({exc}); skipped")
        return {}


def cloth_scenes(decks: dict[str, Path], frames: int, seed: int) -> dict[str, Any]:
    """Find and read every card of `frames` 12-card scenes per cloth and deck (find_cards,
    the built-in reader). A card is found when an outline's centre lies within 15 px of its
    own and its corners within 8 px."""
    rng = np.random.default_rng(seed)
    per_cloth: dict[str, list[int]] = {}
    total = dict.fromkeys(("laid", "found", "read", "wrong", "abstained"), 0)
    for cloth, colour in CLOTHS.items():
        counts = per_cloth.setdefault(cloth, [0, 0, 0])
        for folder in decks.values():
            faces = load_face_folder(folder)
            for _ in range(frames):
                scene = cloth_scene(faces, colour, rng)
                found = find_cards(scene.render())
                for item in scene.laid:
                    truth = scene.card_corners(item)
                    match = [d for d in found if _same_outline(d.corners, truth)]
                    total["laid"] += 1
                    counts[0] += 1
                    if not match:
                        continue
                    total["found"] += 1
                    counts[1] += 1
                    card = match[0].reading.card
                    total["read"] += card == item.card
                    counts[2] += card == item.card
                    total["wrong"] += card is not None and card != item.card
                    total["abstained"] += card is None
    for cloth, (laid_n, found_n, read_n) in per_cloth.items():
        print(f"  {cloth:6s} found {found_n}/{laid_n}, read {read_n}")
    return total


def _same_outline(corners: np.ndarray, truth: np.ndarray) -> bool:
    if np.linalg.norm(corners.mean(axis=0) - truth.mean(axis=0)) > 15:
        return False
    return min(float(np.abs(np.roll(truth, k, axis=0) - corners).max()) for k in range(4)) < 8


Centre = tuple[float, float]   # a labelled corner box's centre, photo pixels


def photo_dir() -> Path | None:
    """The real photos (../shared/vision-dev/photos beside the project), when present."""
    root = Path(__file__).resolve().parent.parent
    for base in (root.parent, root.parent.parent):
        folder = base / "shared" / "vision-dev" / "photos"
        if (folder / "classes.txt").exists():
            return folder
    return None


def inside(d: Detection, centre: Centre) -> bool:
    """Whether a found card's outline holds a point of the photo."""
    return cv2.pointPolygonTest(d.corners.reshape(-1, 1, 2), centre, False) >= 0


def photo_paths(folder: Path, limit: int | None = None) -> list[Path]:
    """The real photos in order, the first `limit` of them."""
    return sorted(folder.glob("*.jpg"))[:limit]


def photos(folder: Path, paths: list[Path], deck: DeckProfile | None = None,
           seen: Callable[[np.ndarray, list[Detection], dict[Card, list[Centre]]], object]
           | None = None) -> dict[str, Any]:
    """find_cards on the real photos (measured only: nothing is tuned on them). A labelled card
    is found when an outline contains the centres of all its labelled corner boxes, read when
    such an outline's reading names it. A misread is an outline naming a card none of whose
    labelled corners lies inside it (a card partly under another is rightly read from its one
    corner, though its whole outline also holds the top card's corners). A card labelled with
    more than two corners is two copies of it (some photos hold one card twice): two cards,
    found (read) when each of those corners lies in an outline (reading it). As one outline over
    two cards counts as finding both, the stricter figures count only outlines holding no other
    labelled card's corner ("own"), and the outlines holding no labelled corner at all.
    `deck` is read by (as `find_cards`); `seen` is given each photo, what was found in it and
    the labelled corners' centres of each pinochle card in it."""
    classes = (folder / "classes.txt").read_text().split()
    tally = dict.fromkeys(("photos", "cards", "found", "read", "wrong", "other_card",
                           "own_found", "own_read", "outlines", "empty", "seconds"), 0.0)
    for image_path in paths:
        frame = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
        label_path = image_path.with_suffix(".txt")
        if frame is None or not label_path.exists():
            continue
        h, w = frame.shape[:2]
        boxes: dict[Card, list[Centre]] = {}
        every: list[Centre] = []   # the corners of all labelled cards, pinochle or not
        for line in label_path.read_text().splitlines():
            parts = line.split()
            if len(parts) != 5:
                continue
            every.append((float(parts[1]) * w, float(parts[2]) * h))
            try:
                card = Card.parse(classes[int(parts[0])].upper())
            except ValueError:   # a joker or a card below the nine: not a pinochle card
                tally["other_card"] += 1
                continue
            boxes.setdefault(card, []).append((float(parts[1]) * w, float(parts[2]) * h))
        start = time.process_time()
        found = find_cards(frame, deck)
        tally["seconds"] += time.process_time() - start
        tally["photos"] += 1
        if seen is not None:
            seen(frame, found, boxes)

        held = [{c for c in every if inside(d, c)} for d in found]
        tally["outlines"] += len(found)
        tally["empty"] += sum(not h for h in held)
        for d in found:
            named = d.reading.card
            tally["wrong"] += named is not None and not any(
                inside(d, c) for c in boxes.get(named, []))
        for card, centres in boxes.items():
            for outcome in _outcomes(card, centres, list(zip(found, held, strict=True))):
                tally["cards"] += 1
                for key, value in zip(("found", "read", "own_found", "own_read"), outcome,
                                      strict=True):
                    tally[key] += value
    return tally


def _outcomes(card: Card, centres: list[Centre],
              outlines: list[tuple[Detection, set[Centre]]]) -> list[tuple[bool, ...]]:
    """Found, read, found by its own outline, read so: for the card labelled at `centres`
    among `outlines` (each with the labelled corners it holds); two such rows when there are
    more than two corners (two copies of the card, which cannot be told apart)."""
    def by(own: bool, named: bool) -> list[tuple[Detection, set[Centre]]]:
        return [(d, h) for d, h in outlines if (not own or h <= set(centres))
                and (not named or d.reading.card == card)]

    ways = [by(own, named) for own in (False, True) for named in (False, True)]
    if len(centres) <= 2:   # one card: an outline must hold all its corners
        return [tuple(any(all(c in h for c in centres) for _, h in way) for way in ways)]
    # each corner in an outline: both copies count alike
    return 2 * [tuple(all(any(c in h for _, h in way) for c in centres) for way in ways)]


def baseline_reader(faces: dict[Card, np.ndarray]) -> Callable[[np.ndarray], list[Card]]:
    """A plain threshold-and-contour reader, the speed baseline: Otsu on grey, outer
    contours, approxPolyDP quads of a card's size, each straightened and its corner compared
    with the 24 faces' corners (nearest by correlation)."""
    refs = np.stack([_corner_vector(cv2.resize(flatten(faces[c]), (READ_W, READ_H),
                                               interpolation=cv2.INTER_AREA))
                     for c in ALL_CARDS])

    def read(frame: np.ndarray) -> list[Card]:
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        _, mask = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        cards = []
        for contour in contours:
            area = cv2.contourArea(contour)
            if not 0.002 * grey.size < area < 0.05 * grey.size:
                continue
            quad = cv2.approxPolyDP(contour, 0.02 * cv2.arcLength(contour, True), True)
            if len(quad) != 4 or not cv2.isContourConvex(quad):
                continue
            crop = straighten(frame, order_corners(quad.reshape(4, 2).astype(np.float32)))
            cards.append(ALL_CARDS[int(np.argmax(refs @ _corner_vector(crop)))])
        return cards

    return read


def _corner_vector(card: np.ndarray) -> np.ndarray:
    corner = cv2.cvtColor(card[:PATCH_H, :PATCH_W], cv2.COLOR_BGR2GRAY).astype(np.float32)
    v = cv2.resize(corner, (16, 30), interpolation=cv2.INTER_AREA).ravel()
    v -= v.mean()
    return v / max(float(np.linalg.norm(v)), 1e-6)


def unseen_speed(folder: Path, rng: np.random.Generator, frames: int = 80) -> dict[str, float]:
    """Frames per CPU second, one core, at 1920x1080 with 12 cards of a deck the reader was
    never built from (on a blue cloth): the tracker from fresh (reading every card, asking
    about those it cannot read), the tracker once settled, and the baseline reader on the
    same frames."""
    faces = load_face_folder(folder)
    scene = cloth_scene(faces, CLOTHS["blue"], rng)
    empty = MatScene.create(mat_layout(4), faces, rng, effects=Effects(slide_frames=0),
                            cloth=CLOTHS["blue"])
    times, tracker, shots = _track_timed(scene, empty, frames)
    baseline = baseline_reader(faces)
    start = time.process_time()
    for i in range(frames):
        baseline(shots[i % len(shots)])
    base_fps = frames / (time.process_time() - start)
    return {"fresh": frames / sum(times), "settled": (frames - 20) / sum(times[20:]),
            "reads": tracker.reads, "baseline": base_fps}


def speed(deck: str, rng: np.random.Generator, frames: int = 80) -> tuple[float, float]:
    """Frames per second of the tracker over a 12-card scene: from a fresh tracker (so every
    card is read within the first frames) and in the steady state after that."""
    scene = twelve_card_scene(deck, rng)
    empty = MatScene.create(mat_layout(4), deck, rng, effects=Effects(slide_frames=0))
    times, _, _ = _track_timed(scene, empty, frames)
    return frames / sum(times), (frames - 20) / sum(times[20:])


def _track_timed(scene: MatScene, empty: MatScene, frames: int
                 ) -> tuple[list[float], Tracker, list[np.ndarray]]:
    """A fresh tracker, calibrated on the empty mat seen by the scene's camera, fed `frames`
    frames (8 renders of the scene in turn): the CPU time of each update, the tracker, the
    renders."""
    empty.camera = scene.camera
    calibration = calibrate(empty.render(), mat_layout(4))
    shots = [scene.render() for _ in range(8)]
    tracker = Tracker(calibration, clock=lambda: 0.0)
    times = []
    for i in range(frames):
        start = time.process_time()
        tracker.update(shots[i % len(shots)])
        times.append(time.process_time() - start)
    return times, tracker, shots


def _ticker() -> Callable[[], float]:
    """A clock that moves on by one at each reading."""
    ticks = itertools.count()
    return lambda: float(next(ticks))


# the lamp's colour after calibration, as gains on blue, green and red (`--lamp`)
LAMPS = {"same": (1.0, 1.0, 1.0), "warmer": (0.7, 0.9, 1.0), "cooler": (1.0, 0.92, 0.75),
         "dimmer": (0.35, 0.35, 0.35)}


def latency(decks: list[str], rng: np.random.Generator, per_deck: int,
            lamp: str = "same") -> dict[str, Any]:
    delays: list[int] = []
    right = wrong = asked = silent = 0
    gains = np.array(LAMPS[lamp], np.float32)
    for deck in decks:
        scene = MatScene.create(mat_layout(3), deck, rng, effects=Effects(slide_frames=2))
        tracker = Tracker(calibrate(scene.render(), mat_layout(3)), clock=_ticker())

        def shoot(scene: MatScene = scene) -> np.ndarray:
            return balanced(scene.render(), gains)

        for n in range(per_deck):
            if n % 3 == 0 and n:
                scene.gather()
                for _ in range(6):
                    tracker.update(shoot())
            card = ALL_CARDS[int(rng.integers(len(ALL_CARDS)))]
            scene.place(card, n % 3, "play")
            still_at = None
            outcome = None
            for _ in range(14):
                if still_at is None and scene.settled:
                    still_at = scene.frame_number
                events = tracker.update(shoot())
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
    total = max(1, right + wrong + asked + silent)
    return {"cards": total, "right": right / total, "wrong": wrong / total,
            "asked": asked / total, "no_event": silent / total,
            "median_frames": float(np.median(delays)) if delays else None,
            "max_frames": max(delays) if delays else None}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cards", type=int, default=1152,
                        help="cards to lay and read, shared over the decks (10000 or more to "
                             "show a misread rate of 1 in 10,000)")
    parser.add_argument("--scenes-per-deck", type=int, default=None,
                        help="old form of --cards: this many 12-card frames per deck")
    parser.add_argument("--per-scene", type=int, default=6,
                        help="frames rendered per camera pose and lamp before a new scene")
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes reading at once (the figures do not depend on it)")
    parser.add_argument("--latency-cards", type=int, default=12, help="cards laid per deck")
    parser.add_argument("--lamp", choices=list(LAMPS), default="same",
                        help="the lamp's colour while the tracker's cards are laid, against "
                             "the one it was calibrated under")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--held-out", type=int, default=0, metavar="CARDS",
                        help="also read this many cards, each deck with a profile of the "
                             "other decks only")
    parser.add_argument("--dump", metavar="DIR", help="save the crops not read correctly")
    parser.add_argument("--scenes", type=int, default=2, metavar="FRAMES",
                        help="12-card frames per cloth colour and unseen deck")
    parser.add_argument("--photos", type=int, default=None, metavar="COUNT",
                        help="read only the first COUNT real photos (default: all)")
    parser.add_argument("--skip", nargs="*", default=[],
                        choices=["speed", "latency", "scenes", "photos"],
                        help="parts to leave out")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    rng = np.random.default_rng(args.seed)
    decks = readable_decks()
    print(f"decks with ordinary indices: {len(decks)}: {', '.join(decks)}")
    cards = args.cards if args.scenes_per_deck is None \
        else args.scenes_per_deck * 12 * len(decks)
    start = time.perf_counter()
    read = reading(decks, cards, args.seed, args.jobs, args.per_scene, dump=args.dump)
    print(f"read {read['cards']} cards in {time.perf_counter() - start:.0f} s: correct "
          f"{read['correct']:.2%}, silent misreads {read['misreads']} "
          f"({read['misread']:.3%}), abstained {read['abstained']:.2%}, "
          f"not found {read['missed']:.2%}")
    if read["misreads"] == 0:
        print(f"  no misread in {read['cards']} cards: the rate is below "
              f"{3 / read['cards']:.2e} with 95% confidence (rule of three)")
    figures: dict[str, object] = {}
    if "speed" in args.skip:
        print("whole pipeline: skipped")
    else:
        fps_all, fps = speed("svg-standard", rng)
        print(f"whole pipeline, 1920x1080 with 12 cards, one core: {fps:.1f} frames/s once the "
              f"cards are read, {fps_all:.1f} frames/s over 80 frames including reading all 12")
        figures |= {"fps_1080p_12_cards": round(fps, 1), "fps_including_reads": round(fps_all, 1)}
    unseen = unseen_faces() if {"speed", "scenes"} - set(args.skip) else {}
    if unseen and "speed" not in args.skip:
        fast = unseen_speed(next(iter(unseen.values())), rng)
        print(f"unseen deck ({next(iter(unseen))}), 1920x1080 with 12 cards, one core: "
              f"tracker {fast['settled']:.1f} frames/s settled, {fast['fresh']:.1f} over 80 "
              f"frames from fresh ({fast['reads']} card readings); plain "
              f"threshold-and-contour reader {fast['baseline']:.1f} frames/s: ratio "
              f"{fast['settled'] / fast['baseline']:.2f} settled, "
              f"{fast['fresh'] / fast['baseline']:.2f} from fresh")
        figures |= {"unseen_fps_settled": round(fast["settled"], 1),
                    "unseen_fps_fresh": round(fast["fresh"], 1),
                    "baseline_fps": round(fast["baseline"], 1),
                    "fps_ratio_to_baseline": round(fast["settled"] / fast["baseline"], 2)}
    if unseen and "scenes" not in args.skip:
        scenes = cloth_scenes(unseen, args.scenes, args.seed)
        laid = max(1, scenes["laid"])
        print(f"unseen decks ({', '.join(unseen)}) on {len(CLOTHS)} cloths, touching cards: "
              f"{scenes['laid']} cards, found {scenes['found'] / laid:.1%}, read "
              f"{scenes['read'] / laid:.1%}, misread {scenes['wrong'] / laid:.2%}, "
              f"abstained {scenes['abstained'] / laid:.1%}")
        figures |= {"cloth_cards": scenes["laid"],
                    "cloth_found": round(scenes["found"] / laid, 4),
                    "cloth_read": round(scenes["read"] / laid, 4),
                    "cloth_misread": round(scenes["wrong"] / laid, 4)}
    folder = photo_dir()
    if "photos" in args.skip:
        print("real photos: skipped")
    elif folder is None:
        print("real photos: ../shared/vision-dev/photos is not there; skipped")
    else:
        shots = photos(folder, photo_paths(folder, args.photos))
        n = max(1, shots["cards"])
        print(f"real photos ({int(shots['photos'])} of a Bicycle deck, measured only): "
              f"{int(shots['cards'])} cards ({int(shots['other_card'])} labels of non-pinochle "
              f"cards left out), found {shots['found'] / n:.1%}, found and read "
              f"{shots['read'] / n:.1%}, misread {shots['wrong'] / n:.2%}; by an outline of its "
              f"own: found {shots['own_found'] / n:.1%}, read {shots['own_read'] / n:.1%}; "
              f"{int(shots['outlines'])} outlines, {int(shots['empty'])} holding no labelled "
              f"corner; {shots['photos'] / max(shots['seconds'], 1e-9):.1f} photos/s")
        figures |= {"photo_cards": int(shots["cards"]),
                    "photo_found": round(shots["found"] / n, 4),
                    "photo_read": round(shots["read"] / n, 4),
                    "photo_misread": round(shots["wrong"] / n, 4),
                    "photo_own_found": round(shots["own_found"] / n, 4),
                    "photo_own_read": round(shots["own_read"] / n, 4),
                    "photo_outlines": int(shots["outlines"]),
                    "photo_empty_outlines": int(shots["empty"])}
    if "latency" in args.skip:
        print("tracker: skipped")
    else:
        lat = latency(decks, rng, args.latency_cards, args.lamp)
        under = "as at calibration" if args.lamp == "same" else f"{args.lamp} than at calibration"
        print(f"tracker, {lat['cards']} cards laid by hand (the lamp {under}): event right "
              f"{lat['right']:.1%}, wrong {lat['wrong']:.1%}, asked {lat['asked']:.1%}, none "
              f"{lat['no_event']:.1%}; frames from still to event: median "
              f"{lat['median_frames']}, max {lat['max_frames']}")
        figures |= {"tracker_cards": lat["cards"], "tracker_right": round(lat["right"], 4),
                    "tracker_wrong": round(lat["wrong"], 4),
                    "tracker_asked": round(lat["asked"], 4),
                    "still_to_event_frames_median": lat["median_frames"],
                    "still_to_event_frames_max": lat["max_frames"]}
    held = reading(decks, args.held_out, args.seed, args.jobs, args.per_scene,
                   held_out=True) if args.held_out else None
    if held:
        print(f"decks never seen (profile of the other {len(decks) - 1}): read "
              f"{held['cards']} cards: correct {held['correct']:.2%}, silent misreads "
              f"{held['misread']:.2%}, abstained {held['abstained']:.2%}")
    extra = {"unseen_deck_correct": round(held["correct"], 4),
             "unseen_deck_misread": round(held["misread"], 4),
             "unseen_deck_abstained": round(held["abstained"], 4)} if held else {}
    print(json.dumps({"bench": "vision", "decks": len(decks), "cards_read": read["cards"],
                      "correct": round(read["correct"], 5), "misread": round(read["misread"], 6),
                      "misreads": read["misreads"],
                      "abstained": round(read["abstained"], 5),
                      "not_found": round(read["missed"], 5), **figures, **extra}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
