"""How many events a session accepts per second, each committed durably before it is answered.

    .venv/bin/python bench/bench_session.py [--seed 1] [--hands 6] [--repeats 3] [--db PATH]

A seeded game of bison with known hands (deals, auction, kitty, trump, bury, meld, every card
and trick) is scripted first; then a fresh journal (WAL, synchronous=FULL) and session take its
events: one at a time with `submit` (each waits for its commit: the real table's pace, one
producer) and all at once with `post` from four threads (producers racing). Each figure is the
best of several timed repeats (the machine is shared). The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from table.journal import Journal  # noqa: E402
from table.rules import Event, preset  # noqa: E402
from table.session import Outcome, Session  # noqa: E402
from tests.session.scripted import scripted_game  # noqa: E402

NAMES = ("Ann", "Bob", "Cy")


def run_once(events: Sequence[Event], db: Path, threads: int) -> float:
    """Seconds to have every event accepted by a new session on a new journal file."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    with Journal(db) as journal:
        session = Session.create(journal, preset("bison"), NAMES).start()
        start = time.perf_counter()
        if threads == 1:
            outcomes = [session.submit(e) for e in events]
        else:
            outcomes = _post_from_threads(session, events, threads)
        elapsed = time.perf_counter() - start
        session.stop()
    refused = [o for o in outcomes if not o.accepted]
    if refused:
        raise SystemExit(f"bench script refused: {refused[0].reason}")
    return elapsed


def _post_from_threads(session: Session, events: Sequence[Event], threads: int) -> list[Outcome]:
    """Post every event from `threads` producers at once, keeping the script's order (each
    producer waits its turn to post, then races the others to the queue)."""
    futures: list[Future[Outcome]] = []
    turn = threading.Condition()
    index = 0

    def producer(me: int) -> None:
        nonlocal index
        while True:
            with turn:
                turn.wait_for(lambda: index >= len(events) or index % threads == me)
                if index >= len(events):
                    return
                futures.append(session.post(events[index]))
                index += 1
                turn.notify_all()

    workers = [threading.Thread(target=producer, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return [f.result() for f in futures]


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
        one = min(run_once(events, db, 1) for _ in range(args.repeats))
        four = min(run_once(events, db, 4) for _ in range(args.repeats))
    submit_rate = len(events) / one
    post_rate = len(events) / four
    print(f"{len(events)} events of {args.hands} hands of bison (seed {args.seed}), "
          f"best of {args.repeats}, on {platform.machine()} Python {platform.python_version()}")
    print(f"  one producer, submit and wait:  {submit_rate:8.0f} accepted events/s "
          f"({1000 * one / len(events):.2f} ms each, commit included)")
    print(f"  four producers posting at once: {post_rate:8.0f} accepted events/s")
    print(json.dumps({"bench": "session", "events": len(events),
                      "accepted_per_s": round(submit_rate),
                      "accepted_per_s_4_producers": round(post_rate),
                      "ms_per_event": round(1000 * one / len(events), 3),
                      "synchronous": "FULL", "journal_mode": "wal"}))


if __name__ == "__main__":
    main()
