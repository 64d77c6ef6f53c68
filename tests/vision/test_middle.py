"""The middle check (vision/middle.py): what a face's middle shows (pips counted in rows, the
network's pips / picture / one ace pip) on stored straightened cards, no veto when another card
lies over it, its veto in vision.reading.corner_card and how it firms up an unsure reading
there; its training script end to end on a tiny budget."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from table.rules import Card, Rank, Suit
from vision import reading
from vision.corners import OTHER_RANK, RANKS, SUITS, CornerReading, corner_reader
from vision.index import READ_H, READ_W, to_portrait
from vision.middle import (
    ACE,
    ALIKE,
    COURT,
    INDEX_H,
    INDEX_W,
    INK,
    KINDS,
    META,
    MODEL,
    PIPS,
    VIEW_H,
    VIEW_W,
    MiddleCheck,
    ink_mask,
    kind_of,
    middle_check,
    middle_view,
    pip_count,
)

Crops = list[tuple[str, str, np.ndarray]]


def test_each_rank_has_the_middle_a_player_expects() -> None:
    assert kind_of(int(Rank.NINE)) == kind_of(int(Rank.TEN)) == PIPS
    assert {kind_of(int(r)) for r in (Rank.JACK, Rank.QUEEN, Rank.KING)} == {COURT}
    assert kind_of(int(Rank.ACE)) == ACE


def test_the_view_paints_over_both_index_corners() -> None:
    card = np.full((READ_H, READ_W, 3), 230, np.uint8)
    card[5:40, 3:15] = 0                     # an index in the top-left corner
    card[READ_H - 40:READ_H - 5, READ_W - 15:READ_W - 3] = 0
    card[70:100, 50:75] = 0                  # a pip in the middle
    view = middle_view(card)
    assert view.shape == (VIEW_H, VIEW_W, 3)
    assert view[:INDEX_H * VIEW_H // READ_H - 1, :INDEX_W * VIEW_W // READ_W - 1].min() >= 200
    assert view[VIEW_H // 2].min() < 60      # the pip is still there
    with pytest.raises(ValueError, match="126x176"):
        middle_view(np.zeros((100, 60, 3), np.uint8))


def test_a_middle_that_cannot_tell_vetoes_nothing() -> None:
    check = middle_check()
    assert 0.0 < check.veto_below < 1 / KINDS
    assert 4 <= check.pip_rows <= 10
    for rank in Rank:   # the network unsure, no pips counted
        assert not check.rules_out(int(rank), 1 / KINDS, 0)
    assert check.rules_out(int(Rank.QUEEN), 0.98, check.pip_rows)
    assert check.rules_out(int(Rank.ACE), 0.98, check.pip_rows)
    assert not check.rules_out(int(Rank.NINE), 0.98, check.pip_rows)
    assert check.rules_out(int(Rank.NINE), 0.01, 0)
    # A nine whose middle counts a ten's pips is out; a ten counting nine is not (a pip lost).
    assert check.rules_out(int(Rank.NINE), 0.98, 10)
    assert not check.rules_out(int(Rank.NINE), 0.98, 9)
    assert not check.rules_out(int(Rank.TEN), 0.98, 9)


def test_pips_are_counted_in_a_drawn_middle_but_not_in_a_picture() -> None:
    card = np.full((READ_H, READ_W, 3), 235, np.uint8)
    index = card.copy()
    cv2.putText(index, "Q", (2, 22), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 0), 2)
    for x in (36, 63, 90):
        for y in (35, 70, 105, 140):
            cv2.circle(card, (x, y), 8, (20, 20, 20), -1)
    assert pip_count(card) == 12
    picture = card.copy()
    cv2.rectangle(picture, (40, 50), (86, 126), (30, 60, 200), -1)   # a big patch of colour
    assert pip_count(picture) == 0
    edge = card.copy()
    cv2.line(edge, (75, 0), (75, READ_H - 1), (30, 30, 30), 3)       # a card lying over it
    assert pip_count(edge) == 0
    assert pip_count(index) == 0


def test_a_jumbo_rank_wider_than_the_corner_left_out_is_not_counted_as_a_pip() -> None:
    """A Bicycle jumbo nine: its 9 runs past the index corner that the count leaves out, and
    the arc left over (about as big as a pip) made the nine a ten, vetoing a sure reading.
    Pips cut by those corners still count: they come in pairs, mirrored across the middle."""
    card = np.full((READ_H, READ_W, 3), 235, np.uint8)
    for x in (48, 84):
        for y in (57, 80, 108, 131):
            cv2.circle(card, (x, y), 6, (40, 40, 200), -1)
    cv2.circle(card, (66, 92), 6, (40, 40, 200), -1)
    assert pip_count(card) == 9
    jumbo = card.copy()
    cv2.putText(jumbo, "9", (14, 47), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (40, 40, 200), 2)
    pip = cv2.connectedComponentsWithStats(ink_mask(card[45:70, 40:56]))[2][1:, cv2.CC_STAT_AREA]
    rest = cv2.connectedComponentsWithStats(ink_mask(jumbo[:, 22:40]))[2][1:, cv2.CC_STAT_AREA]
    assert len(pip) == len(rest) == 1 and pip[0] / ALIKE <= rest[0] <= pip[0] * ALIKE
    assert pip_count(jumbo) == 9
    wide = card.copy()
    for x in (48, 84):
        cv2.circle(wide, (x, 57), 6, (235, 235, 235), -1)
    for x in (27, 99):   # the top pair, moved out into the corners left out
        cv2.circle(wide, (x, 57), 7, (40, 40, 200), -1)
    assert pip_count(wide) == 9


def test_ink_is_what_dividing_each_pixel_by_the_white_gives() -> None:
    rng = np.random.default_rng(3)
    drawn = np.full((READ_H, READ_W, 3), 228, np.uint8)
    cv2.circle(drawn, (60, 80), 20, (30, 40, 190), -1)
    for card in [drawn, np.zeros_like(drawn), np.full_like(drawn, 255)] + [
            rng.integers(lo, 256, drawn.shape, dtype=np.uint8) for lo in (0, 100, 200)]:
        x = card.astype(np.float32)
        white = np.percentile(x.reshape(-1, 3), 90, axis=0)
        expected = ((x / np.maximum(white, 24.0)).min(axis=2) < INK).astype(np.uint8)
        assert np.array_equal(ink_mask(card), expected)


def test_the_model_loads_through_opencv_with_its_thresholds_and_designs() -> None:
    net = cv2.dnn.readNetFromONNX(str(MODEL))
    net.setInput(np.zeros((2, 3, VIEW_H, VIEW_W), np.float32))
    assert net.forward().shape == (2, KINDS)
    meta = json.loads(META.read_text())
    splits = {d["split"] for d in meta["designs"]}
    assert {"train", "calibration", "evaluation"} <= splits
    assert MODEL.stat().st_size < 1_000_000


def test_the_middles_of_a_standard_deck_are_told_apart(
        standard_crops: dict[Card, np.ndarray]) -> None:
    check = middle_check()
    cards = list(standard_crops)
    portraits = [to_portrait(standard_crops[c]) for c in cards]
    kinds = check.kinds(portraits)
    right = sum(int(k.argmax()) == kind_of(int(c.rank)) for c, k in zip(cards, kinds,
                                                                         strict=True))
    assert right >= 0.9 * len(cards)
    # A nine or ten read as a court card or an ace would be stopped ...
    pips = [pip_count(p) for c, p in zip(cards, portraits, strict=True)
            if kind_of(int(c.rank)) == PIPS]
    assert sum(n >= check.pip_rows for n in pips) >= 0.5 * len(pips)
    # ... and the true ranks stand.
    vetoed = [str(c) for c, p in zip(cards, portraits, strict=True)
              if not check.allows(p, int(c.rank))]
    assert len(vetoed) <= 1, vetoed


def test_unseen_designs_keep_their_true_ranks(unseen_crops: Crops) -> None:
    check = middle_check()
    crops = [(d, Card.parse(name), to_portrait(img)) for d, name, img in unseen_crops
             if not name.startswith("other")]
    vetoed = [f"{d} {c}" for d, c, card in crops if not check.allows(card, int(c.rank))]
    assert len(vetoed) <= 1, vetoed
    stopped = [f"{d} {c}" for d, c, card in crops
               if kind_of(int(c.rank)) == PIPS and not check.allows(card, int(Rank.QUEEN))]
    assert len(stopped) >= 3


def _laid_over(under: np.ndarray, over: np.ndarray, share: float) -> np.ndarray:
    """A READ_SIZE card with another lying over its right-hand `share`, as in a meld row."""
    out = under.copy()
    x = int(READ_W * (1 - share))
    out[:, x:] = over[:, :READ_W - x]
    out[:, max(0, x - 2):x] = 40            # the edge's shadow
    return out


def test_a_middle_under_another_card_does_not_veto(
        standard_crops: dict[Card, np.ndarray]) -> None:
    check = middle_check()
    faces = {c: to_portrait(img) for c, img in standard_crops.items()}
    tens = [c for c in faces if c.rank == Rank.TEN]
    queens = [c for c in faces if c.rank == Rank.QUEEN]
    vetoed = []
    for ten, queen in zip(tens, queens, strict=True):
        for under, over in ((ten, queen), (queen, ten)):
            for share in (0.6, 0.75):
                card = _laid_over(faces[under], faces[over], share)
                if not check.allows(card, int(under.rank)):
                    vetoed.append(f"{under} under {over} ({share:.0%})")
    assert len(vetoed) <= 2, vetoed


def test_a_middle_known_to_be_covered_rules_nothing_out(
        standard_crops: dict[Card, np.ndarray]) -> None:
    """A card found by its index with another card over its middle: what shows there is the
    other card's face, a picture (which the network takes for this one's) or pips in rows (a
    hand's top card over the middles of the cards under it)."""
    check = middle_check()
    king = to_portrait(standard_crops[Card.parse("KD")])
    assert not check.allows(king, int(Rank.TEN))           # a picture: no ten
    assert check.allows(king, int(Rank.TEN), covered=True)
    nine = to_portrait(standard_crops[Card.parse("9S")])
    assert pip_count(nine) >= check.pip_rows
    assert not check.allows(nine, int(Rank.KING))          # pips in rows: no king
    assert check.allows(nine, int(Rank.KING), covered=True)


def test_a_vetoed_reading_abstains(standard_crops: dict[Card, np.ndarray],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    card = to_portrait(standard_crops[Card.parse("9C")])
    sure = reading.corner_card(card)
    assert sure.card == Card.parse("9C") and sure.vetoed is None
    strict = MiddleCheck(middle_check().net, 1.01, 0)      # rules out every rank
    monkeypatch.setattr(reading, "middle_check", lambda: strict)
    vetoed = reading.corner_card(card)
    assert vetoed.card is None and vetoed.vetoed == Card.parse("9C")
    assert reading.corner_card(card, middle=False).card == Card.parse("9C")


class _Unsure:
    """A corner reader that reads every card as `seen`, with the shipped threshold."""

    def __init__(self, seen: CornerReading) -> None:
        self.seen, self.abstain_below = seen, corner_reader().abstain_below

    def read(self, card: np.ndarray) -> CornerReading:
        return self.seen


def _leaning(first: Rank, second: Rank, suit: Suit) -> CornerReading:
    """A reading of both corners half for `first`, 0.4 for `second`: unsure."""
    rank = np.zeros(RANKS)
    rank[[int(first), int(second), OTHER_RANK]] = 0.5, 0.4, 0.1
    suits = np.zeros(SUITS)
    suits[suit.index] = 1.0
    return CornerReading(rank, suits)


def test_the_middle_firms_up_an_unsure_reading() -> None:
    seen = _leaning(Rank.NINE, Rank.QUEEN, Suit.parse("C"))
    pips = frozenset(int(r) for r in (Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE))
    firm = reading.settled(seen, pips)
    assert firm is not None and firm.best == seen.best
    assert firm.confidence == pytest.approx(0.5 / 0.6)
    assert reading.settled(seen, frozenset()) == seen
    # the middle never names a card the corners did not lean to most
    assert reading.settled(_leaning(Rank.QUEEN, Rank.NINE, Suit.parse("C")), pips) is None


def test_an_unsure_nine_is_named_over_nine_pips_and_not_over_a_picture(
        standard_crops: dict[Card, np.ndarray], monkeypatch: pytest.MonkeyPatch) -> None:
    """A corner read half as a nine, 0.4 as a queen (a Bicycle jumbo nine's rank): the middle
    of a nine (pips in rows: no court card, no ace) makes it sure; beside a queen's picture
    (no pips in rows) the reading stays unsure, and beside a ten's pips it is vetoed."""
    nine, queen, ten = (to_portrait(standard_crops[Card.parse(c)]) for c in ("9C", "QC", "10C"))
    assert middle_check().shows_pips(nine) and not middle_check().shows_pips(queen)
    monkeypatch.setattr(reading, "corner_reader",
                        lambda: _Unsure(_leaning(Rank.NINE, Rank.QUEEN, Suit.parse("C"))))
    assert reading.corner_card(nine).card == Card.parse("9C")
    assert reading.corner_card(queen).card is None
    # firmed up, it is checked as any sure reading: a ten's pips rule the nine out
    assert pip_count(ten) >= 10
    assert reading.corner_card(ten).card is None
    assert reading.corner_card(ten).vetoed == Card.parse("9C")
    assert reading.corner_card(nine, middle=False).card is None
    monkeypatch.setattr(reading, "corner_reader",
                        lambda: _Unsure(_leaning(Rank.QUEEN, Rank.NINE, Suit.parse("C"))))
    assert reading.corner_card(nine).card is None


def test_the_calibration_reads_as_corner_card_does() -> None:
    """vision.training's calibration: a reading its middle rules out has no confidence, an
    unsure one beside pips in rows is firmed up, and one beside no pips is left as it is."""
    from vision.training.__main__ import readings

    check = middle_check()
    unsure = _leaning(Rank.NINE, Rank.QUEEN, Suit.parse("C"))
    sure_queen = _leaning(Rank.QUEEN, Rank.NINE, Suit.parse("C")).without([int(Rank.NINE)])
    corner = [np.log(np.concatenate([r.rank, r.suit]) + 1e-12) for r in (unsure, sure_queen)]
    log_p = np.stack([np.stack([c, c]) for c in (corner[0], corner[0], corner[1])])
    pips = np.array([check.pip_rows, 0, check.pip_rows])
    named, conf = readings(log_p, 0.0, 0.0, (check, (np.full(3, 0.5), pips)))
    nine, queen = Card.parse("9C").index, Card.parse("QC").index
    assert named.tolist() == [nine, nine, queen]
    assert conf[0] == pytest.approx(0.5 / 0.6, abs=1e-3)
    assert conf[1] == pytest.approx(0.5, abs=1e-3)
    assert conf[2] == 0.0


def test_training_runs_end_to_end_on_a_tiny_budget(tmp_path: Path) -> None:
    pytest.importorskip("jax", reason="the train extra is not installed")
    pytest.importorskip("optax", reason="the train extra is not installed")
    pytest.importorskip("onnx", reason="the train extra is not installed")
    from vision.training import synth
    from vision.training.middle import main

    if len(synth.font_files()) < 6:
        pytest.skip("too few fonts installed to draw a training and a calibration design")
    # Design 5's rank font calibrates, design 0's trains (see designs.designs).
    code = main(["--synth", "6", "--only", "synth-000", "synth-005", "--steps", "2",
                 "--synth-shots", "1", "--calibration-shots", "1", "--any-fonts",
                 "--out", str(tmp_path)])
    assert code == 0
    meta = json.loads((tmp_path / META.name).read_text())
    assert {d["split"] for d in meta["designs"]} == {"train", "calibration"}
    assert 0.0 <= meta["veto_below"] <= 0.25 and meta["pip_rows"] >= 3
    check = MiddleCheck.load(tmp_path / MODEL.name, tmp_path / META.name)
    assert check.kinds([np.full((READ_H, READ_W, 3), 200, np.uint8)]).shape == (1, KINDS)
