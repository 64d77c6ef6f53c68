"""One thread for numpy's matrix products (BLAS) while the table runs.

OpenBLAS starts a thread per core, and its threads spin while they wait for work. Next to
OpenCV's threads, the camera's and the page server's (and, on a shared or small machine, other
programs), reading one card's corner then took a second instead of a few milliseconds: that
alone put the card-to-page time over a second. One thread is as fast for matrices this small.
threadpoolctl finds whichever BLAS numpy loaded and sets it.
"""

from __future__ import annotations

import os

from threadpoolctl import threadpool_limits

# the variables BLAS libraries read at start: a person who set one has chosen
CHOSEN = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def one_blas_thread() -> bool:
    """Limit numpy's BLAS to one thread, unless the environment chose a number; True when the
    limit was set."""
    if any(name in os.environ for name in CHOSEN):
        return False
    threadpool_limits(limits=1, user_api="blas")
    return True
