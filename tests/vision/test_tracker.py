"""The tracker over rendered frames: unsure cards are forgotten once gone or confirmed, a meld
like last hand's is reported again, a real meld fits its area, and meld cards side by side are
told apart at 720p."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from table.rules import Card, CardPlayed, MeldShown, TrickGathered, parse_cards
from vision import find_cards
from vision.calibration import calibrate
from vision.faces import FACE_HEIGHT, FACE_WIDTH
from vision.mat import mat_layout
from vision.simulator import Effects, MatScene
from vision.tracker import CardUnsure, LightChanged, Tracker

Faces = dict[Card, np.ndarray]
BLANK = Card.parse("9H")   # drawn as a plain white card: never readable


@pytest.fixture(scope="module")
def faces(standard_crops: Faces) -> Faces:
    """The stored crops as faces (as in test_scene), with the nine of hearts blank."""
    out = {}
    for card, img in standard_crops.items():
        big = cv2.resize(img[2:-2, 2:-2], (FACE_WIDTH, FACE_HEIGHT),
                         interpolation=cv2.INTER_CUBIC)
        if card == BLANK:
            big[:] = 240
        cv2.rectangle(big, (0, 0), (FACE_WIDTH - 1, FACE_HEIGHT - 1), (245, 245, 245), 5)
        out[card] = np.dstack([big, np.full(big.shape[:2], 255, np.uint8)])
    return out


def _setup(faces: Faces, seed: int, seats: int = 3,
           size: tuple[int, int] = (1920, 1080)) -> tuple[MatScene, Tracker]:
    scene = MatScene.create(mat_layout(seats), faces, seed, size=size)
    return scene, Tracker(calibrate(scene.render(), mat_layout(seats)), clock=lambda: 1.0)


def _run(scene: MatScene, tracker: Tracker, frames: int) -> list[Any]:
    return [e for _ in range(frames) for e in tracker.update(scene.render())]


def test_an_unsure_card_is_forgotten_once_gone_and_the_next_card_there_is_read(
        faces: Faces) -> None:
    scene, tracker = _setup(faces, 8)
    scene.place(BLANK, 2, "play")
    asked = [e for e in _run(scene, tracker, 12) if isinstance(e, CardUnsure)]
    assert len(asked) == 1 and asked[0].seat == 2
    scene.gather()
    gathered = _run(scene, tracker, tracker.forget_frames + 2)
    assert [type(e) for e in gathered] == [TrickGathered]
    assert tracker.tracks == []
    scene.place(Card.parse("10S"), 2, "play")
    played = [e for e in _run(scene, tracker, 10) if isinstance(e, CardPlayed)]
    assert [(e.seat, e.card) for e in played] == [(2, Card.parse("10S"))]


def test_a_confirmed_card_completes_its_meld(faces: Faces) -> None:
    scene, tracker = _setup(faces, 9)
    for card in (Card.parse("10S"), BLANK):
        scene.place(card, 1, "meld")
    events = _run(scene, tracker, 12)
    asked = [e for e in events if isinstance(e, CardUnsure)]
    assert len(asked) == 1 and (asked[0].seat, asked[0].area) == (1, "meld")
    assert not [e for e in events if isinstance(e, MeldShown)]
    assert not tracker.confirm(BLANK, 2, "meld")      # nothing waits there
    assert tracker.confirm(BLANK, 1, "meld")
    meld = [e for e in _run(scene, tracker, tracker.settle_frames + 2)
            if isinstance(e, MeldShown)]
    assert [(e.seat, sorted(e.cards)) for e in meld] == [(1, sorted([Card.parse("10S"), BLANK]))]


def test_the_same_meld_next_hand_is_reported_again(faces: Faces) -> None:
    scene, tracker = _setup(faces, 10)
    cards = parse_cards("10S 9S")
    shown = []
    for _ in range(2):
        for card in cards:
            scene.place(card, 0, "meld")
        shown += [e for e in _run(scene, tracker, tracker.settle_frames + 8)
                  if isinstance(e, MeldShown)]
        scene.clear("meld", 0)
        _run(scene, tracker, tracker.settle_frames + 6)
    assert [(e.seat, e.cards) for e in shown] == [(0, tuple(cards))] * 2


@pytest.mark.parametrize("seats", [3, 4])
def test_every_meld_area_holds_eight_cards_laid_flat(seats: int) -> None:
    layout = mat_layout(seats)
    short, long_ = layout.card
    gap = 6.0
    for zone in layout.zones_for("meld"):
        along, across = zone.x1 - zone.x0, zone.y1 - zone.y0
        sideways = zone.seat in (1, seats - 1)       # West and East: cards turned to face them
        if sideways:
            along, across = across, along
        fit = int((along - gap) // (short + gap)) * int((across - gap) // (long_ + gap))
        assert fit >= 8, (zone, fit)


def test_meld_cards_side_by_side_are_told_apart_at_720p(faces: Faces) -> None:
    scene = MatScene.create(mat_layout(4), faces, 12, size=(1280, 720),
                            effects=Effects(slide_frames=0))
    cards = parse_cards("AS 10H 9C 10D 9S AH AD 10C JS")
    for card in cards:
        scene.place(card, 0, "meld")
    frame = scene.render()
    found = find_cards(frame)
    for item in scene.laid:
        truth = scene.card_corners(item).mean(axis=0)
        near = [d for d in found if np.linalg.norm(d.centre - truth) < 8]
        assert len(near) == 1, item.card
        assert near[0].reading.card in (None, item.card)
    assert len(found) == len(cards)



def _frames_to_event(scene: MatScene, tracker: Tracker) -> tuple[int | None, list[Any]]:
    """Frames from the first one with the card settled (hand gone) to its event (0: that
    frame), and the events."""
    settled_at = None
    for n in range(12):
        if settled_at is None and scene.settled:
            settled_at = n
        events = [e for e in tracker.update(scene.render())
                  if isinstance(e, CardPlayed | CardUnsure)]
        if events:
            return (None if settled_at is None else n - settled_at), events
    return None, []


def test_a_sure_card_counts_on_one_reading_as_soon_as_it_lies_steady(faces: Faces) -> None:
    scene, tracker = _setup(faces, 13)
    scene.place(Card.parse("KD"), 1, "play")
    frames, events = _frames_to_event(scene, tracker)
    # The outline seen under the leaving hand is not trusted: the first frame without it
    # places the card, the next finds it steady and reads it.
    assert frames is not None and frames <= 1
    assert [(e.seat, e.card) for e in events] == [(1, Card.parse("KD"))]


def test_a_less_sure_reading_waits_for_a_second_that_agrees(
        faces: Faces, monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.tracker as tracker_module
    from vision.reading import Reading

    scene, tracker = _setup(faces, 14)
    said = iter(parse_cards("QS QC QC"))
    read_in: list[int] = []

    def identify(*_: Any) -> Reading:
        read_in.append(tracker.frame_number)
        return Reading(next(said), tracker_module.SURE - 0.2)
    monkeypatch.setattr(tracker_module, "identify", identify)
    scene.place(Card.parse("QC"), 0, "play")
    _, events = _frames_to_event(scene, tracker)
    assert [(e.seat, e.card) for e in events] == [(0, Card.parse("QC"))]
    assert read_in == [read_in[0], read_in[0] + 1, read_in[0] + 2]   # one reading a frame
    assert tracker.frame_number == read_in[2]                         # the third counted


@pytest.mark.parametrize("lamp", [(0.7, 0.9, 1.0), (1.0, 0.92, 0.75), (0.35, 0.35, 0.35)],
                         ids=["warmer", "cooler", "dimmer"])
def test_cards_are_read_under_another_lamp_than_at_calibration(
        faces: Faces, lamp: tuple[float, float, float]) -> None:
    """Calibrated under one lamp (its exposure and white balance locked), played under a
    warmer, cooler or much dimmer one: the mat's white margins give the new lamp's colour and
    brightness and every card is still read (uncorrected, the warmer and the dimmer lamp left
    the tracker no card at all)."""
    scene, tracker = _setup(faces, 15)

    def render() -> np.ndarray:
        return np.clip(scene.render() * np.array(lamp, np.float32), 0, 255).astype(np.uint8)

    played = parse_cards("KD QS AH")
    read = []
    for seat, card in enumerate(played):
        scene.place(card, seat, "play")
        read += [(e.seat, e.card) for _ in range(8) for e in tracker.update(render())
                 if isinstance(e, CardPlayed | CardUnsure)]
    assert read == list(enumerate(played))


def test_a_lamp_past_correcting_is_reported_once_and_its_end_too(faces: Faces) -> None:
    """A lamp too dim to correct is reported as a `LightChanged` notice once it has lasted two
    checks of the light (a passing shadow is not), and once more when the light is right."""
    scene, tracker = _setup(faces, 16)
    lamp = {"light": 1.0}

    def notices(frames: int) -> list[LightChanged]:
        return [e for _ in range(frames) for e in tracker.update(
            np.clip(scene.render() * lamp["light"], 0, 255).astype(np.uint8))
            if isinstance(e, LightChanged)]

    assert notices(20) == []
    lamp["light"] = 0.1
    assert notices(tracker.check_every) == []        # one check: it may pass
    dark = notices(3 * tracker.check_every)
    assert [n.fault for n in dark] == ["dark"]
    lamp["light"] = 1.0
    assert [n.fault for n in notices(3 * tracker.check_every)] == [None]
