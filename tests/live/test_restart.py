"""The running table killed mid-hand (SIGKILL) and started again: the page shows the game as
the journal left it, and the simulated players play the hand on to its end, deliberate mistakes
and all (before the kill a press out of turn; after it a renege, a smudged card, a knocked
camera), each caught."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import IO, Any

import pytest

from table.journal import Journal
from table.session import replay_journal

from .helpers import PIN

COMMAND = ["-m", "table.cli", "run", "--headless", "--port", "0", "--host", "127.0.0.1",
           "--pin", PIN, "--preset", "bison", "--option", "target=300", "--hands", "1",
           "--sim-frame", "1280x720", "--seed", "5"]


def _line(stream: IO[str], starts: str, timeout: float = 60) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = stream.readline()
        if not line:
            break
        if line.startswith(starts):
            return line[len(starts):].strip()
    raise AssertionError(f"the table never printed {starts!r}")


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as reply:
        return json.loads(reply.read())


def _start(db: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, *COMMAND, "--db", str(db)], text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)


def _journal(db: Path) -> tuple[list[tuple[int, bool, str]], str, int]:
    journal = Journal(db)
    try:
        record = journal.last_game()
        assert record is not None
        entries = [(e.number, e.accepted, type(e.event).__name__)
                   for e in journal.events(record.id)]
        game = replay_journal(journal, record)
        return entries, game.position(), game.hand_number
    finally:
        journal.close()


@pytest.mark.timeout(300)
def test_killed_mid_hand_the_table_goes_on_where_it_stood(tmp_path: Path) -> None:
    db = tmp_path / "table.sqlite3"
    first = _start(db)
    try:
        assert first.stdout is not None
        url = _line(first.stdout, "the table's page:")
        deadline = time.monotonic() + 200
        while True:
            game = _get(url + "api/state")["game"]
            trick = game["trick"]
            if game["phase"] == "play" and trick and not trick["complete"] \
                    and game["tricks_played"] >= 1:
                break
            assert time.monotonic() < deadline, "the game never reached the middle of a trick"
            time.sleep(0.1)
    finally:
        first.kill()
        first.wait()
    entries, position, hand = _journal(db)
    assert ": " in position and hand == 1
    assert any(not accepted for _, accepted, _ in entries)  # the press out of turn, refused

    second = _start(db)
    try:
        assert second.stdout is not None
        resumed = _line(second.stdout, "resumed game ")
        assert resumed.startswith(f"1 at entry {entries[-1][0]}:")
        assert _line(second.stdout, "position:") == position
        url = _line(second.stdout, "the table's page:")
        history = _get(url + "api/history")["entries"]
        assert [(e["number"], e["accepted"], e["event"]["type"])
                for e in history][:len(entries)] == entries
        code = second.wait(200)
        said = second.stdout.read()
        assert code == 0, said
        mistakes = [line for line in said.splitlines() if line.startswith("mistake (")]
        kinds = {line.split()[1].strip("(,") for line in mistakes}
        assert {"renege", "unreadable", "bumped"} <= kinds, said
        assert all(": caught;" in line for line in mistakes), said
    finally:
        if second.poll() is None:
            second.kill()
            second.wait()
    after, final, hand_after = _journal(db)
    assert after[:len(entries)] == entries and len(after) > len(entries)
    assert hand_after == 1 and ("hand-over" in final or "winner=" in final or final != position)
