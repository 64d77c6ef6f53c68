"""`run` keeps numpy's OpenBLAS to one thread, unless told otherwise."""

from __future__ import annotations

import ctypes
import os
from pathlib import Path

import numpy as np
import pytest

from table.live.blas import one_blas_thread

MAPS = Path("/proc/self/maps")


def test_an_explicit_setting_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "2")
    assert one_blas_thread() is False
    assert os.environ["OPENBLAS_NUM_THREADS"] == "2"


def test_with_numpy_loaded_its_openblas_is_told(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    np.dot(np.ones((2, 2)), np.ones((2, 2)))  # numpy's BLAS is loaded by now
    no_blas = tmp_path / "maps"
    no_blas.write_text("7f0000-7f1000 r-xp 00000000 08:01 12 /usr/lib/libc.so.6\n")
    assert one_blas_thread(no_blas) is False
    loaded = [line.split()[-1] for line in MAPS.read_text().splitlines()
              if "openblas" in line.lower()]
    if not loaded:
        pytest.skip("this numpy is not built on OpenBLAS")
    assert one_blas_thread() is True
    library = ctypes.CDLL(loaded[0])
    getter = next(getattr(library, n) for n in ("scipy_openblas_get_num_threads64_",
                                                "openblas_get_num_threads")
                  if hasattr(library, n))
    assert getter() == 1
