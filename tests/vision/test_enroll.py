"""Enrolling a deck: profile from one shot of each face, saved, loaded, and reading another."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from table.cli import main
from table.rules import ALL_CARDS, Card
from vision import identify
from vision.enroll import EnrollError, enroll
from vision.profile import DeckProfile, ProfileError

Shots = tuple[dict[Card, np.ndarray], dict[Card, np.ndarray]]


def test_enrolled_profile_round_trips_and_reads_the_deck(enroll_shots: Shots,
                                                         tmp_path: Path) -> None:
    first, second = enroll_shots
    profile = DeckProfile.from_cards("egyptian", {c: [img] for c, img in first.items()})
    assert profile.missing() == []
    path = tmp_path / "deck.png"
    profile.save(path)
    loaded = DeckProfile.load(path)
    assert loaded.name == "egyptian"
    assert np.array_equal(loaded.patches, profile.patches)
    assert loaded.known_cards == profile.known_cards
    readings = {card: identify(img, loaded) for card, img in second.items()}
    assert {str(c): str(r.card) for c, r in readings.items() if r.card not in (None, c)} == {}
    assert sum(r.card == c for c, r in readings.items()) >= 22


def _frame_with(card_image: np.ndarray | None) -> np.ndarray:
    frame = np.zeros((600, 800, 3), np.uint8)
    frame[:] = (50, 92, 32)
    if card_image is not None:
        h, w = card_image.shape[:2]
        frame[200:200 + h, 300:300 + w] = card_image
    return frame


def test_enroll_asks_for_each_card_and_waits_for_it(enroll_shots: Shots) -> None:
    first, _ = enroll_shots
    cards = list(first)[:3]
    frames = []
    for card in cards:
        frames += [_frame_with(first[card])] * 3 + [_frame_with(None)] * 2
    asked: list[Card] = []
    profile = enroll(iter(frames), "three", asked.append, cards)
    assert asked == cards
    assert profile.known_cards == sorted(cards, key=lambda c: c.index)
    with pytest.raises(EnrollError, match="stopped"):
        enroll(iter(frames[:4]), "short", cards=cards)


def test_a_file_that_is_not_a_profile_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "not-a-deck.png"
    path.write_bytes(b"hello")
    with pytest.raises(ProfileError, match="not a deck profile"):
        DeckProfile.load(path)


def test_enroll_command_saves_a_profile_of_all_24_faces(enroll_shots: Shots, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    first, _ = enroll_shots
    shots = tmp_path / "shots"
    shots.mkdir()
    frames = []
    for card in ALL_CARDS:
        frames += [_frame_with(first[card])] * 3 + [_frame_with(None)] * 2
    for i, frame in enumerate(frames):
        cv2.imwrite(str(shots / f"{i:04d}.png"), frame)
    out = tmp_path / "deck.png"
    assert main(["enroll", "--camera", f"folder:{shots}", "--name", "egyptian",
                 "--out", str(out)]) == 0
    assert "Lay the nine of spades" in capsys.readouterr().out
    assert DeckProfile.load(out).missing() == []
    assert main(["enroll", "--camera", "sim"]) == 2


def test_an_enrolled_profile_reads_by_its_own_corners(enroll_shots: Shots) -> None:
    # The second word, when the corner reader is unsure: the deck's stored corners alone.
    from vision.index import to_portrait
    from vision.reading import read_with_profile

    first, second = enroll_shots
    profile = DeckProfile.from_cards("egyptian", {c: [img] for c, img in first.items()})
    readings = {card: read_with_profile(to_portrait(img), profile)
                for card, img in second.items()}
    assert {str(c): str(r.card) for c, r in readings.items() if r.card not in (None, c)} == {}
    assert sum(r.card == c for c, r in readings.items()) >= 22


def test_a_thumb_over_an_index_does_not_sway_an_enrolled_deck(enroll_shots: Shots) -> None:
    # The deck's stored corners are asked every time: slid over skin (almost no contrast)
    # they must correlate with nothing, so one index read alone decides, and none names none.
    from vision.index import to_portrait

    from .conftest import under_thumb

    first, second = enroll_shots
    profile = DeckProfile.from_cards("egyptian", {c: [img] for c, img in first.items()})
    rng = np.random.default_rng(4)
    one: dict[str, list[str]] = {"read": [], "wrong": []}
    for n, (card, img) in enumerate(second.items()):
        for corner in (0, 1):
            reading = identify(under_thumb(to_portrait(img), (corner,), rng), profile)
            if reading.card is not None:
                one["read" if reading.card == card else "wrong"].append(f"{card} {n}")
        both = identify(under_thumb(to_portrait(img), (0, 1), rng), profile)
        assert both.card is None, f"{card} with both indices covered read as {both.card}"
    assert one["wrong"] == []
    assert len(one["read"]) >= 0.9 * 2 * len(second)


def test_only_an_enrolled_deck_overrules_a_sure_reading(enroll_shots: Shots) -> None:
    # Corners with the king and queen of hearts swapped: an enrolled deck's own corners are
    # the deck on the table, so they overrule the corner reader; the built-in decks' corners,
    # and corners the table learnt (most from the reader's own sure readings), never do.
    from vision.learning import DeckLearner
    from vision.profile import builtin_profile

    first, second = enroll_shots
    king, queen = Card.parse("KH"), Card.parse("QH")
    swap = {king: queen, queen: king}
    faces = {swap.get(c, c): [img] for c, img in first.items()}
    assert identify(second[king]).card == king
    assert identify(second[king], DeckProfile.from_cards("swapped", faces)).card == queen

    others = DeckProfile.from_cards("swapped", faces)
    others.others = True
    assert identify(second[king], others).card == king
    learner = DeckLearner(builtin_profile())
    for card, images in faces.items():
        learner.learn(card, images[0], settled=True)
    assert learner.complete
    assert identify(second[king], learner.profile).card == king
    assert identify(second[king], builtin_profile()).card == king
