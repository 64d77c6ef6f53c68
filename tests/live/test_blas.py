"""`run` keeps numpy's BLAS to one thread, unless told otherwise."""

from __future__ import annotations

import numpy as np
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

from table.live.blas import one_blas_thread


def _blas_threads() -> list[int]:
    return [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]


def test_an_explicit_setting_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "2")
    with threadpool_limits(limits=2, user_api="blas"):
        before = _blas_threads()
        assert one_blas_thread() is False
        assert _blas_threads() == before


def test_numpy_blas_is_limited_to_one_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.delenv(name, raising=False)
    np.dot(np.ones((2, 2)), np.ones((2, 2)))  # numpy's BLAS is loaded by now
    if not _blas_threads():
        pytest.skip("this numpy has no BLAS thread pool")
    with threadpool_limits(limits=2, user_api="blas"):  # restored when the test ends
        assert one_blas_thread() is True
        assert _blas_threads() and set(_blas_threads()) == {1}
