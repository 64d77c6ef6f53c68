"""Enrolling a deck with unusual faces: each of the 24 faces is laid alone on the mat once, and
its straightened image goes into a `DeckProfile`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

import numpy as np

from table.rules import ALL_CARDS, Card

from .detect import card_outlines, straighten
from .profile import DeckProfile

STILL_PX = 3.0


class EnrollError(Exception):
    """The frames ran out before every face was shown."""


def wait_for_card(frames: Iterator[np.ndarray], still_frames: int = 3) -> np.ndarray:
    """The straightened image of the first card that lies alone and still for `still_frames`."""
    last: np.ndarray | None = None
    count = 0
    for frame in frames:
        outlines = card_outlines(frame)
        if len(outlines) != 1:
            last, count = None, 0
            continue
        corners = outlines[0]
        if last is not None and np.abs(corners.mean(0) - last.mean(0)).max() < STILL_PX:
            count += 1
        else:
            count = 1
        last = corners
        if count >= still_frames:
            return straighten(frame, corners)
    raise EnrollError("the camera stopped before the card lay still")


def wait_for_empty(frames: Iterator[np.ndarray], empty_frames: int = 2) -> None:
    """Return once no card has been seen for `empty_frames` frames."""
    count = 0
    for frame in frames:
        count = count + 1 if not card_outlines(frame) else 0
        if count >= empty_frames:
            return
    raise EnrollError("the camera stopped before the card was picked up")


def enroll(frames: Iterable[np.ndarray], name: str,
           ask: Callable[[Card], None] = lambda card: None,
           cards: Sequence[Card] = ALL_CARDS) -> DeckProfile:
    """Ask for each card in turn (`ask(card)`), take its picture once it lies still, wait for it
    to be picked up, and make the profile."""
    stream = iter(frames)
    images: dict[Card, list[np.ndarray]] = {}
    for card in cards:
        ask(card)
        images[card] = [wait_for_card(stream)]
        wait_for_empty(stream)
    return DeckProfile.from_cards(name, images)
