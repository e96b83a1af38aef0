# SPDX-License-Identifier: MIT
# The array API namespace of scripts/array-api-tests.sh: numpy's, with axial's
# sum, cumulative_sum and roll in place of numpy's.
from numpy import *  # noqa: F401,F403
import numpy as _np
import axial as _ax
from numpy import linalg, fft  # noqa: F401

__array_api_version__ = _np.__array_api_version__


def sum(x, /, *, axis=None, dtype=None, keepdims=False):  # noqa: A001
    return _ax.sum(x, axis=axis, dtype=dtype, keepdims=keepdims)


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    return _ax.cumulative_sum(x, axis=axis, dtype=dtype, include_initial=include_initial)


def roll(x, /, shift, *, axis=None):
    return _ax.roll(x, shift, axis)
