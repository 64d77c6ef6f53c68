"""Cards from pixels: frame sources, the mat, detection, identification, tracking.

The public names are loaded on first use, so that importing `vision` (as the command line
does) stays fast and does not need OpenCV:

- `identify(card_image, deck=None) -> Reading` (vision.reading)
- `find_cards(frame, deck=None) -> list[Detection]` (vision.detect)
- `Tracker`, `CardUnsure`, `CameraMoved`, `LightChanged` (vision.tracker); `MatScene`
  (vision.simulator)
- `DeckProfile` (vision.profile); `Calibration`, `calibrate` (vision.calibration);
  `mat_layout` (vision.mat); `open_source`, `Frame` (vision.sources)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .calibration import Calibration, calibrate
    from .detect import Detection, find_cards
    from .mat import MatLayout, mat_layout
    from .profile import DeckProfile
    from .reading import Reading, identify
    from .simulator import Effects, MatScene
    from .sources import Frame, open_source
    from .tracker import CameraMoved, CardUnsure, LightChanged, Tracker

_WHERE = {
    "identify": "reading", "Reading": "reading",
    "find_cards": "detect", "Detection": "detect",
    "Tracker": "tracker", "CardUnsure": "tracker", "CameraMoved": "tracker",
    "LightChanged": "tracker",
    "MatScene": "simulator", "Effects": "simulator",
    "DeckProfile": "profile",
    "Calibration": "calibration", "calibrate": "calibration",
    "mat_layout": "mat", "MatLayout": "mat",
    "open_source": "sources", "Frame": "sources",
}

__all__ = [
    "Calibration",
    "CameraMoved",
    "CardUnsure",
    "DeckProfile",
    "Detection",
    "Effects",
    "Frame",
    "LightChanged",
    "MatLayout",
    "MatScene",
    "Reading",
    "Tracker",
    "calibrate",
    "find_cards",
    "identify",
    "mat_layout",
    "open_source",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'vision' has no attribute {name!r}")
    return getattr(importlib.import_module(f".{module}", __name__), name)
