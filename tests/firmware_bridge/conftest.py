"""Shared pieces: a real session on a throwaway journal, a fake clock, mock pins."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from table.alerts import Alert
from table.journal import Journal
from table.rules import Event, HandDealt, preset
from table.session import Session


class FakeClock:
    """Monotonic seconds that move only when told."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def settle(session: Session) -> None:
    """Wait until the session has dealt with everything queued so far (its queue is FIFO, and
    outcome callbacks run before the next item is taken)."""
    session.alert(Alert(kind="note", text="test: settle")).result(timeout=5)


def wait_until(check: Callable[[], bool], timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.005)
    return check()


def accepted(session: Session) -> list[Event]:
    return [event for _, event in session.accepted()]


def refused(session: Session) -> list[Any]:
    return [r for r in session.history() if not r.accepted]


@pytest.fixture
def open_session(tmp_path: Path) -> Iterator[Callable[..., Session]]:
    """`open_session(variant)`: a started session of a freshly dealt game."""
    sessions: list[Session] = []
    journals: list[Journal] = []

    def make(variant: str = "brooklyn") -> Session:
        rules = preset(variant)
        journal = Journal(tmp_path / f"game-{len(journals)}.db")
        journals.append(journal)
        session = Session.create(journal, rules, [f"P{i}" for i in range(rules.table_seats)])
        session.start()
        sessions.append(session)
        assert session.submit(HandDealt(dealer=0, source="test"), timeout=5).accepted
        return session

    yield make
    for session in sessions:
        session.stop(timeout=5)
    for journal in journals:
        journal.close()


@pytest.fixture
def pin_factory() -> Iterator[Any]:
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    yield factory
    factory.reset()
    factory.close()


def turn(session: Session) -> int:
    """The seat to act (the test expects one)."""
    seat = session.game.turn
    assert seat is not None, session.game
    return seat
