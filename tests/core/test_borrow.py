"""Borrowed views (bg_env.kernels.borrow): the same memory, without numba's reference
counts; None passes through."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from numba import njit  # noqa: E402
from numba.core.errors import TypingError  # noqa: E402

from bg_env.kernels.borrow import borrowed  # noqa: E402


@njit
def _write_rows(a):
    a = borrowed(a)
    for i in range(a.shape[0]):
        row = a[i]
        row[1:] += i
    return a.sum()


@njit
def _is_none(x):
    return borrowed(x) is None


@njit
def _scalar(x):
    return borrowed(x)


def test_a_borrowed_view_reads_and_writes_the_arrays_memory():
    a = np.ones((3, 4), np.int64)
    assert _write_rows(a) == a.sum() == 12 + 3 * (0 + 1 + 2)
    assert a[:, 0].tolist() == [1, 1, 1] and a[2, 1:].tolist() == [3, 3, 3]
    view = a[:, 1:]  # strided: the same strides are kept
    _write_rows(view)
    assert a[1].tolist() == [1, 2, 3, 3] and a[2].tolist() == [1, 3, 5, 5]


def test_none_passes_and_other_values_are_refused():
    assert _is_none(None)
    with pytest.raises(TypingError):
        _scalar(3)
