"""Several producers at once: every event is whole or absent, in one order, journal first."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import pytest

from table.alerts import Alert
from table.journal import Journal
from table.rules import (
    CardPlayed,
    Event,
    Game,
    IllegalAction,
    Phase,
    TrickGathered,
    legal_plays,
    preset,
)
from table.session import Notice, Outcome, Session

from .scripted import scripted_game

NAMES = ("Ann", "Bob", "Cy")
BISON = preset("bison")
PLAYING = (Phase.MELD, Phase.PLAY)  # the first lead ends the meld
CAP = 3000  # submissions per producer at most, so a bug cannot hang the test


def _card_to_try(game: Game, seat: int, rng: random.Random) -> CardPlayed | None:
    hands = game.hands
    if game.phase not in PLAYING or hands is None or not hands[seat]:
        return None
    if game.turn == seat and not game.trick_full:
        trick = [c for _, c in game.trick]
        cards = legal_plays(hands[seat], trick, game.trump, game.rules, not game.tricks)
    else:
        cards = list(hands[seat])  # most likely refused: not this seat's turn
    return CardPlayed(seat=seat, card=rng.choice(cards), source=f"thread-{seat}")


def test_racing_producers_never_interleave_half_applied_events(tmp_path: Path) -> None:
    steps = scripted_game(BISON, NAMES, seed=5, hands=1, mischief=0.0)
    setup = [s.event for s in steps[:next(i for i, s in enumerate(steps)
                                          if isinstance(s.event, CardPlayed))]]
    journal = Journal(tmp_path / "table.sqlite3")
    session = Session.create(journal, BISON, NAMES).start()
    for event in setup:
        assert session.submit(event, timeout=30).accepted
    start_game = session.game
    heard: list[int] = []
    session.subscribe(lambda n: heard.append(n.number or 0) if isinstance(n, Outcome) else None)

    outcomes: list[Outcome] = []
    samples: list[tuple[Game, int]] = []
    lock = threading.Lock()
    go = threading.Barrier(6)
    done = threading.Event()

    def seat_player(seat: int) -> None:
        rng = random.Random(seat)
        go.wait()
        for _ in range(CAP):
            event = _card_to_try(session.game, seat, rng)
            if event is None:
                break
            outcome = session.submit(event, timeout=30)
            with lock:
                outcomes.append(outcome)

    def gatherer() -> None:
        go.wait()
        for _ in range(CAP):
            if session.game.phase not in PLAYING:
                break
            if session.game.trick_full:
                outcome = session.submit(TrickGathered(source="camera"), timeout=30)
                with lock:
                    outcomes.append(outcome)
            time.sleep(0.001)

    def alerter() -> None:
        go.wait()
        for i in range(10):
            session.alert(Alert(kind="note", text=f"note {i}", source="web")).result(30)

    def reader() -> None:
        go.wait()
        while not done.is_set():
            game = session.game
            samples.append((game, journal.last_number(session.game_id)))
            time.sleep(0.0005)

    producers = [threading.Thread(target=seat_player, args=(s,)) for s in range(3)]
    producers += [threading.Thread(target=gatherer), threading.Thread(target=alerter)]
    watcher = threading.Thread(target=reader)
    for t in [*producers, watcher]:
        t.start()
    for t in producers:
        t.join(timeout=120)
    done.set()
    watcher.join(timeout=30)
    session.stop()

    # every outcome has its own number, and together they are the journal
    outcomes.sort(key=lambda o: o.number or 0)
    numbers = [o.number for o in outcomes]
    assert numbers == list(range(len(setup) + 1, len(setup) + 1 + len(outcomes)))
    entries = journal.events(session.game_id)[len(setup):]
    assert [(e.number, e.event, e.accepted) for e in entries] == \
        [(o.number, o.event, o.accepted) for o in outcomes]
    assert heard == numbers
    assert sum(o.accepted for o in outcomes) >= 45 and sum(not o.accepted for o in outcomes) > 0

    # in that one order, each event was judged whole against the game its predecessors left
    game = start_game
    made_by: dict[Game, int] = {game: len(setup)}
    for outcome in outcomes:
        if outcome.accepted:
            game = game.apply(outcome.event)
            made_by[game] = outcome.number or 0
        else:
            with pytest.raises(IllegalAction):
                game.apply(outcome.event)
        assert outcome.game == game
    assert game.phase is Phase.HAND_OVER
    assert session.game == game == Session.resume(journal).game

    # readers only ever saw whole positions, and never one ahead of the journal
    assert samples
    for seen, journal_end in samples:
        assert seen in made_by
        assert made_by[seen] <= journal_end
    assert len(journal.alerts(session.game_id)) == 10
    journal.close()


def test_posts_from_many_threads_all_get_answers(tmp_path: Path) -> None:
    """A burst of events posted at once from several threads: each answered once, in order."""
    steps = scripted_game(BISON, NAMES, seed=6, hands=1, mischief=0.0)
    events: list[Event] = [s.event for s in steps]
    with Journal(tmp_path / "t.sqlite3") as journal:
        session = Session.create(journal, BISON, NAMES)
        heard: list[Notice] = []
        session.subscribe(heard.append)
        futures = []
        order = threading.Lock()

        def poster(part: list[Event]) -> None:
            for event in part:
                with order:
                    futures.append(session.post(event))

        # posted before the worker starts, then all released at once: one big batch
        threads = [threading.Thread(target=poster, args=(events[i::4],)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        session.start()
        results = [f.result(timeout=60) for f in futures]
        session.stop()
        assert sorted(r.number or 0 for r in results) == list(range(1, len(events) + 1))
        assert [n.number for n in heard if isinstance(n, Outcome)] == \
            list(range(1, len(events) + 1))
        accepted = journal.accepted_events(session.game_id)
        assert Session.resume(journal).game == session.game
        assert len(accepted) == sum(r.accepted for r in results)
