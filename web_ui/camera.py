"""The camera view for setting up the table: the annotated picture as MJPEG, and the
calibration status.

The app is handed any object with `jpeg()` (the latest picture with markers, zones and card
readings drawn on it, JPEG bytes, or None while there is none) and `status()` (JSON-ready,
at least {"calibrated": bool, "text": "..."}); vision's pipeline provides one. A camera that
also settles unsure cards the page confirms is a `ConfirmsCards`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any, Protocol, runtime_checkable

from table.rules import Card

BOUNDARY = "pinochle-frame"
RESEND_S = 2.0


class CameraView(Protocol):
    def jpeg(self) -> bytes | None: ...

    def status(self) -> dict[str, Any]: ...


@runtime_checkable
class ConfirmsCards(Protocol):
    """A camera that takes a card a person settled on the page (an unsure reading of a meld or
    kitty card) and counts it where it lies: `area` is "meld", "kitty" or "play". False when it
    no longer waits for that card."""

    def confirm(self, card: Card, seat: int | None, area: str) -> bool: ...


def mjpeg(camera: CameraView, fps: float, stopped: Callable[[], bool],
          sleep: Callable[[float], None] = time.sleep,
          clock: Callable[[], float] = time.monotonic) -> Iterator[bytes]:
    """multipart/x-mixed-replace parts at up to `fps`; ends once `stopped()` is true.

    A picture is sent when it changed, and again every `RESEND_S` seconds even if not: writing
    is how a server notices that the phone has gone, freeing its thread."""
    last: bytes | None = None
    sent = 0.0
    while not stopped():
        frame = camera.jpeg()
        if frame is not None and (frame != last or clock() - sent >= RESEND_S):
            last, sent = frame, clock()
            yield (f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\n"
                   f"Content-Length: {len(frame)}\r\n\r\n").encode() + frame + b"\r\n"
        sleep(1.0 / fps)
