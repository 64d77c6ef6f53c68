"""The tracker over stored frames of a scripted three-seat hand (tests/vision/data/game)."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from table.rules import Card, CardPlayed, TrickGathered
from vision.calibration import calibrate
from vision.mat import mat_layout
from vision.tracker import CameraMoved, CardUnsure, Tracker

Frames = list[np.ndarray]
Script = dict[str, Any]
Timeline = list[tuple[int, Any]]


@pytest.fixture(scope="module")
def timeline(game_frames: Frames) -> list[tuple[int, Any]]:
    """(frame number, event) for everything the tracker says over the stored frames."""
    ticks = itertools.count()
    tracker = Tracker(calibrate(game_frames[0], mat_layout(3)),
                      clock=lambda: float(next(ticks)))
    return [(i, e) for i, frame in enumerate(game_frames) for e in tracker.update(frame)]


def _step_ranges(script: Script) -> dict[str, range]:
    out: dict[str, range] = {}
    start = 0
    for step in script["steps"]:
        out.setdefault(step["note"], range(start, step["until_frame"]))
        start = step["until_frame"]
    return out


def test_every_card_is_attributed_to_its_seat_in_order(timeline: Timeline,
                                                       game_script: Script) -> None:
    events = [e for _, e in timeline]
    played = [(e.seat, str(e.card)) for e in events if isinstance(e, CardPlayed)]
    expected = [(p["seat"], p["card"]) for p in game_script["plays"]]
    assert played == expected
    assert all(e.source == "camera" for e in events)
    assert not [e for e in events if isinstance(e, CardUnsure)]


def test_tricks_are_gathered_once_each_and_hands_cause_no_event(timeline: Timeline,
                                                                game_script: Script) -> None:
    steps = _step_ranges(game_script)
    over = steps["a hand reaches over the mat"]
    assert [e for i, e in timeline if i in over] == []
    gathered = [i for i, e in timeline if isinstance(e, TrickGathered)]
    assert len(gathered) == 2
    plays = [i for i, e in timeline if isinstance(e, CardPlayed)]
    assert plays[2] < gathered[0] < plays[3] and gathered[1] > plays[5]


def test_events_come_within_three_frames_of_the_card_lying_still(timeline: Timeline,
                                                                 game_script: Script) -> None:
    steps = _step_ranges(game_script)
    for play in game_script["plays"]:
        step = steps[f"seat {play['seat']} plays {play['card']}"]
        # The simulator slides a card for 2 frames under a hand that leaves one frame later.
        still = step.start + 3
        when = [i for i, e in timeline
                if isinstance(e, CardPlayed) and e.card == Card.parse(play["card"])]
        assert when and 0 <= when[0] - still <= 3, (play, when, still)


def test_a_bumped_camera_is_reported_and_nothing_is_misread(timeline: Timeline,
                                                            game_script: Script) -> None:
    bump = _step_ranges(game_script)["camera bumped"]
    moved = [(i, e) for i, e in timeline if isinstance(e, CameraMoved)]
    assert moved and moved[0][0] in bump
    assert moved[0][1].offset_mm > 4.0
    assert [e for i, e in timeline if i in bump and not isinstance(e, CameraMoved)] == []
