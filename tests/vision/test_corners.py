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
from vision.corners import (
    META,
    MODEL,
    NO_SUIT,
    OTHER_RANK,
    WINDOW_H,
    WINDOW_W,
    CornerReader,
    combine,
    corner_reader,
    corner_views,
    log_softmax,
    prepare,
)
from vision.index import READ_H, READ_W, corner_windows, to_portrait

Crops = list[tuple[str, str, np.ndarray]]


def test_the_stored_crops_are_of_designs_left_out_of_training(unseen_crops: Crops) -> None:
    from vision.training import github_decks

    meta = json.loads(META.read_text())
    split = {d["name"]: d["split"] for d in meta["designs"]}
    evaluation = {d.name for d in github_decks.DECKS if d.split == "evaluation"}
    designs = {design for design, _, _ in unseen_crops}
    assert len(designs) >= 2
    # Evaluation designs (now, and when the model was made, or newer than it: not listed), and
    # a calibration one, never trained on either.
    assert designs & evaluation
    assert all(split.get(name, "evaluation") in ("evaluation", "calibration") for name in designs)
    assert all(split[name] == "calibration" for name in designs - evaluation)
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
    tiny = ["--synth", "6", "--only", "synth-000", "synth-005", "--steps", "2",
            "--synth-shots", "1", "--calibration-shots", "1", "--any-fonts"]
    other = tmp_path / "other"
    assert main(tiny + ["--seed", "5", "--channels", "4", "6", "8", "10", "--out", str(other)]) == 0
    assert main(tiny + ["--ensemble", str(other), "--out", str(tmp_path)]) == 0
    meta = json.loads((tmp_path / META.name).read_text())
    assert {d["split"] for d in meta["designs"]} == {"train", "calibration"}
    assert meta["ensemble"] == [{"file": "corner_reader_1.onnx", "seed": 5, "steps": 2,
                                 "channels": [4, 6, 8, 10], "closer": [0.5, 1.3]}]
    net = cv2.dnn.readNetFromONNX(str(tmp_path / MODEL.name))
    net.setInput(np.zeros((1, 3, WINDOW_H, WINDOW_W), np.float32))
    assert net.forward().shape == (1, 12)
    reader = CornerReader(tmp_path / MODEL.name, tmp_path / META.name)
    assert len(reader.nets) == 2


@pytest.mark.parametrize("trainer", ["vision.training.__main__", "vision.training.middle"])
def test_training_refuses_fonts_other_than_those_the_shipped_networks_were_drawn_with(
        trainer: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    import importlib

    from vision.training import synth

    pinned = tuple(Path(p) for p in synth.PINNED_FONTS.read_text().split())
    suits = tuple(Path(p) for p in synth.PINNED_SUIT_FONTS.read_text().split())
    assert synth.unpinned_fonts(pinned, suits) is None
    # The shipped model's drawn designs were drawn with exactly these rank fonts.
    sources = {d["source"] for d in json.loads(META.read_text())["designs"]
               if d["name"].startswith("synth-")}
    assert sources == {f"fonts:{len(pinned)} files ({synth.fonts_id(pinned)})"}

    other = pinned[1:] + (Path("/usr/share/fonts/truetype/other/Other.ttf"),)
    why = synth.unpinned_fonts(other, suits)
    assert why is not None and "1 of fonts.txt missing" in why and "1 not in it" in why
    assert str(pinned[0]) in why and "Other.ttf" in why and "suit font files" not in why
    assert "0 of suit_fonts.txt missing" in str(synth.unpinned_fonts(pinned, suits + other[-1:]))
    monkeypatch.setattr(synth, "font_files", lambda: other)
    monkeypatch.setattr(synth, "suit_fonts", lambda: suits)
    main = importlib.import_module(trainer).main
    with pytest.raises(SystemExit) as stopped:
        main(["--out", str(tmp_path)])
    assert stopped.value.code == 2
    assert f"apt-get install --no-install-recommends {' '.join(synth.FONT_PACKAGES)}" \
        in capsys.readouterr().err
    assert not any(tmp_path.iterdir())


def test_the_reader_averages_the_log_probabilities_of_its_networks(unseen_crops: Crops) -> None:
    reader = corner_reader()
    ensemble = json.loads(META.read_text()).get("ensemble", [])
    windows = corner_views(to_portrait(unseen_crops[0][2]))
    each = []
    for path in [MODEL] + [MODEL.parent / e["file"] for e in ensemble]:
        net = cv2.dnn.readNetFromONNX(str(path))
        net.setInput(prepare(windows))
        out = net.forward()
        each.append(np.concatenate([log_softmax(out[:, :7]), log_softmax(out[:, 7:])], axis=1))
    expected = np.mean(each, axis=0)
    seen = reader.logits(windows)
    for head in (slice(0, 7), slice(7, 12)):
        assert np.allclose(log_softmax(seen[:, head]), log_softmax(expected[:, head]), atol=1e-4)
    assert len(reader.nets) == 1 + len(ensemble)


def test_training_sees_some_corners_closer_from_their_corner() -> None:
    from vision.training.model import closer

    windows = np.full((400, WINDOW_H, WINDOW_W, 3), 255, np.uint8)
    windows[:, 4:24, 4:14] = 0                      # an index mark near the corner
    seen = closer(windows, np.random.default_rng(3), share=0.5, most=1.3)
    again = closer(windows, np.random.default_rng(3), share=0.5, most=1.3)
    assert np.array_equal(seen, again)              # from the seed
    changed = (seen != windows).reshape(len(windows), -1).any(axis=1)
    assert 0.4 < changed.mean() < 0.6
    ink = (seen[changed, :, :, 0] < 128)
    rows = ink.any(axis=2).sum(axis=1)              # the mark comes out taller, never shorter
    assert (rows >= 20).all() and (rows <= 20 * 1.3 + 2).all() and rows.mean() > 21
    assert ink[:, :3, :3].sum() == 0                # still anchored at the card's corner
    assert np.array_equal(closer(windows, np.random.default_rng(3), most=1.0), windows)


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


def test_another_cards_index_is_laid_over_one_corner_and_leaves_the_other_clear() -> None:
    from vision.faces import FACE_HEIGHT, FACE_WIDTH
    from vision.training import occlude

    under = np.full((FACE_HEIGHT, FACE_WIDTH, 4), 255, np.uint8)
    over = under.copy()
    x, y = occlude.OTHER_INDEX
    over[y - 8:y + 8, x - 8:x + 8, :3] = (0, 0, 255)     # its index: a red mark
    w, h = occlude.CORNER_W, occlude.CORNER_H
    for seed in range(12):
        laid = occlude.index_over_corner(under, np.random.default_rng(seed), [over])
        red = (laid[:, :, 2] > 200) & (laid[:, :, 1] < 80)
        near, far = (red[:h, :w], laid[-h:, -w:]) if red[:h, :w].any() \
            else (red[-h:, -w:], laid[:h, :w])
        assert near.any(), "the other card's index lies in one corner's window"
        assert (far == 255).all(), "the other corner is left clear"
        assert not np.array_equal(laid, under)


def _corner(rank: int, suit: int, margin: float) -> np.ndarray:
    """One corner's logits: sure of (rank, suit) by `margin` nats over every other class."""
    logits = np.zeros(7 + 5)
    logits[:7], logits[7:] = -margin, -margin
    logits[rank], logits[7 + suit] = 0.0, 0.0
    return logits


@pytest.mark.parametrize("independence", [0.0, 0.5, 1.0])
def test_a_corner_that_cannot_tell_leaves_the_other_to_decide(independence: float) -> None:
    sure = _corner(5, 1, 7.0)   # the ace of hearts
    alone = combine(sure[None], independence)
    with_covered = combine(np.stack([sure, np.zeros(12)]), independence)
    assert with_covered.best == (5, 1)
    assert with_covered.confidence == pytest.approx(alone.confidence)
    assert with_covered.confidence > 0.98
    # Turned the other way round, it is the same card.
    assert combine(np.stack([np.zeros(12), sure]), independence).best == (5, 1)
    # A corner whose pip is hidden but whose rank shows adds to the rank only.
    pip_hidden = _corner(5, 1, 7.0)
    pip_hidden[7:] = 0.0
    both = combine(np.stack([sure, pip_hidden]), independence)
    assert both.best == (5, 1) and both.confidence >= alone.confidence - 1e-9


def test_a_corner_that_sees_no_index_leaves_the_other_to_decide_as_calibrated() -> None:
    # Another card's face over a corner can look like no index at all ("other", "none"):
    # allowing for hidden corners, that speaks for every card alike.
    sure, no_index = _corner(5, 1, 7.0), _corner(6, 4, 7.0)
    alone = combine(sure[None])
    assert combine(np.stack([sure, no_index]), 0.0, 0.0).confidence < 0.5
    allowed = combine(np.stack([no_index, sure]), 0.0, 0.3)
    assert allowed.best == (5, 1) and allowed.confidence > 0.9 * alone.confidence
    # Both corners seeing no index: no card, whatever is allowed for.
    assert not combine(np.stack([no_index, no_index]), 1.0, 0.3).names_card


@pytest.mark.parametrize("independence", [0.0, 0.5, 1.0])
@pytest.mark.parametrize("hidden", [0.0, 0.3])
def test_two_corners_naming_different_cards_abstain(independence: float, hidden: float) -> None:
    ace_of_hearts, king_of_spades = _corner(5, 1, 7.0), _corner(4, 0, 7.0)
    seen = combine(np.stack([ace_of_hearts, king_of_spades]), independence, hidden)
    assert seen.confidence < 0.5   # below any threshold calibration can set (at least 0.5)
    ten_of_hearts = _corner(3, 1, 7.0)   # the same suit, another rank
    assert combine(np.stack([ace_of_hearts, ten_of_hearts]), independence,
                   hidden).confidence < 0.5


@pytest.mark.parametrize("independence", [0.0, 0.5, 1.0])
@pytest.mark.parametrize("hidden", [0.0, 0.03, 0.3])
def test_an_outline_over_two_cards_never_names_a_card_neither_corner_shows(
        independence: float, hidden: float) -> None:
    # One corner shows the ace of spades' pip, its rank cut off; the other the queen of clubs,
    # a little less sure of its suit: the spade's suit and the queen's rank make the queen of
    # spades, which neither corner shows.
    pip_of_spades = _corner(6, 0, 7.0)
    pip_of_spades[:7] = [0.0, 0.0, -0.1, -0.5, -0.5, -1.0, 0.1]   # rank: none, a jack, a queen?
    queen_of_clubs = _corner(3, 2, 7.0)
    queen_of_clubs[7:] = [-4.0, -9.0, 0.0, -9.0, -5.0]            # clubs, 98 %
    seen = combine(np.stack([pip_of_spades, queen_of_clubs]), independence, hidden)
    assert seen.confidence < 0.5
    # Each corner alone is what it is, and two corners of the one card still read it.
    assert combine(queen_of_clubs[None], independence, hidden).best == (3, 2)
    assert combine(np.stack([queen_of_clubs, queen_of_clubs]), independence,
                   hidden).confidence > 0.95


def _lay_across(card: np.ndarray, other: np.ndarray, turn: int, rng: np.random.Generator
                ) -> np.ndarray:
    """`card` (READ_SIZE) with `other` (a card's face, READ_SIZE) lying across its top-left
    corner (turn 0) or its bottom-right one (turn 1) at a random angle and place that hide
    that corner's index (its first 13 x 32 mm) and leave the other corner's window clear, with
    a shadow along its edge."""
    base = cv2.rotate(card, cv2.ROTATE_180) if turn else card.copy()
    size = (READ_W, READ_H)
    while True:
        m = cv2.getRotationMatrix2D((READ_W / 2, READ_H / 2), float(rng.uniform(-60, 60)), 1.0)
        m[:, 2] += rng.uniform((-50, -60), (35, 50)) - (READ_W / 2, READ_H / 2)
        mask = cv2.warpAffine(np.ones(other.shape[:2], np.float32), m, size)
        if (mask[:64, :26] > 0.5).mean() > 0.99 and \
                not mask[READ_H - WINDOW_H - 2:, READ_W - WINDOW_W - 2:].any():
            break
    face = cv2.warpAffine(other, m, size).astype(np.float32)
    shadow = cv2.GaussianBlur(mask, (0, 0), 3)[:, :, None] * (1 - mask[:, :, None])
    a = mask[:, :, None]
    out = np.clip(base * (1 - 0.4 * shadow) * (1 - a) + face * a, 0, 255).astype(np.uint8)
    return cv2.rotate(out, cv2.ROTATE_180) if turn else out


def test_a_card_with_one_index_under_another_card_is_read_from_the_other(
        unseen_crops: Crops, standard_crops: dict[Card, np.ndarray]) -> None:
    # Designs the reader never saw, each under a face of a deck it was trained on (kdegames'
    # standard) lying across one index corner: the other corner reads the card.
    covers = list(standard_crops.values())
    crops = [(design, name, img) for design, name, img in unseen_crops
             if not name.startswith("other")]
    reader = corner_reader()
    rng = np.random.default_rng(14)
    outcome: dict[str, list[str]] = {"read": [], "wrong": [], "abstained": []}
    for n, (design, name, img) in enumerate(crops):
        covered = _lay_across(img, covers[n % len(covers)], n % 2, rng)
        seen = reader.read(covered)
        sure = seen.names_card and seen.confidence >= reader.abstain_below
        named = Card.from_index(seen.ranked_cards(1)[0][0]) if sure else None
        key = "abstained" if named is None else "read" if named == Card.parse(name) \
            else "wrong"
        outcome[key].append(f"{design} {name}")
    assert outcome["wrong"] == []
    assert len(outcome["read"]) >= 0.75 * len(crops), outcome["abstained"]


def test_corner_views_zoom_the_index_about_the_cards_corner() -> None:
    card = np.full((READ_H, READ_W, 3), 240, np.uint8)
    card[10:30, 8:20] = 0                        # an index stroke in the top-left corner
    card[READ_H - 30:READ_H - 10, READ_W - 20:READ_W - 8] = 0   # and turned, bottom-right
    plain = corner_views(card)
    assert np.array_equal(plain, corner_windows(card, WINDOW_W, WINDOW_H))
    views = corner_views(card, (0.9, 1.0, 1.1))
    assert views.shape == (6, WINDOW_H, WINDOW_W, 3)
    assert np.array_equal(views[2:4], plain)

    def ink_rows(window: np.ndarray) -> tuple[int, int]:
        rows = np.nonzero((window.mean(axis=2) < 120).any(axis=1))[0]
        return int(rows.min()), int(rows.max())

    for corner in (0, 1):   # zoom 1.1 shows the stroke 10 % bigger and further from the edge
        assert ink_rows(views[4 + corner]) == pytest.approx((11, 32), abs=1)
        assert ink_rows(views[corner]) == pytest.approx((9, 26), abs=1)


def test_the_reader_averages_each_corners_readings_over_its_zooms(
        unseen_crops: Crops) -> None:
    reader = corner_reader()
    card = to_portrait(unseen_crops[0][2])
    logits = reader.logits(corner_views(card, reader.zooms)).reshape(len(reader.zooms), 2, -1)
    ranks = np.mean([log_softmax(z[:, :7]) for z in logits], axis=0)
    suits = np.mean([log_softmax(z[:, 7:]) for z in logits], axis=0)
    expected = combine(np.concatenate([ranks, suits], axis=1), reader.independence,
                       reader.hidden)
    seen = reader.read(card)
    assert np.allclose(seen.rank, expected.rank, atol=1e-5)
    assert np.allclose(seen.suit, expected.suit, atol=1e-5)
