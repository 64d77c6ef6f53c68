"""Running the whole table in the test process (headless, on a free port), and what a finished
simulated game must show."""

from __future__ import annotations

import io
from pathlib import Path

from table.live.hardware import detect
from table.live.phone import Phone
from table.live.runner import RunningTable, RunOptions
from table.rules import Game, replay

PIN = "2468"
FRAME = (1280, 720)  # the simulated camera: smaller than the default 1920x1080, for speed


def start_table(db: Path, preset: str, options: dict[str, str], hands: int | None,
                seed: int = 1) -> RunningTable:
    return RunningTable(RunOptions(db=db, preset=preset, options=options, port=0,
                                   host="127.0.0.1", pin=PIN, headless=True, hands=hands,
                                   seed=seed, sim_frame=FRAME),
                        detect(), out=io.StringIO()).start()


def check_true_score(table: RunningTable, mistakes: set[str]) -> Game:
    """The game the table kept is the one the rules core plays from the true cards (scores,
    ledger, each hand's result; the page shows the same), every input was used, and each
    deliberate mistake (at least the kinds in `mistakes`) was caught; returns the true game."""
    assert table.failure is None, table.failure
    players, session = table.players, table.session
    assert players is not None and session is not None and players.complete
    game = session.game
    truth = replay(game.rules, game.names, list(enumerate(players.true_events, 1)))
    assert game.hand_number == truth.hand_number >= 1
    assert game.scores == truth.scores
    assert game.ledger == truth.ledger
    assert game.winner == truth.winner
    assert game.view()["history"] == truth.view()["history"]
    page = Phone(table.url, PIN).state()
    assert page["game"]["scores"] == list(truth.scores)
    assert page["game"]["position"] == game.position()

    sources = {e.event.source for e in session.history()}
    assert {"camera", "gpio", "serial", "web"} <= sources
    assert mistakes <= {m.kind for m in players.mistakes}
    for mistake in players.mistakes:
        assert mistake.caught, mistake
    refused = [e for e in session.history() if not e.accepted]
    assert any(e.event.source in ("gpio", "serial") for e in refused)
    assert any("turn" in reason for reason in table.controls.panel.refusals)  # buzzed
    return truth
