"""Regenerate the stored test data under tests/vision/data/ from the simulator:
`.venv/bin/python tests/vision/make_data.py` (needs kdegames-card-data-kf5 and rsvg-convert).

- game/: camera frames of a scripted three-seat hand (two tricks, a hand reaching over the mat,
  the trick gathered, the camera bumped) and script.json saying what happened at which frame.
- crops/<deck>/: straightened card images as find_cards cuts them out of simulated frames, two
  shots of every face: one deck for identify(), another for the enrollment round trip.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import cv2
import numpy as np

from table.rules import ALL_CARDS, Card, parse_cards
from vision.detect import card_outlines, straighten
from vision.faces import load_deck
from vision.mat import mat_layout
from vision.simulator import Effects, MatScene

DATA = Path(__file__).resolve().parent / "data"
GAME_DECK = "svg-nicu-white"
READ_DECK = "svg-standard"
ENROLL_DECK = "svg-ancient-egyptians"
JPEG = [cv2.IMWRITE_JPEG_QUALITY, 75]


def make_game(out: Path) -> None:
    layout = mat_layout(3)
    effects = Effects(noise=2.0, slide_frames=2)
    scene = MatScene.create(layout, GAME_DECK, np.random.default_rng(2026), effects=effects)
    frames: list[np.ndarray] = []
    script: list[dict[str, object]] = []

    def shoot(count: int, note: str) -> None:
        for _ in range(count):
            frames.append(scene.render())
        script.append({"until_frame": len(frames), "note": note})

    shoot(1, "empty mat (calibrate on this frame)")
    tricks = [((0, "KH"), (1, "10H"), (2, "AH")), ((2, "QS"), (0, "9C"), (1, "JD"))]
    for number, trick in enumerate(tricks):
        for seat, text in trick:
            scene.place(Card.parse(text), seat, "play")
            shoot(6, f"seat {seat} plays {text}")
        if number == 0:
            scene.hand_over(1, frames=4)
            shoot(5, "a hand reaches over the mat")
        scene.gather()
        scene.hand_over(0, frames=2)
        shoot(5, "trick gathered")
    scene.bump(30.0)
    shoot(6, "camera bumped")
    for i, frame in enumerate(frames):
        cv2.imwrite(str(out / f"{i:03d}.jpg"), frame, JPEG)
    plays = [{"seat": s, "card": c} for trick in tricks for s, c in trick]
    (out / "script.json").write_text(json.dumps(
        {"seats": 3, "deck": GAME_DECK, "plays": plays, "steps": script}, indent=1))


def make_crops(deck: str, out: Path, checked: bool = True) -> None:
    faces = load_deck(deck, checked=checked)
    rng = np.random.default_rng(7)
    for shot in range(2):
        cards = list(ALL_CARDS)
        for start in range(0, len(cards), 8):
            scene = MatScene(mat_layout(4), faces, rng, effects=Effects(slide_frames=0))
            batch = cards[start:start + 8]
            for i, card in enumerate(batch):
                scene.place(card, i % 4, "play" if i < 4 else "meld")
            frame = scene.render()
            outlines = card_outlines(frame)
            for item in scene.laid:
                truth = scene.card_corners(item).mean(axis=0)
                near = [q for q in outlines if np.linalg.norm(q.mean(axis=0) - truth) < 10]
                if near:
                    crop = straighten(frame, near[0])
                    cv2.imwrite(str(out / f"{item.card}_{shot}.jpg"), crop, JPEG)


def main() -> int:
    if DATA.exists():
        shutil.rmtree(DATA)
    (DATA / "game").mkdir(parents=True)
    make_game(DATA / "game")
    for deck, checked in ((READ_DECK, True), (ENROLL_DECK, True)):
        (DATA / "crops" / deck).mkdir(parents=True)
        make_crops(deck, DATA / "crops" / deck, checked)
    size = sum(p.stat().st_size for p in DATA.rglob("*") if p.is_file())
    print(f"wrote {DATA} ({size / 1e6:.1f} MB); plays {parse_cards('KH 10H AH QS 9C JD')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
