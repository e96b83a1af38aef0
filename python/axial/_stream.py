# SPDX-License-Identifier: MIT
"""axial.Stream: a scan or a reduction fed in pieces, with one call's bits for any cuts."""
import operator

import numpy as np

from . import _core, _ops

_OPS = {"cumsum": _ops.OP_CUMSUM, "logcumsumexp": _ops.OP_LOGCUMSUMEXP,
        "sum": _ops.OP_REDUCE_SUM, "logsumexp": _ops.OP_REDUCE_LOGSUMEXP}
_REDUCTIONS = ("sum", "logsumexp")


class Stream:
    """A CumSum, a LogCumSumExp, a sum or a logsumexp along ``axis`` of a tensor that
    arrives in pieces.

    ``push(piece)`` takes the next piece (any length along the axis, 0
    included; every other dimension and the dtype as in the first piece).  A
    ``"cumsum"`` stream returns the piece's outputs: concatenated along the
    axis, they are bit for bit ``axial.cumsum`` of the whole, for any cut
    points; a ``reverse`` stream is fed from the far end, the last piece
    first; a ``"logcumsumexp"`` stream the same with ``axial.logcumsumexp``.
    A ``"sum"`` stream returns None, and ``result()`` returns, at any time,
    ``axial.sum(whole, axis, keepdims=keepdims)`` of the pieces pushed so far,
    bit for bit, for any cut points; a ``"logsumexp"`` stream the same with
    ``axial.logsumexp``.  The log-space streams follow the ISA active when the
    first piece came (each ISA has log-space bits of its own): their state goes
    on only on that ISA.  Integer pieces give numpy's result dtype (int64 /
    uint64 for the small types; float64 for the log-space ops).  A stream
    pickles with its state, so it can move to another process or machine.
    """

    def __init__(self, op, axis=-1, *, exclusive=False, reverse=False, keepdims=False,
                 threads=None):
        if op not in _OPS:
            raise ValueError(f"Stream: op {op!r} is not 'cumsum', 'logcumsumexp', 'sum' or "
                             "'logsumexp'")
        if op in _REDUCTIONS and (exclusive or reverse):
            raise ValueError(f"Stream({op!r}): exclusive and reverse are a scan's")
        if op not in _REDUCTIONS and keepdims:
            raise ValueError(f"Stream({op!r}): keepdims is a reduction's")
        self.op = op
        self.axis = operator.index(axis)
        self.exclusive = bool(exclusive)
        self.reverse = bool(reverse)
        self.keepdims = bool(keepdims)
        self.threads = threads
        self._n = _ops._nthreads(threads)
        self._s = None
        self._src = None  # the piece dtype of the fast path
        self._dtype = None
        self._shape = None

    @property
    def length(self):
        """How many elements along the axis have been pushed."""
        return 0 if self._s is None else self._s.length()

    def reset(self):
        """Back to the start (length 0), keeping dtype and shape."""
        if self._s is not None:
            self._s.reset()

    def _create(self, shape, dt):
        self._dtype = dt
        self._shape = tuple(shape)
        flags = (_ops.EXCLUSIVE if self.exclusive else 0) | (_ops.REVERSE if self.reverse else 0)
        if self.keepdims:
            flags = _ops.KEEP_DIMS
        self._code = _ops.code_of(dt, "Stream")
        self._s = _core.Stream(_OPS[self.op], self._code, self._shape, self._ax, flags)

    def push(self, piece):
        """Scans the next piece and returns its outputs (a new array)."""
        a = piece if type(piece) is np.ndarray else np.asarray(piece)
        red = self.op in _REDUCTIONS
        if self._s is not None and a.dtype is self._src and a.flags.c_contiguous:
            # the common case: the C call checks the piece's rank and shape
            y = None if red else np.empty(a.shape, self._dtype)
            try:
                self._s.push(self._code, a if self._code != 4 else a.view(np.uint16),
                             y if self._code != 4 or red else y.view(np.uint16), a.shape, self._n)
                return y
            except ValueError:
                pass  # the checks below name what does not belong
        a = _ops.as_input(a, "Stream.push")
        if a.ndim == 0:
            raise ValueError("Stream.push: a piece has at least one dimension (got a 0-d array)")
        dt = (_ops.lse_dtype(a.dtype, None, "Stream.push") if self.op.startswith("log")
              else _ops.sum_dtype(a.dtype, None, "Stream.push"))
        if dt.kind == "b":
            dt = _ops._I64
        if self._s is None:
            self._ax = _ops.norm_axis(self.axis, a.ndim, "Stream.push")
            self._create(a.shape, dt)
        else:
            other = [d for k, d in enumerate(a.shape) if k != self._ax]
            mine = [d for k, d in enumerate(self._shape) if k != self._ax]
            if a.ndim != len(self._shape) or other != mine:
                raise ValueError(f"Stream.push: a piece of shape {a.shape} does not continue a "
                                 f"stream of pieces {self._shape} along axis {self._ax}")
            if dt != self._dtype:
                raise ValueError(f"Stream.push: a piece of dtype {a.dtype} (result {dt}) does "
                                 f"not continue a stream of {self._dtype}")
        if a.dtype == self._dtype:
            self._src = a.dtype  # pieces of this dtype take the fast path
        src = _ops.contiguous(a, self._dtype)
        y = None if red else np.empty(a.shape, self._dtype)
        self._s.push(self._code, _ops.raw(src), None if red else _ops.raw(y), a.shape, self._n)
        return y

    def result(self):
        """A reduction stream's value over every piece pushed so far (the shape
        and dtype of ``axial.sum(whole, axis, keepdims=keepdims)``, or of
        ``axial.logsumexp``)."""
        if self.op not in _REDUCTIONS:
            raise ValueError(f"Stream({self.op!r}).result: a scan's outputs come from push")
        if self._s is None:
            raise ValueError(f"Stream({self.op!r}).result: no piece yet (the first one gives "
                             "the shape and dtype)")
        shape = tuple(1 if k == self._ax else d for k, d in enumerate(self._shape)
                      if k != self._ax or self.keepdims)
        y = np.empty(shape, self._dtype)
        self._s.result(_ops.raw(y))
        return y[()] if y.ndim == 0 else y

    def __reduce__(self):
        state = None if self._s is None else (self._dtype, self._shape, self._ax,
                                              self._s.export())
        return (_restore, (self.op, self.axis, self.exclusive, self.reverse, self.threads, state,
                           self.keepdims))


def _restore(op, axis, exclusive, reverse, threads, state, keepdims=False):
    s = Stream(op, axis, exclusive=exclusive, reverse=reverse, keepdims=keepdims,
               threads=threads)
    if state is not None:
        dt, shape, ax, blob = state
        s._ax = ax
        s._create(shape, dt)
        s._s.load(blob)
    return s
