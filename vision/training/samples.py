"""Labelled corners from designs: each face shot several times through camera.py, both index
corners of every shot kept; plus "no index" windows (the middles of faces, blank paper, cloth).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from vision.corners import NO_SUIT, OTHER_RANK, WINDOW_H, WINDOW_W
from vision.index import corner_windows

from . import camera
from .designs import Design, Face
from .occlude import occlude


@dataclass
class Windows:
    x: np.ndarray       # N x WINDOW_H x WINDOW_W x 3 uint8
    ranks: np.ndarray   # N (occlude.UNKNOWN: this corner cannot tell)
    suits: np.ndarray   # N

    def __len__(self) -> int:
        return len(self.x)


def shots(faces: Iterable[Face], per_face: int, rng: np.random.Generator
          ) -> Iterator[tuple[np.ndarray, Face]]:
    """Each face shot `per_face` times: (READ_SIZE card, the face)."""
    for face in faces:
        for _ in range(per_face):
            yield camera.shoot(face.image, rng), face


def training_windows(designs: Iterable[Design], per_face: dict[str, int], seed: int,
                     middles: float = 0.3, blanks: float = 0.05, covered: float = 0.25,
                     covers: Sequence[np.ndarray] = ()) -> Windows:
    """Both corners of every shot of every face of `designs` (per_face[design.name] shots,
    or per_face["*"]), shot rough (camera.py), about `covered` of them with something over a
    corner (occlude.py: labels UNKNOWN where it hides the rank or the pip; a card lying across
    is one of the printed faces `covers`, BGRA, when given); middle windows
    (about `middles` per shot) and blank windows (both corners of about `blanks` blank crops
    per shot)."""
    rng = np.random.default_rng(seed)
    xs: list[np.ndarray] = []
    ranks: list[int] = []
    suits: list[int] = []
    for design in designs:
        count = per_face.get(design.name, per_face["*"])
        for face in design.load():
            for _ in range(count):
                seen = occlude(face, rng, faces=covers) if rng.random() < covered else None
                image, labels = seen if seen is not None else \
                    (face.image, [(face.rank, face.suit)] * 2)
                xs.extend(camera.shoot_corners(image, rng, rough=True))
                for rank, suit in labels:
                    ranks.append(rank)
                    suits.append(suit)
            extra = int(rng.binomial(count, middles))
            if extra:
                xs.extend(camera.middle_windows(face.image, rng, extra))
            for _ in range(int(rng.binomial(count, blanks))):
                xs.extend(corner_windows(camera.blank(rng), WINDOW_W, WINDOW_H))
                extra += 2
            ranks += [OTHER_RANK] * extra
            suits += [NO_SUIT] * extra
    return Windows(np.stack(xs), np.array(ranks, np.int32), np.array(suits, np.int32))


def card_shots(designs: Iterable[Design], per_face: int, seed: int, pinochle_only: bool = False
               ) -> tuple[np.ndarray, list[int | None], list[str]]:
    """Shots of whole cards for calibration and evaluation: READ_SIZE cards, the card index
    of each (None for a face that is no pinochle card) and its design's name."""
    rng = np.random.default_rng(seed)
    cards, truth, names = [], [], []
    for design in designs:
        faces = design.load()
        if pinochle_only:
            faces = [f for f in faces if f.card is not None]
        for card, face in shots(faces, per_face, rng):
            cards.append(card)
            truth.append(face.card.index if face.card is not None else None)
            names.append(design.name)
    return np.stack(cards), truth, names
