"""Pull the plug (SIGKILL) at chosen points of a scripted game, many times, and restart.

The points are chosen here (seeded): the child kills itself at start-up, inside the commit of
entry k, after that commit, or after its answer (see power_cut_child.py), so the test does the
same on a busy machine and an idle one. The resumed game must always be the game after the last
accepted entry; every answer the child printed before it died must be in the journal as
printed; the journal must be exactly the script's prefix with the script's verdicts (nothing
lost, nothing refused let in); an entry cut inside its commit is not there.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from table.journal import Journal
from table.rules import Game, Phase, new_game, preset
from table.session import Session

from .scripted import scripted_game

CHILD = Path(__file__).with_name("power_cut_child.py")
ROOT = Path(__file__).resolve().parents[2]
NAMES = ("Ann", "Bob", "Cy")
BISON = preset("bison")


def _reference(tmp: Path, events: list) -> list[tuple[bool, Game]]:
    """(accepted, game after it) for each entry, from one uninterrupted session."""
    with Journal(tmp / "reference.sqlite3") as journal, \
            Session.create(journal, BISON, NAMES) as session:
        return [(o.accepted, o.game) for o in (session.submit(e) for e in events)]


CUTS = ("in-commit", "committed", "answered")


def _run_child(db: Path, script: Path, cut: str, k: int) -> tuple[list[tuple[int, int]], bool]:
    """Run the child until it cuts itself at (`cut`, entry `k`) or finishes; its answers and
    whether it finished the script."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.run([sys.executable, str(CHILD), str(db), str(script), "bison", cut,
                            str(k), *NAMES], stdout=subprocess.PIPE, text=True, env=env,
                           timeout=120, check=False)
    acks: list[tuple[int, int]] = []
    finished = False
    for line in child.stdout.splitlines():
        if line.startswith("done"):
            finished = True
        elif not line.startswith("resumed"):
            number, verdict = line.split()
            acks.append((int(number), int(verdict)))
    assert finished or child.returncode == -9, (cut, k, child.returncode)
    return acks, finished


def test_sigkill_at_chosen_points_loses_nothing_and_lets_in_nothing(tmp_path: Path) -> None:
    steps = scripted_game(BISON, NAMES, seed=11, hands=3, mischief=0.15)
    # fixed times, so the journal's events compare equal to the script's
    events = [replace(s.event, at=1_800_000_000.0 + i) for i, s in enumerate(steps)]
    script = tmp_path / "script.jsonl"
    script.write_text("".join(json.dumps(e.to_dict()) + "\n" for e in events))
    reference = _reference(tmp_path, events)
    assert [a for a, _ in reference] == [s.accepted for s in steps]
    assert not all(a for a, _ in reference)  # the script has refusals to keep out

    db = tmp_path / "table.sqlite3"
    rng = random.Random(2026)
    kills, mid_trick_resumes = 0, 0
    done = 0  # entries in the journal
    for run in range(200):
        if run < 2:
            cut, k = ("opened", "created")[run], 0
        else:
            cut, k = rng.choice(CUTS), done + rng.randint(1, 10)
            if k > len(events):
                cut = "never"
        acks, finished = _run_child(db, script, cut, k)
        kills += not finished
        if not db.exists():
            continue
        with Journal(db) as journal:
            record = journal.last_game()
            if record is None:
                continue
            entries = journal.events(record.id)
            n = len(entries)
            assert [(e.event, e.accepted) for e in entries] == \
                [(events[i], reference[i][0]) for i in range(n)]
            for number, verdict in acks:
                assert number <= n and entries[number - 1].accepted == bool(verdict)
            if cut == "in-commit":
                assert n == k - 1, (cut, k, n)  # cut before its commit: not there, unanswered
            elif cut in ("committed", "answered"):
                assert n == k, (cut, k, n)
            done = n
            resumed = Session.resume(journal)
            assert resumed.game == (reference[n - 1][1] if n else new_game(BISON, NAMES))
            assert resumed.last_number == n
            if resumed.game.phase is Phase.PLAY and resumed.game.trick:
                mid_trick_resumes += 1
        if finished:
            break
    print(f"{kills} kills, {mid_trick_resumes} resumed mid-trick, {len(events)} entries")
    assert finished, "the script never finished: too few restarts for its length"
    assert kills >= 20 and mid_trick_resumes >= 3, (kills, mid_trick_resumes)
    with Journal(db) as journal:
        record = journal.last_game()
        assert record is not None and len(journal.games()) == 1
        assert len(journal.events(record.id)) == len(events)
        assert Session.resume(journal).game == reference[-1][1]
