"""Running the whole table in the test process (headless, on a free port)."""

from __future__ import annotations

import io
from pathlib import Path

from table.live.hardware import detect
from table.live.runner import RunningTable, RunOptions

PIN = "2468"
FRAME = (1280, 720)  # the simulated camera: smaller than the default 1920x1080, for speed


def start_table(db: Path, preset: str, options: dict[str, str], hands: int | None,
                seed: int = 1) -> RunningTable:
    return RunningTable(RunOptions(db=db, preset=preset, options=options, port=0,
                                   host="127.0.0.1", pin=PIN, headless=True, hands=hands,
                                   seed=seed, sim_frame=FRAME),
                        detect(), out=io.StringIO()).start()
