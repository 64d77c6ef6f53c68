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
from typing import Any

from table.rules import Buried, CardsPassed, Event, Game, Phase
from table.rules.seats import partner_of

SOURCE = "table"


def unseen_move(game: Game) -> Event | None:
    """The face-down move the game waits for now, if any."""
    if game.known or game.trump is None or game.declarer is None:
        return None
    rules, declarer = game.rules, game.declarer
    if rules.bury and not rules.meld_before_bury and game.phase is Phase.BURY \
            and not game.bury_done:
        return Buried(seat=declarer, cards=None, source=SOURCE)
    if rules.pass_cards and game.phase in (Phase.PASSING, Phase.MELD) and len(game.passes) < 2:
        partner = partner_of(rules, declarer)
        if partner is None:
            return None
        if not game.passes:
            return CardsPassed(seat=partner, to_seat=declarer, cards=None, source=SOURCE)
        return CardsPassed(seat=declarer, to_seat=partner, cards=None, source=SOURCE)
    return None


class Keeper:
    """Follows a session (`post`, `subscribe`, `game`) and marks face-down moves."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self._unsubscribe: Callable[[], Any] | None = None
        self._asked: int | None = None  # the entry after which a move was last posted

    def start(self) -> Keeper:
        self._unsubscribe = self.session.subscribe(self._on_notice)
        self._mark(self.session.game, -1)
        return self

    def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def _on_notice(self, notice: object) -> None:
        game = getattr(notice, "game", None)
        number = getattr(notice, "number", None)
        if isinstance(game, Game) and getattr(notice, "accepted", False) and number is not None:
            self._mark(game, number)

    def _mark(self, game: Game, number: int) -> None:
        move = unseen_move(game)
        # one mark per accepted entry: a refused mark must not be posted again and again
        if move is not None and self._asked != number:
            self._asked = number
            self.session.post(move)
