"""One thread for numpy's matrix products (OpenBLAS).

OpenBLAS starts a thread per core, and its threads spin while they wait for work. Next to
OpenCV's threads, the camera's, the page server's (and, on a shared or small machine, other
programs), reading one card's corner then takes a second instead of a few milliseconds: that
alone put the card-to-page time over a second. One thread is as fast for matrices this small.
"""

from __future__ import annotations

import ctypes
import os
import sys
from pathlib import Path

SETTERS = ("scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads",
           "openblas_set_num_threads64_", "openblas_set_num_threads")


def one_blas_thread(maps: Path = Path("/proc/self/maps")) -> bool:
    """Ask for one OpenBLAS thread, unless OPENBLAS_NUM_THREADS says otherwise; True when it
    took effect (before numpy is imported, through the environment; after, through the loaded
    library)."""
    if "OPENBLAS_NUM_THREADS" in os.environ:
        return False
    if "numpy" not in sys.modules:
        os.environ["OPENBLAS_NUM_THREADS"] = "1"
        return True
    try:
        loaded = {line.split()[-1] for line in maps.read_text().splitlines()
                  if "openblas" in line.lower() and line.split()[-1].startswith("/")}
    except OSError:
        return False
    done = False
    for path in sorted(loaded):
        try:
            library = ctypes.CDLL(path)
        except OSError:
            continue
        setter = next((getattr(library, n) for n in SETTERS if hasattr(library, n)), None)
        if setter is not None:
            setter(1)
            done = True
    return done
