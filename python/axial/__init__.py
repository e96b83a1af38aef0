# SPDX-License-Identifier: MIT
"""axial: SIMD CPU kernels for CumSum, ReduceSum, Roll, LogCumSumExp and
ReduceLogSumExp, with numpy's names and semantics.

Float sums give the same bits on every SIMD ISA and for every thread count;
``axial.Stream`` carries them across calls, and ``axial.dask`` across the
chunks of a dask array.  The reference is docs/PYTHON.md in the source tree.
"""
from . import _core
from ._ops import (cumsum, cumulative_sum, get_num_threads, isa, isas, logcumsumexp,
                   logsumexp, roll, set_num_threads, sum, use_isa)
from ._stream import Stream


def _version(v):
    return f"{v // 10000}.{v // 100 % 100}.{v % 100}"


__version__ = _version(_core.version)
if _core.version != _core.header_version:  # pragma: no cover - a broken build
    raise ImportError(f"axial: the C library is {__version__}, the package was built for "
                      f"{_version(_core.header_version)}")

__all__ = ["cumsum", "cumulative_sum", "sum", "roll", "logcumsumexp", "logsumexp",
           "set_num_threads", "get_num_threads", "isa", "isas", "use_isa", "Stream",
           "__version__"]
