"""How fast the rules core finds best meld and legal plays, single-threaded, on random hands.

    .venv/bin/python bench/bench_rules.py [--seed 1] [--repeats 5]

Hands are dealt from a seeded `random.Random`. best_meld gets each dealt hand with a random trump;
legal_plays gets every position met while playing random hands out with random legal cards (so
hands shrink and tricks fill as in a real game). Each figure is the best of several timed
repeats (the machine is shared). The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable
from dataclasses import replace

from table.rules import ALL_SUITS, Card, Rules, Suit, best_meld, legal_plays, preset, trick_winner

PRESETS = ("bison", "brooklyn", "racehorse", "family", "classic3", "double-deck")
HANDS = 2000  # per preset


def with_options(rules: Rules) -> Rules:
    """bison with the roundhouse (390 beside a run) and St Joseph options: the slowest meld path."""
    meld = replace(rules.meld, roundhouse=240, roundhouse_with_run=390,
                   double_royal_marriage=240, double_royal_with_run=390)
    return replace(rules, name="bison+options", meld=meld)


def deal(rules: Rules, rng: random.Random) -> list[list[Card]]:
    deck = rules.deck()
    rng.shuffle(deck)
    size = rules.hand_size
    return [deck[i * size:(i + 1) * size] for i in range(rules.players)]


Position = tuple[list[Card], list[Card], Suit, Rules, bool]


def positions(rules: Rules, rng: random.Random, hands: int) -> list[Position]:
    """Every (hand, trick, trump, rules, first_lead) met while playing `hands` random hands."""
    out: list[Position] = []
    for _ in range(hands // rules.hand_size + 1):
        held = deal(rules, rng)
        trump = rng.choice(ALL_SUITS)
        leader = 0
        first = True
        for _ in range(rules.hand_size):
            trick: list[Card] = []
            for k in range(rules.players):
                seat = (leader + k) % rules.players
                hand = held[seat]
                out.append((list(hand), list(trick), trump, rules, first and not trick))
                card = rng.choice(legal_plays(hand, trick, trump, rules, first and not trick))
                hand.remove(card)
                trick.append(card)
            first = False
            leader = (leader + trick_winner(trick, trump)) % rules.players
    return out[:hands * 4]


def best_rate(run: Callable[[], int], repeats: int) -> float:
    """Calls per second of `run` (which returns how many calls it made), best of `repeats`."""
    best = 0.0
    for _ in range(repeats):
        start = time.perf_counter()
        calls = run()
        best = max(best, calls / (time.perf_counter() - start))
    return best


def bench_meld(cases: list[tuple[list[Card], Suit, Rules]], repeats: int) -> float:
    def run() -> int:
        for cards, trump, rules in cases:
            best_meld(cards, trump, rules)
        return len(cases)
    return best_rate(run, repeats)


def bench_plays(cases: list[Position], repeats: int) -> float:
    def run() -> int:
        for hand, trick, trump, rules, first in cases:
            legal_plays(hand, trick, trump, rules, first)
        return len(cases)
    return best_rate(run, repeats)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)

    variants = [preset(name) for name in PRESETS] + [with_options(preset("bison"))]
    all_melds: list[tuple[list[Card], Suit, Rules]] = []
    all_plays: list[Position] = []
    per_preset: dict[str, dict[str, int]] = {}
    print(f"{'preset':<16}{'best_meld/s':>14}{'legal_plays/s':>16}")
    for rules in variants:
        melds = [(hand, rng.choice(ALL_SUITS), rules)
                 for _ in range(HANDS // rules.players + 1) for hand in deal(rules, rng)][:HANDS]
        plays = positions(rules, rng, HANDS)
        meld_rate = bench_meld(melds, args.repeats)
        play_rate = bench_plays(plays, args.repeats)
        per_preset[rules.name] = {"best_meld_per_s": round(meld_rate),
                                  "legal_plays_per_s": round(play_rate)}
        print(f"{rules.name:<16}{meld_rate:>14,.0f}{play_rate:>16,.0f}")
        all_melds += melds
        all_plays += plays

    shuffled = random.Random(args.seed)
    shuffled.shuffle(all_melds)
    shuffled.shuffle(all_plays)
    meld_rate = bench_meld(all_melds, args.repeats)
    play_rate = bench_plays(all_plays, args.repeats)
    print(f"{'all, mixed':<16}{meld_rate:>14,.0f}{play_rate:>16,.0f}")
    print(f"targets: best_meld >= 20,000/s {'met' if meld_rate >= 20_000 else 'MISSED'}; "
          f"legal_plays >= 100,000/s {'met' if play_rate >= 100_000 else 'MISSED'}")
    print(json.dumps({
        "bench": "rules", "best_meld_per_s": round(meld_rate),
        "legal_plays_per_s": round(play_rate), "presets": per_preset,
        "meld_calls": len(all_melds), "legal_plays_calls": len(all_plays),
        "repeats": args.repeats, "seed": args.seed,
        "python": platform.python_version(), "machine": platform.machine(),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
