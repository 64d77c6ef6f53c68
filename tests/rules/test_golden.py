"""The moves of 500 recorded seeded games stay identical (see golden.py): events, positions,
legal plays and bids, refusals and results. A few games per preset by default, all under `slow`.
"""

from __future__ import annotations

import pytest

from table.rules import PRESET_NAMES

from .golden import GAMES, fingerprint, recorded, seeds

QUICK = 2  # games per preset in the default run

_RECORDED = recorded()


def test_every_game_is_recorded() -> None:
    assert sorted(_RECORDED) == sorted(seeds())
    assert len(_RECORDED) == GAMES


def _quick() -> list[tuple[str, int]]:
    return [(name, seed) for name in PRESET_NAMES
            for seed in sorted(s for n, s in _RECORDED if n == name)[:QUICK]]


@pytest.mark.parametrize(("name", "seed"), _quick())
def test_a_recorded_game_is_played_the_same(name: str, seed: int) -> None:
    assert fingerprint(name, seed) == _RECORDED[name, seed]


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_all_recorded_games_are_played_the_same() -> None:
    changed = [f"{name} {seed}" for (name, seed), digest in sorted(_RECORDED.items())
               if fingerprint(name, seed) != digest]
    assert not changed, f"{len(changed)} games played differently: {changed[:10]}"
