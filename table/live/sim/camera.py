"""The simulated camera over the rendered mat, and the pace of the simulated table.

Each frame photographs the scene (vision.simulator.MatScene) and hands the picture taken one
frame before to the table's camera feed: the sensor's work (blur, noise, JPEG) is done in its
own thread while the table reads, as a real camera's is.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from table.rules import Card
from vision.simulator import Laid, MatScene

from ..camera import CameraFeed

THINK_S = 0.7        # a player's pause between moves, at --speed 1
FRAME_S = 0.12       # the simulated camera's frame interval, at --speed 1


@dataclass
class Pacing:
    """Live pacing (`speed` times as fast as a real table), or none at all (headless); `fps`
    paces the camera alone, like a real one (the benchmark's headless table)."""

    headless: bool
    speed: float = 1.0
    fps: float | None = None

    def think(self) -> None:
        if not self.headless:
            time.sleep(THINK_S / self.speed)

    def frame(self, started: float) -> None:
        if self.fps:
            interval = 1.0 / self.fps
        elif self.headless:
            return
        else:
            interval = FRAME_S / self.speed
        time.sleep(max(0.0, interval - (time.monotonic() - started)))


def _behind_the_table() -> None:
    """Run this thread (the simulated camera's sensor work) after the table's own threads when
    the CPU is short: a real camera's sensor takes none of the table's CPU (Linux: a thread's
    own nice value)."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)


class SimulatedCamera:
    """Photographs `scene` into `feed`, one frame per `frame()`; `on_still(card, seat, time)`
    is told when a card laid with `watch` has come to rest (the benchmark's start)."""

    def __init__(self, scene: MatScene, feed: CameraFeed, pacing: Pacing) -> None:
        self.scene = scene
        self.feed = feed
        self.pacing = pacing
        self.frames = 0
        self.on_still: Callable[[Card, int, float], object] | None = None
        self._watch_still: list[tuple[Laid, int]] = []
        self._darkroom = ThreadPoolExecutor(1, thread_name_prefix="sim-camera",
                                            initializer=_behind_the_table)
        self._developing: Future[np.ndarray] | None = None

    def watch(self, item: Laid, seat: int) -> None:
        """Tell `on_still` when this laid card comes to rest."""
        self._watch_still.append((item, seat))

    def frame(self) -> None:
        started = time.monotonic()
        for item, seat in list(self._watch_still):
            if item.still:
                self._watch_still.remove((item, seat))
                if self.on_still is not None:
                    self.on_still(item.card, seat, time.time())
        developing = self._darkroom.submit(self.scene.develop, self.scene.capture())
        if self._developing is not None:
            self.feed.process(self._developing.result())
        self._developing = developing
        self.frames += 1
        self.pacing.frame(started)

    def close(self) -> None:
        self._darkroom.shutdown(wait=True, cancel_futures=True)
