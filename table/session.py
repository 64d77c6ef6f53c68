"""The session: the one owner of a game.

Every input (camera, buttons, serial board, web page) hands its events to `post` or `submit`
from any thread. One worker thread takes them in arrival order and, for each: checks it with
the rules core, writes it to the journal (committed durably), and only then changes the game
and tells the subscribers. A refused event is written down too, with its reason, and changes
nothing. Undo and corrections are events; the game after them is `replay` of the accepted ones.
Events that arrive together share one commit; none is answered before it is on disk.
"""

from __future__ import annotations

import dataclasses
import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from table.alerts import Alert
from table.journal import Entry, EventRecord, GameRecord, Journal, JournalError, Standing
from table.rules import (
    Corrected,
    Event,
    Game,
    IllegalAction,
    Rules,
    StockDrawn,
    Undone,
    new_game,
    options_of,
    replay,
)

log = logging.getLogger(__name__)
MAX_BATCH = 64  # events taken into one commit at most


class SessionError(Exception):
    """The game cannot be opened or the session is not running; the message says why."""


@dataclass(frozen=True)
class Outcome:
    """What became of one event: accepted with its journal number, or refused with a reason.

    `number` is the journal entry (refused events are written down too); it is None only when
    the journal could not be written, in which case nothing changed. `game` is the game after
    the event (unchanged when refused).
    """

    event: Event
    accepted: bool
    number: int | None
    reason: str | None
    game: Game

    def to_dict(self) -> dict[str, Any]:
        """The outcome as JSON (the game itself is `game.view()`)."""
        return {"event": self.event.to_dict(), "accepted": self.accepted,
                "number": self.number, "reason": self.reason}


Notice = Outcome | Alert
Subscriber = Callable[[Notice], object] | queue.Queue[Notice]


@dataclass(frozen=True)
class _Job:
    item: Event | Alert | None  # None stops the worker
    future: Future[Any]


class Session:
    """One game, resumed from the journal exactly where it stood."""

    def __init__(self, journal: Journal, game_id: int,
                 clock: Callable[[], float] = time.time) -> None:
        record = journal.game(game_id)
        self.journal = journal
        self.game_id = game_id
        self._accepted = journal.accepted_events(game_id)
        try:
            self.rules: Rules = game_rules(record, self._accepted)
        except JournalError as exc:  # e.g. an option outside its domain, from an older program
            raise SessionError(f"{exc}. The journal keeps it; start a new game (`pinochle-table "
                               "new`, or New game on the page)") from None
        self.names: tuple[str, ...] = record.names
        self.first_dealer = record.first_dealer
        self._clock = clock
        self._last_number = journal.last_number(game_id)
        self._game = replay_journal(journal, record, self._accepted)
        self._standing = record.standing
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._subscribers: list[Subscriber] = []
        self._lock = threading.Lock()
        self._worker: threading.Thread | None = None
        self._closed = False
        journal.mark_opened(game_id, clock())

    @classmethod
    def create(cls, journal: Journal, rules: Rules, names: Sequence[str], first_dealer: int = 0,
               clock: Callable[[], float] = time.time) -> Session:
        """Start a new game (checked by the rules core before anything is written)."""
        try:
            game = new_game(rules, names, first_dealer)
        except (ValueError, TypeError) as exc:
            raise SessionError(f"cannot start this game: {exc}") from None
        options = options_of(rules)
        if rules.draw_from_stock:  # said even when it is the preset's: see game_rules
            options.setdefault("draw_events", "yes" if rules.draw_events else "no")
        game_id = journal.new_game(rules.name, options, list(names), first_dealer,
                                   _standing(game), clock())
        return cls(journal, game_id, clock)

    @classmethod
    def resume(cls, journal: Journal, game_id: int | None = None,
               clock: Callable[[], float] = time.time) -> Session:
        """Open `game_id`, or the game opened most recently."""
        if game_id is None:
            last = journal.last_game()
            if last is None:
                raise SessionError(f"{journal.path} has no game yet; start one with "
                                   "`pinochle-table new`")
            game_id = last.id
        return cls(journal, game_id, clock)

    # -- the game, read from any thread -------------------------------------------------------

    @property
    def game(self) -> Game:
        """The game after the last accepted event."""
        return self._game

    @property
    def last_number(self) -> int:
        """The number of the last journal entry (accepted or refused)."""
        return self._last_number

    def accepted(self) -> list[tuple[int, Event]]:
        """(journal number, event) of every accepted event so far."""
        with self._lock:
            return list(self._accepted)

    def history(self) -> list[EventRecord]:
        """Every journal entry of this game, refused ones too (for disputes)."""
        return self.journal.events(self.game_id)

    # -- inputs, from any thread ----------------------------------------------------------------

    def post(self, event: Event) -> Future[Outcome]:
        """Queue `event`; the future gives its `Outcome` once it is written down."""
        if not isinstance(event, Event):
            raise TypeError(f"a session takes table events, not {event!r}")
        if not event.at:
            event = dataclasses.replace(event, at=self._clock())
        return self._enqueue(event)

    def submit(self, event: Event, timeout: float | None = None) -> Outcome:
        """Queue `event` and wait for its `Outcome` (TimeoutError after `timeout` seconds)."""
        if threading.current_thread() is self._worker:
            raise SessionError("a subscriber must use post(), not submit(): the session is "
                               "busy telling it about the previous event")
        return self.post(event).result(timeout)

    def alert(self, alert: Alert) -> Future[Alert]:
        """Queue a notice for the journal and the subscribers; it changes nothing in the game."""
        if not alert.at:
            alert = dataclasses.replace(alert, at=self._clock())
        return self._enqueue(alert)

    def _enqueue(self, item: Event | Alert) -> Future[Any]:
        future: Future[Any] = Future()
        with self._lock:
            if self._closed:
                raise SessionError("the session has stopped; resume the game to go on")
            self._jobs.put(_Job(item, future))
        return future

    # -- subscribers ---------------------------------------------------------------------------

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Tell `subscriber` (a callable, or a queue it is put on) every `Outcome` and `Alert`.

        Callables run on the session's worker thread, so they must be quick and must not call
        `submit` (use `post`); an exception in one is logged and never stops the session. A full
        queue loses the notice rather than hold up the table. Returns the unsubscribe function.
        """
        with self._lock:
            self._subscribers.append(subscriber)

        def unsubscribe() -> None:
            with self._lock:
                if subscriber in self._subscribers:
                    self._subscribers.remove(subscriber)
        return unsubscribe

    def _publish(self, notice: Notice) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
        for subscriber in subscribers:
            try:
                if isinstance(subscriber, queue.Queue):
                    subscriber.put_nowait(notice)
                else:
                    subscriber(notice)
            except queue.Full:
                log.warning("a subscriber's queue is full; it misses %s", _describe(notice))
            except Exception:
                log.exception("a subscriber failed on %s; the session goes on",
                              _describe(notice))

    # -- the worker ------------------------------------------------------------------------------

    def start(self) -> Session:
        """Start the worker thread (queued events are taken in the order they came)."""
        with self._lock:
            if self._closed:
                raise SessionError("the session has stopped; resume the game to go on")
            if self._worker is None:
                self._worker = threading.Thread(target=self._run, daemon=True,
                                                name=f"session-game-{self.game_id}")
                self._worker.start()
        return self

    def stop(self, timeout: float | None = None) -> None:
        """Finish what is queued, then stop the worker. Later posts raise `SessionError`."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._jobs.put(_Job(None, Future()))
            worker = self._worker
        if worker is None:
            self._cancel_waiting()
        elif worker is not threading.current_thread():
            worker.join(timeout)

    def __enter__(self) -> Session:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _cancel_waiting(self) -> None:
        while True:
            try:
                job = self._jobs.get_nowait()
            except queue.Empty:
                return
            if job.item is not None:
                job.future.set_exception(SessionError("the session stopped before it started"))

    def _run(self) -> None:
        while True:
            jobs = [self._jobs.get()]
            # Events that queued up meanwhile share one commit (each still checked in order
            # and answered only once it is on disk): a burst costs one disk sync, not many.
            while len(jobs) < MAX_BATCH and jobs[-1].item is not None:
                try:
                    jobs.append(self._jobs.get_nowait())
                except queue.Empty:
                    break
            events: list[_Job] = []
            for job in jobs:
                if job.item is None or isinstance(job.item, Alert):
                    self._guarded(self._take, events)
                    events = []
                if job.item is None:
                    return
                if not job.future.set_running_or_notify_cancel():
                    continue
                if isinstance(job.item, Alert):
                    self._guarded(self._note, [job])
                else:
                    events.append(job)
            self._guarded(self._take, events)

    def _guarded(self, handle: Callable[[list[_Job]], None], jobs: list[_Job]) -> None:
        """Run `handle`; whatever goes wrong fails these jobs, never the worker."""
        if not jobs:
            return
        try:
            handle(jobs)
        except Exception as exc:
            log.exception("the session failed on %s", _describe(jobs[0].item))
            for job in jobs:
                if not job.future.done():
                    job.future.set_exception(exc)

    def _take(self, jobs: list[_Job]) -> None:
        """Check, write down, then apply and announce events (worker thread only)."""
        game, accepted, standing = self._game, list(self._accepted), self._standing
        entries: list[Entry] = []
        games: list[Game] = []
        for number, job in enumerate(jobs, self._last_number + 1):
            assert isinstance(job.item, Event)
            after, reason = self._check(game, accepted, number, job.item)
            new_standing = None
            if after is not None:
                game = after
                accepted.append((number, job.item))
                # Written only when it changes: most events (cards, tricks) leave it alone.
                if _standing(game) != standing:
                    standing = new_standing = _standing(game)
            entries.append(Entry(number, job.item, after is not None, reason, new_standing))
            games.append(game)
        try:
            self.journal.append_all(self.game_id, entries, now=self._clock())
        except JournalError as exc:
            log.error("events not written down: %s", exc)
            for job in jobs:
                assert isinstance(job.item, Event)
                self._answer(job, Outcome(job.item, False, None, "it could not be written "
                                          f"down ({exc}); nothing changed", self._game))
            return
        with self._lock:
            self._last_number = entries[-1].number
            self._accepted = accepted
            self._game, self._standing = game, standing
        for job, entry, after in zip(jobs, entries, games, strict=True):
            self._answer(job, Outcome(entry.event, entry.accepted, entry.number, entry.reason,
                                      after))

    def _answer(self, job: _Job, outcome: Outcome) -> None:
        self._publish(outcome)
        job.future.set_result(outcome)

    def _check(self, game: Game, accepted: list[tuple[int, Event]], number: int,
               event: Event) -> tuple[Game | None, str | None]:
        """The game after `event`, or None and the reason it is refused."""
        try:
            if isinstance(event, Corrected | Undone):
                return replay(self.rules, self.names, [*accepted, (number, event)],
                              self.first_dealer), None
            return game.apply(event), None
        except IllegalAction as exc:
            return None, exc.reason
        except Exception as exc:  # a fault in the rules core must not stop the table
            log.exception("the rules core failed on %s", event.describe())
            return None, f"the rules core could not check it ({type(exc).__name__}: {exc})"

    def _note(self, jobs: list[_Job]) -> None:
        (job,) = jobs
        alert = job.item
        assert isinstance(alert, Alert)
        try:
            self.journal.add_alert(self.game_id, alert, self._clock())
        except JournalError as exc:
            log.error("alert not written down: %s", exc)
        self._publish(alert)
        job.future.set_result(alert)


def game_rules(record: GameRecord, accepted: Sequence[tuple[int, Event]]) -> Rules:
    """The rules `record` was played by. A two-handed game recorded before each turn at the
    stock was entered has no `draw_events` in its options (new ones always say it): it is
    `draw_events=no` unless its journal holds a draw (one written between the two versions)."""
    rules = record.rules()
    if rules.draw_from_stock and "draw_events" not in record.options and not any(
            isinstance(event, StockDrawn) for _, event in accepted):
        return dataclasses.replace(rules, draw_events=False)
    return rules


def replay_journal(journal: Journal, record: GameRecord,
                   accepted: Sequence[tuple[int, Event]] | None = None) -> Game:
    """The game `record` as its accepted journal entries leave it."""
    if accepted is None:
        accepted = journal.accepted_events(record.id)
    try:
        return replay(game_rules(record, accepted), record.names, accepted,
                      record.first_dealer)
    except (IllegalAction, ValueError) as exc:
        raise SessionError(
            f"game {record.id} in {journal.path} does not replay with this program's rules "
            f"({exc}); nothing was changed. Was it written by another version?") from None


def _standing(game: Game) -> Standing:
    return Standing(str(game.phase.value), game.hand_number, tuple(game.scores), game.winner)


def _describe(item: Notice | Event | None) -> str:
    if item is None:
        return "stop"
    if isinstance(item, Outcome):
        return f"entry {item.number} ({item.event.describe()})"
    if isinstance(item, Alert):
        return f"alert {item.kind}: {item.text}"
    return item.describe()
