"""The phases of a hand, in the order they come."""

from __future__ import annotations

import enum


class Phase(enum.Enum):
    DEAL = "deal"
    DRAW = "draw"        # two-handed: the hands are drawn from the stock
    AUCTION = "auction"
    PUSH = "push"
    TRUMP = "trump"
    BURY = "bury"
    PASSING = "passing"
    MELD = "meld"
    PLAY = "play"
    HAND_OVER = "hand-over"
    GAME_OVER = "game-over"

    __hash__ = object.__hash__  # phases are singletons; Enum's own hash runs Python code
