"""What the controls need from the game session, and what they drive: small Protocols.

The real `table.session.Session` fits `SessionPort`; so does any test double that referees
honestly. The game itself (legality of every press) stays with the session: the controls only
read the current state to offer the next legal bid and to light the right seat.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, Protocol

from table.alerts import Alert
from table.rules import Event, Rules, Suit
from table.rules.expected import Expected


class GameView(Protocol):
    """The parts of the game state the buttons look at."""

    @property
    def rules(self) -> Rules: ...
    @property
    def turn(self) -> int | None: ...
    @property
    def high_bid(self) -> int | None: ...
    @property
    def declarer(self) -> int | None: ...
    @property
    def trump(self) -> Suit | None: ...
    def expected(self) -> Expected: ...


class SessionPort(Protocol):
    """`post` queues an event for the session to referee (the future gives its outcome:
    `accepted`, and the `reason` when refused);
    `subscribe` calls back from the session's thread after every change (it must not wait on
    the session) and returns a function that unsubscribes; `alert` is for device notices."""

    @property
    def game(self) -> Any: ...  # a GameView

    def post(self, event: Event) -> Future[Any]: ...

    def subscribe(self, callback: Callable[..., Any]) -> Callable[[], Any]: ...

    def alert(self, alert: Alert) -> Any: ...


class Lights(Protocol):
    """Where the turn lights, trump lights and buzzer are: GPIO pins, or the serial board."""

    def show(self, lit: int, blink: int) -> None:
        """Bit masks: bits 0-3 the seats' turn lights, bits 4-7 the suit lights (S H C D)."""

    def buzz(self, on_ms: int, off_ms: int, times: int) -> None: ...
