"""identify() on stored straightened cards of kdegames' standard deck, in every orientation."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from table.rules import Card
from vision import identify
from vision.index import to_portrait

from .conftest import under_thumb

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


def test_a_card_with_both_index_corners_under_a_thumb_is_not_named(
        standard_crops: dict[Card, np.ndarray]) -> None:
    # Nothing of either index shows: the stored corners of the built-in decks, slid over the
    # skin and the face round it, must not name a card of their own.
    rng = np.random.default_rng(3)
    wrong = {}
    for card, img in standard_crops.items():
        for _ in range(3):
            reading = identify(under_thumb(to_portrait(img), (0, 1), rng))
            if reading.card is not None and reading.card != card:
                wrong[str(card)] = str(reading.card)
    assert wrong == {}


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
    # cuts the card on the other (3.5 mm: more than the corner reader was trained for; the
    # built-in decks' stored corners take over).
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
    from vision.templates import CORE_H, CORE_W, WINDOW_H, WINDOW_W, _unit, shifted_cores

    rng = np.random.default_rng(1)
    window = rng.integers(0, 255, (WINDOW_H, WINDOW_W, 3), dtype=np.uint8)
    stored = np.ascontiguousarray(window[3:3 + CORE_H, 5:5 + CORE_W])
    unit = _unit(stored[None])[0]
    ours = (shifted_cores(window) @ unit).reshape(WINDOW_H - CORE_H + 1, WINDOW_W - CORE_W + 1)
    theirs = cv2.matchTemplate(window, stored, cv2.TM_CCOEFF_NORMED)
    assert np.allclose(ours, theirs, atol=1e-4)
    assert np.unravel_index(ours.argmax(), ours.shape) == (3, 5)


def test_template_scores_are_the_coarse_then_fine_search_done_with_opencv(
        standard_crops: dict[Card, np.ndarray]) -> None:
    # The grouped matrix products must find what the plain search finds: OpenCV's correlation
    # at every second shift, then the best of the 3 x 3 shifts round each stored corner's best.
    from vision.index import STORE_H, STORE_W, corner_windows, to_portrait
    from vision.templates import (
        CORE_H,
        CORE_W,
        MARGIN,
        SEEN_BLUR,
        STORED_BLUR,
        WINDOW_H,
        WINDOW_W,
        Templates,
        _smooth,
    )

    faces = list(standard_crops.items())
    patches = np.stack([w for _, img in faces[:8] for w in
                        corner_windows(to_portrait(img), STORE_W, STORE_H)])
    cards = np.array([card.index for card, _ in faces[:8] for _ in range(2)])
    templates = Templates.build(patches, cards)
    shifted = np.roll(to_portrait(faces[3][1]), (2, -3), axis=(0, 1))
    windows = corner_windows(shifted, STORE_W, STORE_H)
    scores = templates.scores(templates.look(windows), [c.index for c, _ in faces[:8]])
    for card, _ in faces[:8]:
        best = []
        for window in windows:
            seen = _smooth(window, SEEN_BLUR)[:WINDOW_H, :WINDOW_W].astype(np.float32)
            found = []
            for patch in patches[cards == card.index]:
                core = _smooth(patch, STORED_BLUR)[MARGIN:MARGIN + CORE_H, MARGIN:MARGIN + CORE_W]
                full = cv2.matchTemplate(seen, core.astype(np.float32), cv2.TM_CCOEFF_NORMED)
                coarse = full[::2, ::2]
                y, x = np.unravel_index(int(coarse.argmax()), coarse.shape)
                y, x = 2 * y, 2 * x
                found.append(full[max(0, y - 1):y + 2, max(0, x - 1):x + 2].max())
            best.append(max(found))
        assert scores[card.index] == pytest.approx(float(np.mean(best)), abs=1e-4)
    assert max(scores, key=lambda c: scores[c]) == faces[3][0].index


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
