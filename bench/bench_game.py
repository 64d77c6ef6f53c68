"""Simulated complete hands per second with the simulated players, on one core.

Every event goes through `Game.apply` with the hands known, so every play is checked. Rates
are per CPU second of this process (one core), so a busy machine does not skew them; the
wall-clock rate is printed beside them.
A "complete" hand is one bid, played out (or conceded) and scored; thrown-in deals are
counted separately. Target (issue 3): at least 1,000 complete hands/s for a three-handed preset.
The figures depend on the interpreter (Debian's python3 is built with profile-guided
optimisation; pyenv's default build is not) and on whether deploy/compile_rules.py has compiled
the rules core: both are printed.

    python bench/bench_game.py [--seconds 5] [--preset bison ...]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time

import table.rules.game
from table.rules import PRESET_NAMES, Phase, SimTable, new_game, preset


def run(name: str, seconds: float, known: bool = True) -> dict[str, float]:
    rules = preset(name)
    complete = thrown = events = 0
    seed = 0
    start = time.perf_counter()
    cpu = time.process_time()
    while time.process_time() - cpu < seconds:
        g = new_game(rules)
        sim = SimTable(rules, random.Random(seed), known=known)
        seed += 1
        while g.phase is not Phase.GAME_OVER and g.hand_number < 40:
            e = sim.next_event(g)
            after = g.apply(e)
            sim.observe(e, g)
            events += 1
            if after.result is not None and g.result is None:
                if after.result.declarer is None:
                    thrown += 1
                else:
                    complete += 1
            g = after
    # CPU seconds of this process: the figure for one core, even on a busy machine
    elapsed = time.process_time() - cpu
    wall = time.perf_counter() - start
    return {"complete_hands_per_s": round(complete / elapsed, 1),
            "thrown_in_per_s": round(thrown / elapsed, 1),
            "events_per_s": round(events / elapsed),
            "wall_complete_hands_per_s": round(complete / wall, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="per preset")
    parser.add_argument("--preset", action="append", choices=PRESET_NAMES)
    args = parser.parse_args()
    names = args.preset or ["bison", "brooklyn", "family", "classic3", "racehorse"]
    compiled = not (table.rules.game.__file__ or "").endswith(".py")
    print(f"Python {platform.python_version()} ({sys.executable}); "
          f"rules core {'compiled' if compiled else 'pure Python'}")
    out: dict[str, object] = {"bench": "game", "python": sys.executable,
                              "rules_compiled": compiled}
    for name in names:
        figures = run(name, args.seconds)
        print(f"{name:14} {figures['complete_hands_per_s']:8.1f} complete hands/s  "
              f"{figures['events_per_s']:8d} events/s  (known hands)")
        out[name] = figures
    hidden = run("bison", args.seconds / 2, known=False)
    print(f"{'bison hidden':14} {hidden['complete_hands_per_s']:8.1f} complete hands/s  "
          f"{hidden['events_per_s']:8d} events/s  (hands unseen, renege proofs on)")
    out["bison_hidden"] = hidden
    three = [out[n]["complete_hands_per_s"] for n in names  # type: ignore[index]
             if preset(n).players == 3]
    out["best_three_handed_complete_hands_per_s"] = max(three) if three else None
    print(json.dumps(out))


if __name__ == "__main__":
    main()
