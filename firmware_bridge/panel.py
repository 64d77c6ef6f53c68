"""The control panel: presses from every input, referred to the session; lights and buzzer
kept in step with the game.

Raw pin edges (GPIO) are debounced here with `ButtonTracker`; the serial board sends finished
gestures. Both become `Press`es for the `ButtonLanguage`, whose events go to the session with
their source. A refused event, or a press that means nothing now, sounds the buzzer.

Thread-safe: edges, gestures and the session's notices may come from any thread. The clock is
injected: `start()` runs a small timer thread for hold detection and raise windows; tests with
a fake clock call `tick()` themselves.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from table.alerts import Alert
from table.rules import ALL_SUITS

from .config import Timing
from .firmware.buttons import ButtonTracker
from .language import Action, ButtonLanguage, Pending, Press, Refuse
from .ports import Lights, SessionPort

log = logging.getLogger(__name__)

REFUSED_BUZZ = (150, 100, 2)  # on ms, off ms, times: "no"
RENEGE_BUZZ = (600, 200, 3)   # long and insistent: a renege is proven
SUIT_BIT = 4                  # the suit lights are bits 4-7 (spades, hearts, clubs, diamonds)


def lights_for(game: Any, pending: dict[int, Pending]) -> tuple[int, int]:
    """(lit, blink) bit masks: the seat to act is lit, blinking while it is choosing; the suit
    being shown, else trump, lights its suit light."""
    lit = blink = 0
    turn = game.turn
    if isinstance(turn, int) and 0 <= turn < 4:
        lit |= 1 << turn
    suit = game.trump
    for seat, choice in pending.items():
        if 0 <= seat < 4:
            blink |= 1 << seat
            lit &= ~(1 << seat)
        if choice.suit is not None:
            suit = choice.suit
    if suit is not None:
        lit |= 1 << (SUIT_BIT + ALL_SUITS.index(suit))
    return lit, blink


class ControlPanel:
    def __init__(self, session: SessionPort, timing: Timing | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time) -> None:
        self.session = session
        self.timing = timing = timing or Timing()
        self.clock = clock
        self.wall = wall
        self.language = ButtonLanguage(timing.raise_window_ms / 1000)
        self.refusals: list[str] = []    # the last reasons the buzzer sounded for
        self._outputs: list[Lights] = []
        self._trackers: dict[tuple[str, int | None, str], ButtonTracker] = {}
        self._lock = threading.RLock()
        self._wake = threading.Condition(self._lock)
        self._shown: tuple[int, int] | None = None
        self._reneges = len(getattr(session.game, "reneges", ()))
        self._unsubscribe: Callable[[], Any] | None = None
        self._timer: threading.Thread | None = None
        self._stopping = False

    # -- wiring up ----------------------------------------------------------------------------

    def add_output(self, lights: Lights) -> None:
        with self._lock:
            self._outputs.append(lights)
            self._shown = None
        self.refresh()

    def start(self, timer: bool = True) -> ControlPanel:
        """Follow the session; with `timer`, a thread keeps time for holds and raise windows."""
        self._unsubscribe = self.session.subscribe(self._on_notice)
        if timer and self._timer is None:
            self._timer = threading.Thread(target=self._keep_time, name="controls-timer",
                                           daemon=True)
            self._timer.start()
        self.refresh()
        return self

    def stop(self) -> None:
        with self._lock:
            self._stopping = True
            self._wake.notify_all()
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self._timer is not None:
            self._timer.join(timeout=2)
            self._timer = None

    # -- inputs ---------------------------------------------------------------------------------

    def edge(self, source: str, seat: int | None, button: str, pressed: bool) -> None:
        """A raw pin edge (True: the button went down)."""
        now = self.clock()
        with self._lock:
            key = (source, seat, button)
            tracker = self._trackers.get(key)
            if tracker is None:
                tracker = ButtonTracker(self.timing.debounce_ms, self.timing.hold_ms)
                self._trackers[key] = tracker
            gesture = tracker.feed(pressed, now * 1000)
            self._wake.notify_all()
        if gesture is not None:
            self.gesture(source, seat, button, gesture, now)

    def gesture(self, source: str, seat: int | None, button: str, gesture: str,
                at: float | None = None) -> None:
        """A finished TAP or HOLD (from the board, or from a debounced pin)."""
        now = self.clock() if at is None else at
        press = Press(seat, button, gesture, source, now, self.wall())
        with self._lock:
            refusals = self._post(self.language.press(press, self.session.game))
            self._wake.notify_all()
        self._answer(refusals)

    def tick(self) -> None:
        """Let time act: long presses, reconciled bounces, raise windows that have closed."""
        now = self.clock()
        gestures: list[tuple[str, int | None, str, str]] = []
        with self._lock:
            for (source, seat, button), tracker in self._trackers.items():
                g = tracker.tick(now * 1000)
                if g is not None:
                    gestures.append((source, seat, button, g))
        for source, seat, button, g in gestures:
            self.gesture(source, seat, button, g, now)
        with self._lock:
            refusals = self._post(self.language.tick(now, self.wall()))
        self._answer(refusals)

    def deadline(self) -> float | None:
        """When `tick` next has work, on the panel's clock (seconds)."""
        with self._lock:
            times = [t / 1000 for t in (tr.deadline() for tr in self._trackers.values())
                     if t is not None]
            language = self.language.deadline()
        if language is not None:
            times.append(language)
        return min(times) if times else None

    def pending(self) -> list[Pending]:
        with self._lock:
            return list(self.language.pending.values())

    # -- outputs ---------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Show the game's state on every output (only what changed is sent)."""
        game = self.session.game
        with self._lock:  # shown under the lock, so a later state is never overtaken
            self.language.forget_stale(game)
            shown = lights_for(game, self.language.pending)
            moved = shown != self._shown
            self._shown = shown
            for out in self._outputs if moved else []:
                out.show(*shown)

    def buzz(self, reason: str, pattern: tuple[int, int, int] = REFUSED_BUZZ) -> None:
        with self._lock:
            self.refusals = [*self.refusals[-19:], reason]
            outputs = list(self._outputs)
        log.info("buzz: %s", reason)
        for out in outputs:
            out.buzz(*pattern)

    def device_alert(self, text: str, source: str, kind: str = "device-unplugged") -> None:
        """Tell the session (and so the page and the journal) about a device."""
        try:
            self.session.alert(Alert(kind=kind, text=text, source=source, at=self.wall()))
        except Exception:  # a stopped session must not take the serial thread down
            log.exception("could not raise the alert %r", text)

    # -- internals ---------------------------------------------------------------------------------

    def _post(self, actions: list[Action]) -> list[str]:
        """Hand the events to the session in press order (lock held: posting never waits);
        returns the reasons to buzz for."""
        reasons = []
        for action in actions:
            if isinstance(action, Refuse):
                reasons.append(action.reason)
                continue
            try:
                future: Future[Any] = self.session.post(action.event)
            except Exception as exc:  # a stopped session: say so, keep the input threads alive
                log.exception("could not hand %s to the session", action.event.describe())
                reasons.append(f"not taken: {exc}")
                continue
            future.add_done_callback(self._answered)
        return reasons

    def _answer(self, refusals: list[str]) -> None:
        for reason in refusals:
            self.buzz(reason)
        self.refresh()

    def _answered(self, future: Future[Any]) -> None:
        try:
            outcome = future.result()
        except Exception as exc:
            self.buzz(f"not taken: {exc}")
            return
        if not outcome.accepted:
            self.buzz(outcome.reason or "refused")

    def _on_notice(self, notice: object) -> None:
        game = getattr(notice, "game", None) or self.session.game
        reneges = len(getattr(game, "reneges", ()))
        with self._lock:
            more, self._reneges = reneges > self._reneges, reneges
        if more:
            self.buzz("a renege is proven", RENEGE_BUZZ)
        self.refresh()

    def _keep_time(self) -> None:
        while True:
            with self._lock:
                if self._stopping:
                    return
                deadline = self.deadline()
                wait = 0.5 if deadline is None else max(0.0, deadline - self.clock())
                if wait > 0:
                    self._wake.wait(min(wait, 0.5))
                if self._stopping:
                    return
            self.tick()
