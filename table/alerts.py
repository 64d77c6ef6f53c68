"""Alerts: notices that are not moves of the game.

The camera is unsure between two cards, the camera was bumped, a seat's board was unplugged,
someone typed a note on the phone. An alert changes nothing in the game: the session journals
it and tells its subscribers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any


class AlertFormatError(ValueError):
    """A dict that is not a well-formed alert."""


@dataclass(frozen=True, kw_only=True)
class Alert:
    """One notice: `kind` is a short machine word ("camera-unsure", "camera-moved",
    "device-unplugged", "note"), `text` a sentence a player reads, `details` JSON-able extras
    (the candidate cards the camera hesitates between, the device name)."""

    kind: str
    text: str
    source: str = ""
    at: float = 0.0
    seat: int | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "source": self.source, "at": self.at,
                "seat": self.seat, "details": dict(self.details)}

    @classmethod
    def from_dict(cls, data: Any) -> Alert:
        """The inverse of `to_dict`; raises `AlertFormatError` naming what is wrong."""
        if not isinstance(data, dict):
            raise AlertFormatError(f"an alert must be an object, not {data!r}")
        kind, text = data.get("kind"), data.get("text")
        if not isinstance(kind, str) or not kind or not isinstance(text, str):
            raise AlertFormatError("an alert needs a 'kind' and a 'text'")
        at = data.get("at", 0.0)
        seat = data.get("seat")
        details = data.get("details", {})
        if isinstance(at, bool) or not isinstance(at, int | float) or not math.isfinite(at):
            raise AlertFormatError(f"alert 'at' must be a time in seconds, not {at!r}")
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise AlertFormatError(f"alert 'seat' must be a seat number, not {seat!r}")
        if not isinstance(details, dict):
            raise AlertFormatError(f"alert 'details' must be an object, not {details!r}")
        return cls(kind=kind, text=text, source=str(data.get("source", "")), at=float(at),
                   seat=seat, details=details)
