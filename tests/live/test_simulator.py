"""The simulated camera's quick path (only what changed is drawn again, the sensor's effects
in another thread) gives exactly the frames of drawing everything afresh."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from table.rules import parse_cards
from vision.faces import load_deck
from vision.mat import mat_layout
from vision.simulator import Effects, MatScene

SIZE = (1280, 720)


def _play_some(scene: MatScene, frame: Callable[[], np.ndarray]) -> list[np.ndarray]:
    """Cards slid in under hands, meld laid and picked up, a smudged face, a trick gathered
    with a hand over the mat, the camera knocked."""
    frames = []
    cards = parse_cards("AS KH QD JC 10S 9H AD KC")
    for seat, card in enumerate(cards[:3]):
        scene.place(card, seat, "play")
        frames += [frame() for _ in range(3)]
    for card in cards[3:6]:
        scene.place(card, 1, "meld")
    frames += [frame() for _ in range(5)]
    scene.gather()
    scene.hand_over(2, 3)
    frames += [frame() for _ in range(4)]
    smudged = scene.faces[cards[6]].copy()
    smudged[:, :, :3] //= 2
    scene.faces[cards[6]] = smudged
    scene.place(cards[6], 0, "play")
    frames += [frame() for _ in range(2)]
    scene.faces[cards[6]] = scene.faces[cards[7]]  # the thumb lifted: another face entirely
    frames += [frame()]
    scene.bump(25.0)
    scene.place(cards[7], 2, "play")
    frames += [frame() for _ in range(2)]
    scene.clear("meld", 1)
    frames += [frame() for _ in range(2)]
    return frames


@pytest.mark.parametrize("effects", [Effects(), Effects(slide_frames=0, noise=0.0),
                                     Effects(0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0, 2)],
                         ids=["all-effects", "no-noise", "clean"])
def test_quick_frames_are_the_frames_drawn_afresh(effects: Effects) -> None:
    faces = load_deck("svg-standard")
    quick = MatScene.create(mat_layout(3), dict(faces), 7, size=SIZE, effects=effects)
    afresh = MatScene.create(mat_layout(3), dict(faces), 7, size=SIZE, effects=effects)
    with ThreadPoolExecutor(1) as darkroom:  # developed in another thread, as table/live/sim does
        got = _play_some(quick, lambda: darkroom.submit(quick.develop, quick.capture()).result())
    want = _play_some(afresh, afresh.render_reference)
    assert len(got) == len(want) == 25
    for number, (a, b) in enumerate(zip(got, want, strict=True)):
        assert a.shape == (SIZE[1], SIZE[0], 3)
        assert np.array_equal(a, b), f"frame {number} differs in {int((a != b).sum())} values"
    assert any(not np.array_equal(a, b) for a, b in itertools.pairwise(got))  # it moved
