"""The session against the real rules core: check, journal, then apply and announce."""

from __future__ import annotations

import json
import logging
import queue
from collections.abc import Iterator
from pathlib import Path

import pytest

from table.alerts import Alert
from table.journal import Journal
from table.rules import BidMade, CardPlayed, Corrected, Game, Passed, Phase, Undone, preset, replay
from table.session import Notice, Outcome, Session, SessionError

from .scripted import Step, scripted_game

NAMES = ("Ann", "Bob", "Cy")
BISON = preset("bison")


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path / "table.sqlite3") as j:
        yield j


@pytest.fixture(scope="module")
def steps() -> list[Step]:
    return scripted_game(BISON, NAMES, seed=3, hands=2, mischief=0.0)


def _play(session: Session, steps: list[Step]) -> list[Outcome]:
    return [session.submit(s.event, timeout=30) for s in steps]


def _first(steps: list[Step], kind: type, after: int = 0) -> int:
    return next(i for i, s in enumerate(steps) if i >= after and isinstance(s.event, kind))


def test_a_game_is_played_and_resumed_mid_trick(journal: Journal, steps: list[Step]) -> None:
    stop = _first(steps, CardPlayed) + 5  # three cards, the gather, a lead
    with Session.create(journal, BISON, NAMES) as session:
        outcomes = _play(session, steps[:stop])
        assert all(o.accepted for o in outcomes)
        assert [o.number for o in outcomes] == list(range(1, stop + 1))
        mid = session.game
    assert mid.phase is Phase.PLAY and len(mid.trick) == 1
    again = Session.resume(journal)
    assert again.game == mid and again.last_number == stop
    with again:
        _play(again, steps[stop:])
    expected = replay(BISON, NAMES, [(i + 1, s.event) for i, s in enumerate(steps)])
    assert again.game == expected and again.game.phase is Phase.HAND_OVER


def test_a_refused_event_is_answered_journaled_and_changes_nothing(
        journal: Journal, steps: list[Step]) -> None:
    with Session.create(journal, BISON, NAMES) as session:
        _play(session, steps[:1])  # the deal
        before = session.game
        bob = session.submit(BidMade(seat=2, amount=250, source="gpio"))
    assert not bob.accepted and bob.number == 2 and bob.game == before == session.game
    assert bob.reason == "it is Bob's turn to bid, not Cy's"
    assert json.loads(json.dumps(bob.to_dict())) == {
        "event": bob.event.to_dict(), "accepted": False, "number": 2, "reason": bob.reason}
    entry = session.history()[-1]
    assert (entry.number, entry.accepted, entry.reason) == (2, False, bob.reason)
    assert entry.event.source == "gpio" and entry.event.at > 0  # stamped on arrival
    assert [n for n, _ in session.accepted()] == [1]


def test_undo_and_correction_are_events(journal: Journal, steps: list[Step]) -> None:
    with Session.create(journal, BISON, NAMES) as session:
        _play(session, steps[:1])
        bid = session.submit(BidMade(seat=1, amount=250))
        session.submit(Passed(seat=2))
        undone = session.submit(Undone(source="web"))
        assert undone.accepted and undone.game.turn == 2 and undone.game.high_bid == 250
        fixed = session.submit(Corrected(target=bid.number or 0,
                                         replacement=BidMade(seat=1, amount=300), source="web"))
        assert fixed.accepted and fixed.game.high_bid == 300
        no_target = session.submit(Corrected(target=99, replacement=Passed(seat=2)))
        assert not no_target.accepted and "99" in (no_target.reason or "")
        # a correction that makes a later event illegal is refused, and changes nothing
        session.submit(BidMade(seat=2, amount=310))
        clash = session.submit(Corrected(target=bid.number or 0,
                                         replacement=BidMade(seat=1, amount=320)))
        assert not clash.accepted and "310" in (clash.reason or "")
        assert session.game.high_bid == 310
    assert [e.number for e in journal.events(session.game_id)] == list(range(1, 9))
    resumed = Session.resume(journal)
    assert resumed.game == session.game
    assert resumed.game == replay(BISON, NAMES, journal.accepted_events(session.game_id))


def test_subscribers_hear_every_outcome_and_alert_and_a_failing_one_is_harmless(
        journal: Journal, steps: list[Step], caplog: pytest.LogCaptureFixture) -> None:
    heard: list[Notice] = []
    inbox: queue.Queue[Notice] = queue.Queue()
    session = Session.create(journal, BISON, NAMES)
    session.subscribe(heard.append)
    session.subscribe(inbox)

    def broken(notice: Notice) -> None:
        raise RuntimeError("the buzzer is unplugged")
    session.subscribe(broken)
    with caplog.at_level(logging.ERROR, logger="table.session"), session:
        _play(session, steps[:3])
        unsure = Alert(kind="camera-unsure", text="queen or king of spades?", source="camera",
                       details={"candidates": ["QS", "KS"]})
        assert session.alert(unsure).result(timeout=30).at > 0
        session.submit(Passed(seat=steps[2].event.seat))  # type: ignore[attr-defined]  # spoke last
    assert [type(n).__name__ for n in heard] == ["Outcome"] * 3 + ["Alert", "Outcome"]
    assert isinstance(heard[-1], Outcome) and not heard[-1].accepted
    assert [inbox.get_nowait() for _ in range(5)] == heard
    assert "the buzzer is unplugged" in caplog.text
    assert journal.alerts(session.game_id)[0].alert.details == {"candidates": ["QS", "KS"]}
    assert journal.alerts(session.game_id)[0].after_event == 3


def test_unsubscribe_stops_the_notices(journal: Journal, steps: list[Step]) -> None:
    heard: list[Notice] = []
    with Session.create(journal, BISON, NAMES) as session:
        unsubscribe = session.subscribe(heard.append)
        _play(session, steps[:1])
        unsubscribe()
        _play(session, steps[1:2])
    assert len(heard) == 1


def test_a_subscriber_may_post_but_not_submit(journal: Journal, steps: list[Step]) -> None:
    errors: list[str] = []
    posted = []

    def eager(notice: Notice) -> None:
        if isinstance(notice, Outcome) and notice.number == 1:
            posted.append(session.post(steps[1].event))
            try:
                session.submit(steps[2].event)
            except SessionError as exc:
                errors.append(str(exc))
    session = Session.create(journal, BISON, NAMES)
    session.subscribe(eager)
    with session:
        session.submit(steps[0].event)
        assert posted[0].result(timeout=30).accepted
    assert errors and "post()" in errors[0]


def test_a_fault_in_the_rules_core_refuses_the_event_and_the_table_goes_on(
        journal: Journal, steps: list[Step], monkeypatch: pytest.MonkeyPatch) -> None:
    real_apply = Game.apply

    def faulty(self: Game, event: object) -> Game:
        if isinstance(event, Passed):
            raise KeyError("oops")
        return real_apply(self, event)  # type: ignore[arg-type]
    with Session.create(journal, BISON, NAMES) as session:
        _play(session, steps[:2])
        monkeypatch.setattr(Game, "apply", faulty)
        broken = session.submit(Passed(seat=2))
        monkeypatch.setattr(Game, "apply", real_apply)
        fine = session.submit(Passed(seat=2))
    assert not broken.accepted and "KeyError" in (broken.reason or "")
    assert fine.accepted and fine.number == 4


def test_a_second_writer_is_noticed_and_nothing_changes(journal: Journal,
                                                        steps: list[Step]) -> None:
    with Session.create(journal, BISON, NAMES) as first:
        _play(first, steps[:1])
        with Session.resume(journal, first.game_id) as second:
            assert second.submit(steps[1].event).accepted
        lost = first.submit(steps[1].event)
    assert not lost.accepted and lost.number is None
    assert "another program" in (lost.reason or "") and first.last_number == 1
    assert len(journal.events(first.game_id)) == 2


def test_stop_finishes_the_queue_then_refuses_more(journal: Journal, steps: list[Step]) -> None:
    session = Session.create(journal, BISON, NAMES).start()
    futures = [session.post(s.event) for s in steps[:20]]
    session.stop()
    assert all(f.result(timeout=0).accepted for f in futures)
    with pytest.raises(SessionError, match="stopped"):
        session.post(steps[20].event)
    with pytest.raises(SessionError, match="stopped"):
        session.start()
    never_started = Session.resume(journal)
    waiting = never_started.post(steps[20].event)
    never_started.stop()
    with pytest.raises(SessionError, match="before it started"):
        waiting.result(timeout=0)


def test_only_events_are_taken(journal: Journal) -> None:
    session = Session.create(journal, BISON, NAMES)
    with pytest.raises(TypeError, match="table events"):
        session.post("BidMade 250")  # type: ignore[arg-type]


def test_a_game_that_cannot_start_writes_nothing(journal: Journal) -> None:
    with pytest.raises(SessionError, match="3 seat names"):
        Session.create(journal, BISON, ["Ann", "Bob"])
    with pytest.raises(SessionError, match="no game yet"):
        Session.resume(journal)
    assert journal.games() == []
