"""The panel's own duties: lights from the game, the buzzer for refusals and reneges."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from firmware_bridge.firmware.buttons import TAP
from firmware_bridge.language import Pending
from firmware_bridge.panel import RENEGE_BUZZ, ControlPanel, lights_for
from table.alerts import Alert
from table.rules import Event, Phase, Suit, preset
from table.rules.expected import Buttons, Expected
from table.session import Session


@dataclass
class Position:
    """Just what the panel reads of a game."""

    turn: int | None = 1
    trump: Suit | None = None
    phase: str = "auction"
    high_bid: int | None = None
    declarer: int | None = None
    reneges: tuple[object, ...] = ()
    rules: Any = field(default_factory=lambda: preset("bison"))

    def expected(self) -> Expected:
        buttons = Buttons.BID if self.phase == "auction" else Buttons.WAIT
        return Expected(phase=Phase(self.phase), buttons=buttons, turn=self.turn)


class Recorder:
    """An output that remembers what it was told."""

    def __init__(self) -> None:
        self.shown: list[tuple[int, int]] = []
        self.buzzes: list[tuple[int, int, int]] = []

    def show(self, lit: int, blink: int) -> None:
        self.shown.append((lit, blink))

    def buzz(self, on_ms: int, off_ms: int, times: int) -> None:
        self.buzzes.append((on_ms, off_ms, times))


class Announcer:
    """A session stand-in that only announces positions (no refereeing is asked of it)."""

    def __init__(self) -> None:
        self.game = Position()
        self.listeners: list[Callable[[Any], object]] = []

    def post(self, event: Event) -> Future[Any]:
        raise AssertionError("nothing is pressed in these tests")

    def subscribe(self, callback: Callable[[Any], object]) -> Callable[[], None]:
        self.listeners.append(callback)
        return lambda: self.listeners.remove(callback)

    def alert(self, alert: Alert) -> Any:
        return None

    def announce(self, game: Position) -> None:
        self.game = game
        for listener in self.listeners:
            listener(type("Outcome", (), {"game": game})())


def test_lights_show_the_turn_the_choice_and_trump() -> None:
    assert lights_for(Position(turn=2), {}) == (0b100, 0)
    assert lights_for(Position(turn=None, trump=Suit.CLUBS), {}) == (1 << 6, 0)
    choosing = {1: Pending(1, suit=Suit.DIAMONDS)}
    assert lights_for(Position(turn=1, trump=None), choosing) == (1 << 7, 0b10)


def test_lights_follow_announcements_and_a_renege_buzzes_long() -> None:
    session = Announcer()
    panel = ControlPanel(session).start(timer=False)
    out = Recorder()
    panel.add_output(out)
    session.announce(Position(turn=0))
    session.announce(Position(turn=0))  # nothing changed: nothing sent
    session.announce(Position(turn=2, reneges=("South reneged",)))
    assert out.shown == [(0b10, 0), (0b1, 0), (0b100, 0)]
    assert out.buzzes == [RENEGE_BUZZ]
    panel.stop()
    assert session.listeners == []


def test_a_stopped_session_gets_a_buzz_not_a_crash(
        open_session: Callable[..., Session]) -> None:
    session = open_session("bison")
    panel = ControlPanel(session).start(timer=False)
    out = Recorder()
    panel.add_output(out)
    session.stop(timeout=5)
    panel.gesture("gpio", session.game.turn, "PASS", TAP)
    assert out.buzzes and "not taken" in panel.refusals[-1]
    panel.stop()
