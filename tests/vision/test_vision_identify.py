"""identify() on stored straightened cards of kdegames' standard deck, in every orientation."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from table.rules import Card
from vision import identify

TURNS = (None, cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_COUNTERCLOCKWISE)


def _turn(image: np.ndarray, turn: int | None) -> np.ndarray:
    return image if turn is None else np.ascontiguousarray(cv2.rotate(image, turn))


@pytest.mark.parametrize("turn", TURNS, ids=["upright", "quarter", "upside-down", "three-quarter"])
def test_every_face_is_read_or_abstained_never_misread(standard_crops: dict[Card, np.ndarray],
                                                        turn: int | None) -> None:
    assert len(standard_crops) == 24
    readings = {card: identify(_turn(img, turn)) for card, img in standard_crops.items()}
    wrong = {str(c): str(r.card) for c, r in readings.items() if r.card not in (None, c)}
    assert wrong == {}
    read = [c for c, r in readings.items() if r.card == c]
    assert len(read) >= 22, f"abstained on {[str(c) for c in readings if c not in read]}"
    assert all(0.0 <= r.confidence <= 1.0 for r in readings.values())


def test_a_half_turn_reads_the_same(standard_crops: dict[Card, np.ndarray]) -> None:
    for img in list(standard_crops.values())[:8]:
        assert identify(img).card == identify(_turn(img, cv2.ROTATE_180)).card


def test_candidates_name_the_runner_up(standard_crops: dict[Card, np.ndarray]) -> None:
    card, img = next(iter(standard_crops.items()))
    reading = identify(img)
    assert reading.candidates[0][0] == card
    assert reading.candidates[1][0] != card


def test_what_is_not_a_card_face_is_not_read() -> None:
    blank = np.full((176, 126, 3), 235, np.uint8)
    rng = np.random.default_rng(0)
    noise = rng.integers(0, 255, (176, 126, 3), dtype=np.uint8)
    assert identify(blank).card is None
    assert identify(noise).card is None


def test_bad_images_get_a_clear_error() -> None:
    with pytest.raises(ValueError, match="too small"):
        identify(np.zeros((10, 8, 3), np.uint8))
    with pytest.raises(ValueError, match="BGR"):
        identify(np.zeros((176, 126), np.uint8))


def test_an_outline_found_off_the_card_is_still_read(
        standard_crops: dict[Card, np.ndarray]) -> None:
    # As when a card touches another: the outline takes in a strip of mat on one side and
    # cuts the card on the other.
    read = 0
    for card, img in list(standard_crops.items())[::3]:
        h, w = img.shape[:2]
        shifted = np.empty_like(img)
        shifted[:, :7] = (40, 90, 30)   # the mat's green
        shifted[:, 7:] = img[:, :w - 7]
        shifted[h - 5:] = (40, 90, 30)
        reading = identify(shifted)
        assert reading.card in (None, card)
        read += reading.card == card
    assert read >= 7


def test_the_fast_correlation_is_opencvs() -> None:
    from vision.templates import CORE_H, CORE_W, WINDOW_H, WINDOW_W, shifted_cores

    rng = np.random.default_rng(1)
    window = rng.integers(0, 255, (WINDOW_H, WINDOW_W, 3), dtype=np.uint8)
    stored = np.ascontiguousarray(window[3:3 + CORE_H, 5:5 + CORE_W])
    centred = stored.astype(np.float32) - stored.mean(axis=(0, 1))
    unit = (centred / np.linalg.norm(centred)).ravel()
    ours = (shifted_cores(window) @ unit).reshape(WINDOW_H - CORE_H + 1, WINDOW_W - CORE_W + 1)
    theirs = cv2.matchTemplate(window, stored, cv2.TM_CCOEFF_NORMED)
    assert np.allclose(ours, theirs, atol=1e-4)
    assert np.unravel_index(ours.argmax(), ours.shape) == (3, 5)


def test_the_middle_of_a_face_tells_its_suit_from_the_other_suits_of_its_rank(
        standard_crops: dict[Card, np.ndarray]) -> None:
    from vision.index import to_portrait
    from vision.profile import builtin_profile

    middles = builtin_profile().middles
    assert middles is not None
    for card, img in standard_crops.items():
        siblings = [c.index for c in standard_crops if c.rank == card.rank]
        for turn in (None, cv2.ROTATE_180):
            scores = middles.scores(to_portrait(_turn(img, turn)), siblings)
            assert max(scores, key=lambda c: scores[c]) == card.index, (card, scores)
