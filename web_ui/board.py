"""The alert board: what on the page needs a person, and what is just news.

Alerts that need someone (the camera is unsure between two cards, the camera moved, a device was
unplugged, an action was refused) stay on the board until they are settled: confirmed or
dismissed on the page, cleared by the device or camera saying it is back, or overtaken by the
game (a refusal is cleared by the next accepted event, an unsure card by an accepted play of
that seat). Everything else ("the board is back", notes) is news: shown once, then dropped.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from table.alerts import Alert
from table.rules import CardPlayed, Corrected, Event

# A kind of news that settles earlier alerts of another kind from the same source.
SETTLES = {
    "device-connected": "device-unplugged",
    "camera-ok": "camera-moved",
    "camera-calibrated": "camera-moved",
    "camera-light-ok": "camera-dark",
}
NEWS_KINDS = frozenset({"note", *SETTLES})
NEWS_KEPT = 5


@dataclass
class BoardItem:
    """One alert on the board, numbered by the board (`id`) so the page can act on it."""

    id: int
    kind: str
    text: str
    source: str
    at: float
    seat: int | None = None
    details: dict[str, Any] = field(default_factory=dict)
    # the journal entry the alert came after (or, for a refusal, its own number)
    after: int = 0

    @property
    def candidates(self) -> list[str]:
        found = self.details.get("candidates", [])
        if not isinstance(found, list):
            return []
        return [str(c) for c in found if isinstance(c, str)][:2]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "kind": self.kind, "text": self.text,
                               "source": self.source, "at": self.at, "seat": self.seat,
                               "after": self.after}
        if self.kind == "camera-unsure":
            out["candidates"] = self.candidates
        return out


class AlertBoard:
    """Pending alerts and recent news; safe to share between threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._next_id = 1
        self._pending: list[BoardItem] = []
        self._news: list[BoardItem] = []

    def _item(self, kind: str, text: str, source: str, at: float, seat: int | None = None,
              details: dict[str, Any] | None = None, after: int = 0) -> BoardItem:
        item = BoardItem(self._next_id, kind, text, source, at, seat, dict(details or {}), after)
        self._next_id += 1
        return item

    def add_alert(self, alert: Alert, after: int) -> BoardItem:
        """Put `alert` up (after journal entry `after`); news settles what it names."""
        with self._lock:
            item = self._item(alert.kind, alert.text, alert.source, alert.at, alert.seat,
                              alert.details, after)
            settled = SETTLES.get(alert.kind)
            if settled is not None:
                self._pending = [p for p in self._pending
                                 if not (p.kind == settled and p.source == alert.source)]
            if alert.kind in NEWS_KINDS:
                self._news = [*self._news, item][-NEWS_KEPT:]
            else:
                self._pending.append(item)
            return item

    def add_refusal(self, number: int, text: str, reason: str, source: str, at: float
                    ) -> BoardItem:
        """A refused event: up until the next accepted one, or until dismissed."""
        with self._lock:
            item = self._item("refused", f"{text}: refused, {reason}", source, at,
                              details={"reason": reason}, after=number)
            self._pending.append(item)
            return item

    def accepted(self, event: Event) -> None:
        """The game moved on: clear refusals, and unsure cards the play answered."""
        played = event.replacement if isinstance(event, Corrected) else event
        seat = played.seat if isinstance(played, CardPlayed) else None
        with self._lock:
            self._pending = [
                p for p in self._pending
                if p.kind != "refused"
                and not (p.kind == "camera-unsure" and isinstance(played, CardPlayed)
                         and p.seat in (None, seat))]

    def get(self, item_id: int) -> BoardItem | None:
        with self._lock:
            return next((p for p in self._pending if p.id == item_id), None)

    def dismiss(self, item_id: int) -> bool:
        """Take an alert down; False if it was not up."""
        with self._lock:
            before = len(self._pending)
            self._pending = [p for p in self._pending if p.id != item_id]
            return len(self._pending) < before

    def clear(self) -> None:
        """A new game: nothing from the old one is pending."""
        with self._lock:
            self._pending = []
            self._news = []

    def snapshot(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """(pending alerts, recent news) as JSON-ready dicts, oldest first."""
        with self._lock:
            return [p.to_dict() for p in self._pending], [n.to_dict() for n in self._news]
