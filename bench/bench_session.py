"""How many events a session accepts per second, each committed durably before it is answered.

    .venv/bin/python bench/bench_session.py [--seed 1] [--hands 6] [--repeats 3] [--db PATH]

A seeded game of bison with known hands (deals, auction, kitty, trump, bury, meld, every card
and trick) is first played by the rules core's simulated players (tests/session/scripted.py).
Then a fresh journal (WAL, synchronous=FULL) and session take its events: one at a time with
`submit` (each waits for its own commit before the next is sent), and as a burst (every event
posted at once, then all answers awaited). Each event is answered only after its commit either
way. Each figure is the best of several timed repeats (the machine, and its disk, are shared).
For scale it also times bare one-row durable commits on the same disk, which bound a session
answering one event at a time. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import platform
import sqlite3
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from table.journal import Journal  # noqa: E402
from table.rules import Event, preset  # noqa: E402
from table.session import Session  # noqa: E402
from tests.session.scripted import scripted_game  # noqa: E402

NAMES = ("Ann", "Bob", "Cy")


def run_once(events: Sequence[Event], db: Path, burst: bool) -> tuple[float, dict[str, str]]:
    """Seconds to have every event accepted by a new session on a new journal file, and how
    the journal commits."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    with Journal(db) as journal:
        session = Session.create(journal, preset("bison"), NAMES).start()
        start = time.perf_counter()
        if burst:
            outcomes = [f.result() for f in [session.post(e) for e in events]]
        else:
            outcomes = [session.submit(e) for e in events]
        elapsed = time.perf_counter() - start
        session.stop()
        durability = journal.durability()
    refused = [o for o in outcomes if not o.accepted]
    if refused:
        raise SystemExit(f"bench script refused: {refused[0].reason}")
    return elapsed, durability


def bare_commits_per_s(db: Path, count: int = 300) -> float:
    """The disk's own pace: one-row durable commits per second in a WAL file beside the
    journal."""
    path = db.with_name("bare.sqlite3")
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("CREATE TABLE t (x TEXT)")
    start = time.perf_counter()
    for _ in range(count):
        conn.execute("BEGIN")
        conn.execute("INSERT INTO t VALUES (?)", ("x" * 200,))
        conn.execute("COMMIT")
    elapsed = time.perf_counter() - start
    conn.close()
    return count / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hands", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--db", type=Path, help="journal file to use (default: a temp dir)")
    args = parser.parse_args()

    steps = scripted_game(preset("bison"), NAMES, args.seed, hands=args.hands, mischief=0.0)
    events = [s.event for s in steps]
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "bench.sqlite3"
        one, durability = min(run_once(events, db, False) for _ in range(args.repeats))
        burst, _ = min(run_once(events, db, True) for _ in range(args.repeats))
        bare = max(bare_commits_per_s(db) for _ in range(args.repeats))
    submit_rate = len(events) / one
    burst_rate = len(events) / burst
    print(f"{len(events)} events of {args.hands} hands of bison (seed {args.seed}), "
          f"best of {args.repeats}, on {platform.machine()} Python {platform.python_version()}; "
          f"journal_mode={durability['journal_mode']} synchronous={durability['synchronous']}")
    print(f"  one producer, submit and wait:  {submit_rate:8.0f} accepted events/s "
          f"({1000 * one / len(events):.2f} ms each, commit included)")
    print(f"  all posted at once, then waited: {burst_rate:7.0f} accepted events/s")
    print(f"  the disk alone, bare commits:    {bare:7.0f} commits/s (measured after the others: "
          "a shared disk's pace changes from minute to minute)")
    print(json.dumps({"bench": "session", "events": len(events),
                      "accepted_per_s": round(submit_rate),
                      "accepted_per_s_burst": round(burst_rate),
                      "ms_per_event": round(1000 * one / len(events), 3),
                      "bare_commits_per_s": round(bare),
                      **durability}))


if __name__ == "__main__":
    main()
