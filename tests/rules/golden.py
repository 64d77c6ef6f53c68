"""A fingerprint of seeded simulated games: the guard that a refactor leaves every move alone.

Each game is played by the simulated players (table/rules/players.py) from its seed, known
hands on even seeds and a real table's hidden hands on odd ones. Every step feeds one hash:
the event's notation, the phase and turn after it, the legal plays and bids there, the reason
a bad card is refused where a card is about to be played, the scores, the result of a finished
hand and the full notation of each hand as it ends. One line per game in golden_games.txt:

    <preset> <seed> <sha256 prefix>

    python -m tests.rules.golden   # re-record (only when a rule is meant to change)
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from pathlib import Path

from table.rules import (
    ALL_CARDS,
    PRESET_NAMES,
    CardPlayed,
    Game,
    IllegalAction,
    Phase,
    SimTable,
    format_cards,
    new_game,
    preset,
)
from table.rules.notation import event_token

GOLDEN = Path(__file__).with_name("golden_games.txt")
GAMES = 500
MAX_HANDS = 8  # games without an end score (brooklyn) stop here; most end sooner or not at all


def seeds() -> Iterator[tuple[str, int]]:
    """(preset, seed) for the recorded games: the presets in turn, 500 in all."""
    for i in range(GAMES):
        yield PRESET_NAMES[i % len(PRESET_NAMES)], i


def _refusal(g: Game, seat: int, rng: random.Random) -> str:
    """The reason a card `seat` may not play now is refused (a renege where the hand is known
    and has one, else a card the seat has not shown or does not hold)."""
    hand = g.hand_of(seat)
    if hand is not None:
        legal = g.legal_plays
        bad = [c for c in hand if c not in legal] or [c for c in ALL_CARDS if c not in hand]
    else:
        bad = list(ALL_CARDS)
    card = rng.choice(bad)
    try:
        g.apply(CardPlayed(seat=seat, card=card))
    except IllegalAction as exc:
        return f"{card}: {exc.reason}"
    return f"{card}: accepted"


def fingerprint(name: str, seed: int) -> str:
    """The hash of one seeded game's moves."""
    rules = preset(name)
    known = seed % 2 == 0
    g = new_game(rules)
    sim = SimTable(rules, random.Random(seed), known=known)
    rng = random.Random(-1 - seed)
    h = hashlib.sha256()
    while g.phase is not Phase.GAME_OVER:
        if g.phase is Phase.HAND_OVER and g.hand_number >= MAX_HANDS:
            break
        e = sim.next_event(g)
        if isinstance(e, CardPlayed):
            h.update(_refusal(g, e.seat, rng).encode())
        after = g.apply(e)
        sim.observe(e, g)
        step = [event_token(e), after.phase.value, str(after.turn),
                format_cards(after.legal_plays), str(after.legal_bid_range),
                str(after.scores)]
        if after.result is not None and g.result is None:
            step += [repr(after.result), after.position()]
        h.update("|".join(step).encode())
        g = after
    h.update(f"end {g.phase.value} {g.scores} {g.winner}".encode())
    return h.hexdigest()[:24]


def record() -> list[str]:
    return [f"{name} {seed} {fingerprint(name, seed)}" for name, seed in seeds()]


def recorded() -> dict[tuple[str, int], str]:
    out: dict[tuple[str, int], str] = {}
    for line in GOLDEN.read_text().splitlines():
        name, seed, digest = line.split()
        out[name, int(seed)] = digest
    return out


if __name__ == "__main__":
    GOLDEN.write_text("\n".join(record()) + "\n")
    print(f"wrote {GAMES} games to {GOLDEN}")
