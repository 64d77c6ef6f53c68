"""The corner reader (vision/corners.py): the committed ONNX model through cv2.dnn, on stored
crops of designs it was never trained or calibrated on; and its training script, end to end on
a tiny budget."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from table.rules import Card
from vision import identify
from vision.corners import META, MODEL, NO_SUIT, OTHER_RANK, WINDOW_H, WINDOW_W, corner_reader
from vision.index import READ_H, READ_W

Crops = list[tuple[str, str, np.ndarray]]


def test_the_stored_crops_are_of_designs_left_out_of_training(unseen_crops: Crops) -> None:
    meta = json.loads(META.read_text())
    split = {d["name"]: d["split"] for d in meta["designs"]}
    designs = {design for design, _, _ in unseen_crops}
    assert len(designs) >= 2
    assert all(split.get(name) == "evaluation" for name in designs)
    assert 0.5 <= meta["abstain_below"] < 1.0


def test_the_model_loads_through_opencv_and_gives_both_heads() -> None:
    net = cv2.dnn.readNetFromONNX(str(MODEL))
    net.setInput(np.zeros((2, 3, WINDOW_H, WINDOW_W), np.float32))
    assert net.forward().shape == (2, 7 + 5)


def test_unseen_decks_are_read_and_never_misread(unseen_crops: Crops) -> None:
    crops = [(design, name, img) for design, name, img in unseen_crops
             if not name.startswith("other")]
    assert len(crops) >= 30
    readings = {(design, name): identify(img) for design, name, img in crops}
    wrong = {k: str(r.card) for k, r in readings.items()
             if r.card is not None and r.card != Card.parse(k[1])}
    correct = sum(r.card == Card.parse(k[1]) for k, r in readings.items())
    assert wrong == {}
    assert correct >= 0.85 * len(crops), \
        f"abstained on {[k for k, r in readings.items() if r.card is None]}"


def test_other_faces_of_unseen_decks_are_not_read_as_pinochle_cards(unseen_crops: Crops) -> None:
    others = [(design, name, img) for design, name, img in unseen_crops
              if name.startswith("other")]
    assert len(others) >= 6
    named = {(design, name): str(r.card) for design, name, img in others
             if (r := identify(img)).card is not None}
    assert named == {}


def test_blank_paper_cloth_and_noise_are_abstained_on() -> None:
    rng = np.random.default_rng(3)
    images = [np.full((READ_H, READ_W, 3), v, np.uint8) for v in (0, 120, 235, 255)]
    images += [np.full((READ_H, READ_W, 3), c, np.uint8) for c in ((40, 90, 30), (30, 30, 140))]
    images.append(rng.integers(0, 255, (READ_H, READ_W, 3), dtype=np.uint8))
    cloth = np.clip(rng.normal(90, 12, (READ_H, READ_W, 3)), 0, 255).astype(np.uint8)
    images.append(cv2.GaussianBlur(cloth, (0, 0), 1.5))
    for img in images:
        reading = identify(img)
        assert reading.card is None
    seen = corner_reader().read(images[2])
    assert seen.best[0] == OTHER_RANK or seen.best[1] == NO_SUIT or \
        seen.confidence < corner_reader().abstain_below


def test_training_runs_end_to_end_on_a_tiny_budget(tmp_path: Path) -> None:
    pytest.importorskip("jax", reason="the train extra is not installed")
    pytest.importorskip("optax", reason="the train extra is not installed")
    pytest.importorskip("onnx", reason="the train extra is not installed")
    from vision.training import synth
    from vision.training.__main__ import main

    fonts = synth.font_files()
    if len(fonts) < 6:
        pytest.skip("too few fonts installed to draw a training and a calibration design")
    # Design 5's rank font calibrates, design 0's trains (see designs.designs).
    code = main(["--synth", "6", "--only", "synth-000", "synth-005", "--steps", "2",
                 "--synth-shots", "1", "--calibration-shots", "1", "--out", str(tmp_path)])
    assert code == 0
    meta = json.loads((tmp_path / META.name).read_text())
    assert {d["split"] for d in meta["designs"]} == {"train", "calibration"}
    net = cv2.dnn.readNetFromONNX(str(tmp_path / MODEL.name))
    net.setInput(np.zeros((1, 3, WINDOW_H, WINDOW_W), np.float32))
    assert net.forward().shape == (1, 12)


def test_a_corner_whose_pip_is_covered_is_taught_as_cannot_tell() -> None:
    from vision.training import occlude, synth
    from vision.training.face import PIP_INK, RANK_INK

    fonts = synth.font_files()
    if not fonts:
        pytest.skip("no fonts installed to draw a design")
    face = synth.deck(0, fonts)[0]
    assert face.index_ink is not None
    half = face.index_ink.shape[0] // 2
    top = face.index_ink[:half]
    rank_rows = np.nonzero((top == RANK_INK).any(axis=1))[0]
    pip_rows = np.nonzero((top == PIP_INK).any(axis=1))[0]
    assert len(rank_rows) and len(pip_rows) and pip_rows.mean() > rank_rows.mean()
    hidden = 0
    for seed in range(40):
        seen = occlude.occlude(face, np.random.default_rng(seed))
        assert seen is not None
        image, labels = seen
        changed = np.abs(image[:, :, :3].astype(int) - face.image[:, :, :3]).sum(axis=2) > 30
        for turn, (rank, suit) in enumerate(labels):
            assert rank in (face.rank, occlude.UNKNOWN) and suit in (face.suit, occlude.UNKNOWN)
            rows = slice(0, half) if turn == 0 else slice(half, None)
            pip = face.index_ink[rows] == PIP_INK
            if suit == occlude.UNKNOWN:   # only where the pip's ink was painted over
                hidden += 1
                assert changed[rows][pip].mean() >= 0.1
    assert hidden > 0
