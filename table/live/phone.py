"""A phone at the table: the page's JSON API over HTTP, with the table PIN, as the page's own
script uses it. The simulated players use it for what only a person can settle: which of two
cards the camera hesitated over, a misread card, a meld too big for its area."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from table.rules import Card, Event

TIMEOUT_S = 15.0


class PhoneError(Exception):
    """The page refused a request; the message is its answer."""


class Phone:
    def __init__(self, url: str, pin: str) -> None:
        self.url = url.rstrip("/")
        self.pin = pin

    def state(self) -> dict[str, Any]:
        return self.get("/api/state")

    def get(self, path: str) -> dict[str, Any]:
        status, body = self._call("GET", path, None)
        if status != 200:
            raise PhoneError(f"GET {path}: {status} {body.get('error')}")
        return body

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """POST with the PIN; raises `PhoneError` unless the page took it."""
        status, answer = self._call("POST", path, body)
        if status not in (200, 201):
            raise PhoneError(f"POST {path}: {status} {answer.get('error')}")
        return answer

    def event(self, event: Event) -> dict[str, Any]:
        """Any table event, as a person types it on the page."""
        data = event.to_dict()
        data.pop("source", None)
        data.pop("at", None)
        return self.post("/api/events", {"event": data})

    def settle_unsure(self, alert_id: int, candidates: list[str], truth: Card,
                      fallback: Event) -> dict[str, Any]:
        """Tap the true card among the two shown; if it is not one of them, take the alert
        down and enter `fallback` (the move as it really was) instead."""
        if str(truth) in candidates:
            return self.post(f"/api/alerts/{alert_id}/confirm", {"card": str(truth)})
        self.post(f"/api/alerts/{alert_id}/dismiss", {})
        return self.event(fallback)

    def tap_unsure(self, alert_id: int, card: str) -> bool:
        """Tap `card` on an unsure card's alert; False when the page says the camera no
        longer waits for it (409)."""
        status, answer = self._call("POST", f"/api/alerts/{alert_id}/confirm", {"card": card})
        if status == 409:
            return False
        if status != 200:
            raise PhoneError(f"confirm {card}: {status} {answer.get('error')}")
        return True

    def unsure_alerts(self) -> list[dict[str, Any]]:
        return [a for a in self.state().get("alerts", []) if a.get("kind") == "camera-unsure"]

    def _call(self, method: str, path: str, body: dict[str, Any] | None
              ) -> tuple[int, dict[str, Any]]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("X-Table-PIN", self.pin)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_S) as reply:
                return reply.status, json.loads(reply.read() or b"{}")
        except urllib.error.HTTPError as exc:
            try:
                answer = json.loads(exc.read() or b"{}")
            except ValueError:
                answer = {"error": exc.reason}
            return exc.code, answer if isinstance(answer, dict) else {"error": str(answer)}
