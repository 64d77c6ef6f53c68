"""Waiting for the table's answer to a move: the session's outcomes and alerts, matched to the
move the players made, whoever reported it (the camera, a button, the phone)."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable

from table.alerts import Alert
from table.rules import (
    BidMade,
    CardsPassed,
    Corrected,
    Event,
    HandDealt,
    KittyShown,
    MeldShown,
    TrumpNamed,
)
from table.session import Notice, Outcome, Session

WAIT_S = 20.0        # seconds to wait for a button press or a phone request to be answered
BACKLOG = 64         # outcomes kept that came before they were awaited


class PlayersStuck(Exception):
    """The table did not do what the players did (names the move and what was missing)."""


class Stopped(Exception):
    """The table is shutting down."""


def move_key(event: Event, loose: bool = False) -> tuple[object, ...]:
    """What identifies a move, whoever reported it (cards of a play are checked apart);
    `loose`: only who showed something, not which cards (the camera may misread them)."""
    name = type(event).__name__
    if loose and isinstance(event, MeldShown):
        return (name, event.seat)
    if loose and isinstance(event, KittyShown):
        return (name,)
    if isinstance(event, HandDealt):
        return (name, event.dealer)
    if isinstance(event, MeldShown):
        return (name, event.seat, tuple(sorted(event.cards)))
    if isinstance(event, KittyShown):
        return (name, tuple(sorted(event.cards)))
    if isinstance(event, CardsPassed):
        return (name, event.seat, event.to_seat)
    if isinstance(event, BidMade):
        return (name, event.seat, event.amount)
    if isinstance(event, TrumpNamed):
        return (name, event.seat, event.suit)
    seat = getattr(event, "seat", None)
    return (name,) if seat is None else (name, seat)


class TableAnswers:
    """The session's outcomes as they come; alerts go to `on_alert` as they are read."""

    def __init__(self, session: Session, on_alert: Callable[[Alert], object]) -> None:
        self.on_alert = on_alert
        self.stopping = threading.Event()
        self._notices: queue.Queue[Notice] = queue.Queue()
        self._unsubscribe = session.subscribe(self._notices)
        self._backlog: list[Outcome] = []  # outcomes that came before they were awaited

    def close(self) -> None:
        self._unsubscribe()

    def catch_up(self) -> None:
        """Read what has come (alerts are answered), keeping outcomes for a later wait."""
        self._backlog = (self._backlog + self._drain())[-BACKLOG:]

    def wait_for(self, event: Event, what: str, frames: int | None,
                 frame: Callable[[], object], refused: bool = False,
                 loose: bool = False) -> Outcome:
        """Until the session takes `event` (or refuses it, with `refused`): taking camera
        frames with `frame` if `frames` (at most that many), else waiting up to WAIT_S."""
        want = move_key(event, loose)
        deadline = time.monotonic() + WAIT_S
        used = 0
        while True:
            self.catch_up()
            for outcome in self._backlog:
                if move_key(outcome.event, loose) == want and outcome.accepted != refused:
                    self._backlog.remove(outcome)
                    return outcome
            if self.stopping.is_set():
                raise Stopped
            if frames is not None:
                if used >= frames:
                    raise PlayersStuck(f"waited {frames} camera frames for {what}")
                frame()
                used += 1
            else:
                if time.monotonic() > deadline:
                    raise PlayersStuck(f"waited {WAIT_S:.0f} s for {what}")
                try:
                    notice = self._notices.get(timeout=0.2)
                except queue.Empty:
                    continue
                self._notices.put(notice)

    def wait_corrected(self, number: int) -> None:
        """Until the session takes a correction of move `number`."""
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            for outcome in self._drain():
                if isinstance(outcome.event, Corrected) and outcome.event.target == number:
                    return
            time.sleep(0.02)
        raise PlayersStuck(f"the correction of move #{number} was not taken")

    def _drain(self) -> list[Outcome]:
        outcomes: list[Outcome] = []
        while True:
            try:
                notice = self._notices.get_nowait()
            except queue.Empty:
                return outcomes
            if isinstance(notice, Alert):
                self.on_alert(notice)
            else:
                outcomes.append(notice)
