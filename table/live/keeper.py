"""Marking what nobody can see. On a real table the declarer buries face down and partners
pass cards face down: the camera sees none of it, yet the game must know it happened. The
keeper follows the session and marks these moves itself (source "table"), without cards:

- the bury, as soon as trump is named (the meld comes after it);
- both passes of a partnership game (partner to declarer, then back), as soon as trump is
  named: the declarer's meld then comes after them, which scores the same.

Only for hidden hands (a real table); a game that knows the hands is told the cards.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from table.rules import Game
from table.session import Notice, Outcome, Session

SOURCE = "table"


class Keeper:
    """Follows a session (`post`, `subscribe`, `game`) and marks face-down moves."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._unsubscribe: Callable[[], None] | None = None
        self._asked: int | None = None  # the entry after which a move was last posted

    def start(self) -> Keeper:
        self._unsubscribe = self.session.subscribe(self._on_notice)
        self._mark(self.session.game, -1)
        return self

    def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def _on_notice(self, notice: Notice) -> None:
        if isinstance(notice, Outcome) and notice.accepted and notice.number is not None:
            self._mark(notice.game, notice.number)

    def _mark(self, game: Game, number: int) -> None:
        move = game.expected().face_down
        # one mark per accepted entry: a refused mark must not be posted again and again
        if move is not None and self._asked != number:
            self._asked = number
            self.session.post(replace(move, source=SOURCE))
