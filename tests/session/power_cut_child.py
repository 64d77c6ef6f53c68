"""The process the power-cut test kills: plays a script of events into a journal.

    python power_cut_child.py JOURNAL SCRIPT VARIANT NAME...

It resumes the journal's last game (or starts one), submits the script's events from where the
journal ends (step i is journal entry i + 1), and prints `number verdict` for each answer, so
the parent knows what was acknowledged before it pulled the plug.
"""

from __future__ import annotations

import json
import sys

from table.journal import Journal
from table.rules import event_from_dict, preset
from table.session import Session


def main(db: str, script: str, variant: str, names: list[str]) -> None:
    with open(script, encoding="utf-8") as f:
        events = [event_from_dict(json.loads(line)) for line in f]
    journal = Journal(db)
    if journal.last_game() is None:
        session = Session.create(journal, preset(variant), names)
    else:
        session = Session.resume(journal)
    with session:
        print(f"resumed {session.last_number}", flush=True)
        for event in events[session.last_number:]:
            outcome = session.submit(event)
            print(f"{outcome.number} {int(outcome.accepted)}", flush=True)
    print("done", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:])
