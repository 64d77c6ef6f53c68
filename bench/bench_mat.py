"""How long `pinochle-table print-mat` takes and how much memory it needs, for each kind of file.

    .venv/bin/python bench/bench_mat.py [--repeats 3] [--seats 3]

Each run is the real command in a fresh process (so imports count, as for a user), writing the
vector PDF (one page), the PDF tiled on A4, and the 300 dpi PNG. Figures: the best wall time of
the repeats, the largest peak resident memory, and the file's size. The last line is one JSON
object.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CASES: tuple[tuple[str, list[str], str], ...] = (
    ("pdf", [], "mat.pdf"), ("pdf-a4", ["--paper", "a4"], "mat-a4.pdf"),
    ("png-300dpi", [], "mat.png"))


def measure(args: list[str]) -> tuple[float, int]:
    """Wall seconds and peak resident kB of one run of the command (its own, by wait4)."""
    start = time.perf_counter()
    child = subprocess.Popen(args, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed ({child.returncode})")
    return seconds, usage.ru_maxrss


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seats", type=int, choices=(3, 4), default=3)
    opts = parser.parse_args(argv)
    program = str(Path(sys.executable).parent / "pinochle-table")
    out: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for name, extra, file_name in CASES:
            path = Path(scratch) / file_name
            runs = [measure([program, "print-mat", "--seats", str(opts.seats), *extra,
                             "--out", str(path)]) for _ in range(opts.repeats)]
            out[name] = {"seconds": round(min(s for s, _ in runs), 3),
                         "peak_mb": round(max(k for _, k in runs) / 1024, 1),
                         "file_kb": round(path.stat().st_size / 1024, 1)}
            print(f"{name:12} {out[name]['seconds']:6.2f} s  {out[name]['peak_mb']:7.1f} MB peak  "
                  f"{out[name]['file_kb']:9.1f} kB")
    print(json.dumps({"bench": "print-mat", "seats": opts.seats, **out}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
