"""The process the power-cut test kills: plays a script of events into a journal.

    python power_cut_child.py JOURNAL SCRIPT VARIANT CUT K NAME...

It resumes the journal's last game (or starts one), submits the script's events from where the
journal ends (step i is journal entry i + 1), and prints `number verdict` for each answer, so
the parent knows what was acknowledged. It pulls its own plug (SIGKILL: no clean-up, no flush)
at the point the parent chose, so where it dies never depends on the machine's speed:

- `opened`: the journal is open, nothing else done;
- `created`: the game is started or resumed, no event submitted;
- `in-commit`: entry K's transaction is written but its COMMIT not yet run;
- `committed`: entry K is committed, not yet answered;
- `answered`: entry K's answer is printed;
- `never`: it plays to the end and prints `done`.
"""

from __future__ import annotations

import json
import os
import signal
import sys

from table.journal import Journal
from table.rules import event_from_dict, preset
from table.session import Outcome, Session


def _cut() -> None:
    sys.stdout.flush()
    os.kill(os.getpid(), signal.SIGKILL)


def main(db: str, script: str, variant: str, cut: str, k: int, names: list[str]) -> None:
    with open(script, encoding="utf-8") as f:
        events = [event_from_dict(json.loads(line)) for line in f]
    journal = Journal(db)
    if cut == "opened":
        _cut()
    if journal.last_game() is None:
        session = Session.create(journal, preset(variant), names)
    else:
        session = Session.resume(journal)
    if cut == "created":
        _cut()
    armed = [False]

    def trace(sql: str) -> None:  # runs on the session's worker, inside Journal._write
        if armed[0] and sql.strip().upper() == "COMMIT":
            _cut()

    def on_outcome(notice: object) -> None:  # after the commit, before the answer
        if cut == "committed" and isinstance(notice, Outcome) and notice.number == k:
            _cut()

    journal._db.set_trace_callback(trace)
    session.subscribe(on_outcome)
    with session:
        print(f"resumed {session.last_number}", flush=True)
        for number, event in enumerate(events[session.last_number:], session.last_number + 1):
            armed[0] = cut == "in-commit" and number == k  # one event, one commit
            outcome = session.submit(event)
            print(f"{outcome.number} {int(outcome.accepted)}", flush=True)
            if cut == "answered" and number == k:
                _cut()
    print("done", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6:])
