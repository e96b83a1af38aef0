# SPDX-License-Identifier: MIT
"""axial's ops on dask arrays: lazy, chunk-parallel, and bit for bit
``axial.<op>(x.compute())`` for any chunking, scheduler and worker count.

How each op keeps one call's bits (docs/PYTHON.md, "dask"):

- Scans along an axis with a grid (float lines along the innermost axis,
  every integer scan): each chunk along the axis is summarised in parallel
  (``axial_shard_summarize``), the summaries are combined in scan order into
  each chunk's carry, and every chunk is scanned from its carry in parallel.
  Where a chunk boundary is off the grid, the scan runs as a chain of
  streams (below), whose bits are one call's for any cut.
- Float scans along an outer axis (columns: one chain per column, no grid),
  or along the innermost one with a chunk boundary off its grid: each block
  of the other axes runs as an ``axial.Stream`` whose state (CumSum: 8 bytes
  a column, 152 a line; LogCumSumExp: 32 a column, 96 a line) passes from
  chunk to chunk along the axis; the blocks run in parallel, each column's
  bits its own (a block of one column would be a line, whose order differs:
  none is made).
- Reductions with a grid (one group of reduced axes: the order's fixed
  chunks of rows; several: its cells of the first reduced axis's indices),
  every chunk boundary on it: each chunk along the cut axis
  is summarised in a blockwise task (which dask fuses with the task that
  makes the chunk), the summaries are combined in chunk order (8 at a time,
  a tree above that) in the task that finishes.  A float sum or logsumexp
  along one axis with a chunk boundary off its grid runs each block of the
  kept axes as a chain of ReduceSum (ReduceLogSumExp) streams whose state
  passes from chunk to chunk along the axis; the last link writes the
  result.  Several reduced groups with chunk boundaries off the grid have
  them moved onto it; the reduced axes other than the cut axis are taken
  whole.  The kept axes are split where that leaves the C library's plan
  for every output unchanged.

Each task runs axial on one thread (``threads=1``): the cluster's workers are
the parallelism; pass ``threads=k`` to give each task k threads (shard
summaries and shard scans stay on one: the C shard calls take no executor).  The tasks run
on the ISA active where the graph is built (the client's), so that the
log-space ops, whose bits are per ISA, match the client's one call too.
"""
import contextlib
import functools
import itertools
import math

import numpy as np

import dask.array as da
from dask.base import tokenize
from dask.highlevelgraph import HighLevelGraph

from . import _core, _ops

__all__ = ["cumsum", "cumulative_sum", "sum", "roll", "logcumsumexp", "logsumexp"]

_LANES = 16            # AXIAL_ORDER_LANES: columns of at least this many keep their order
_FEW = 64              # the C planner's "few outputs" of a reduction
_CHUNK_BYTES = 1 << 16  # its fixed reduction chunks: 64 KiB of rows,
_CHUNK_ROWS = 1024      # at least 1024 rows for more outputs (float types)
_FAN_IN = 8             # summaries a combining task takes (a tree above that)


def _chunk_rows(outs, row_bytes, floats):
    """The rows of a reduction's fixed chunks, 0 for none (src/internal.h,
    axial__reduce_chunk)."""
    rows = _CHUNK_BYTES // row_bytes
    if outs <= _FEW:
        return rows
    return max(rows, _CHUNK_ROWS) if floats else 0


# ---- tasks (run on the workers) ----------------------------------------------

@contextlib.contextmanager
def _on_isa(isa, op):
    """Runs the task on the client's ISA, the worker thread's own for the
    task's length.  A worker without it may use its own only for the plain
    float sums, whose bits are the same on every SIMD ISA."""
    try:
        prev = _core.isa_thread(isa)
    except ValueError:
        if not (op in (_ops.OP_CUMSUM, _ops.OP_REDUCE_SUM) and isa != "scalar" and
                _core.isa() != "scalar"):
            raise
        prev = None
    try:
        yield
    finally:
        if prev is not None:
            _core.isa_thread(prev)


def _t_summarize(isa, desc, x, start, length):
    with _on_isa(isa, desc[0]):
        return _core.shard_summarize(desc, _ops.raw(np.ascontiguousarray(x)), start, length)


def _t_summarize_block(x, isa, op, code, shape, axes, flags, cut, block_info=None):
    """A block's summary, as a blockwise task (fused with the layer that makes
    the block): the desc's shape is shape with the kept axes the block's."""
    loc = block_info[0]["array-location"]
    desc = (op, code, tuple(x.shape[k] if k not in axes else d for k, d in enumerate(shape)),
            axes, flags)
    return _t_summarize(isa, desc, x, loc[cut][0], loc[cut][1] - loc[cut][0])


def _t_combine(*parts):
    """Neighbouring summaries in order, combined left to right."""
    total = parts[0]
    for b in parts[1:]:
        total = _core.shard_combine(total, b)
    return total


def _t_scan(isa, desc, dt, x, start, length, carry):
    with _on_isa(isa, desc[0]):
        x = np.ascontiguousarray(x)
        y = np.empty(x.shape, dt)
        _core.shard_scan(desc, _ops.raw(x), _ops.raw(y), start, length, carry)
        return y


def _t_finish(isa, desc, dt, shape, *parts):
    """The result from the summaries of the whole axis, in order."""
    with _on_isa(isa, desc[0]):
        y = np.empty(shape, dt)
        _core.shard_finish(desc, _t_combine(*parts), _ops.raw(y))
        return y


def _t_stream(isa, op, code, dt, ax, flags, x, state, threads):
    """One chunk of a column stream: (outputs, the carry after them)."""
    with _on_isa(isa, op):
        x = np.ascontiguousarray(x)
        s = _core.Stream(op, code, x.shape, ax, flags)
        if state is not None:
            s.load(state)
        y = np.empty(x.shape, dt)
        s.push(code, _ops.raw(x), _ops.raw(y), x.shape, threads)
        return y, s.export()


def _t_sum_push(isa, op, code, ax, flags, x, state, threads, out=None):
    """One chunk of a reduction's stream: the state after it, or, for the
    chain's last chunk (out: the result's dtype and shape), the result."""
    with _on_isa(isa, op):
        x = np.ascontiguousarray(x)
        s = _core.Stream(op, code, x.shape, ax, flags)
        if state is not None:
            s.load(state)
        s.push(code, _ops.raw(x), None, x.shape, threads)
        if out is None:
            return s.export()
        y = np.empty(out[1], out[0])
        s.result(_ops.raw(y))
        return y


def _t_first(pair):
    return pair[0]


def _t_second(pair):
    return pair[1]


def _t_scan_block(isa, op, code, dt, ax, flags, threads, x):
    with _on_isa(isa, op):
        x = np.ascontiguousarray(x)
        y = np.empty(x.shape, dt)
        _core.scan(op, code, _ops.raw(x), _ops.raw(y), x.shape, ax, flags, threads)
        return y


def _t_reduce_block(isa, op, code, dt, axes, flags, shape, x, threads):
    with _on_isa(isa, op):
        x = np.ascontiguousarray(x)
        y = np.empty(shape, dt)
        _core.reduce(op, code, _ops.raw(x), _ops.raw(y), x.shape, axes, flags, threads)
        return y


# ---- chunk planning ------------------------------------------------------------

def _onto_grid(chunks, n, grid, reverse):
    """The chunk sizes along an axis with each boundary moved to the nearest
    grid point (counted from the far end for a reverse scan)."""
    if grid <= 1 or len(chunks) <= 1:
        return tuple(chunks)
    cuts = set()
    for c in itertools.accumulate(chunks[:-1]):
        u = n - c if reverse else c
        u = int(round(u / grid)) * grid
        c = n - u if reverse else u
        if 0 < c < n:
            cuts.add(c)
    bounds = [0] + sorted(cuts) + [n]
    return tuple(b - a for a, b in zip(bounds, bounds[1:]))


def _no_ones(chunks):
    """Chunk sizes without a chunk of 1 (merged into a neighbour) when the
    axis is longer than 1."""
    out = []
    for c in chunks:
        if out and (c == 1 or out[-1] == 1):
            out[-1] += c
        else:
            out.append(c)
    if len(out) > 1 and out[-1] == 1:
        out[-2] += out.pop()
    return tuple(out)


def _reduce_plan_ok(shape, axes, block, dt):
    """Whether a block of the kept axes (reduced axes whole) gets the plan of
    the whole call for each of its outputs (src/reduce.c): the same grouping
    of reduced axes, the same columns class (inner >= 16 or the same inner)
    and the same chunks of the reduced extent."""
    def plan(sh):
        groups = []
        for k, d in enumerate(sh):
            if d == 1:
                continue
            red = k in axes
            if groups and groups[-1][0] == red:
                groups[-1][1] *= d
            else:
                groups.append([red, d])
        reds = [g for g in groups if g[0]]
        if len(reds) != 1:  # kept axes may change only before the first reduced group
            first = groups.index(reds[0]) if reds else len(groups)
            return ("groups", tuple((g[0], g[1] if g[0] or i > first else 0)
                                    for i, g in enumerate(groups)))
        q = groups.index(reds[0])
        inner = math.prod(g[1] for g in groups[q + 1:])
        outs = math.prod(g[1] for g in groups if not g[0])
        n = reds[0][1]
        chunk = _chunk_rows(outs, inner * dt.itemsize, dt.kind == "f")
        return ("one", n, inner if inner < _LANES else _LANES, chunk if chunk and n > chunk else 0)
    return plan(shape) == plan(block)


def _kept_blocks_ok(x, axes, dt):
    """Whether every block of x's kept axes, its reduced axes whole, keeps the
    whole call's plan (_reduce_plan_ok)."""
    return all(_reduce_plan_ok(x.shape, axes, b, dt)
               for b in itertools.product(*((n,) if k in axes else set(c)
                                            for k, (n, c) in enumerate(zip(x.shape, x.chunks)))))


def _isa():
    return _core.isa()


def _grid(desc, op):
    try:
        cut, grid = _core.shard_grid(desc)
    except ValueError:
        return None, 0
    if op in (_ops.OP_LOGCUMSUMEXP, _ops.OP_REDUCE_LOGSUMEXP) and _core.isa() == "scalar":
        grid = 0  # the scalar oracle's log-space shards are within the bound only
    return cut, grid


def _array(name, dsk, deps, chunks, dt):
    graph = HighLevelGraph.from_collections(name, dsk, dependencies=deps)
    return da.Array(graph, name, chunks, dtype=dt, meta=np.empty((0,) * len(chunks), dt))


# ---- scans ---------------------------------------------------------------------

def _scan(op, x, axis, dtype, exclusive, reverse, threads, what):
    x = da.asarray(x)
    if axis is None or x.ndim == 0:
        if axis is not None:
            _ops.norm_axis(axis, 1, what)
        x = x.reshape(-1) if x.ndim != 1 else x
        ax = 0
    else:
        ax = _ops.norm_axis(axis, x.ndim, what)
    if op == _ops.OP_CUMSUM:
        dt = _ops.sum_dtype(x.dtype, dtype, what)
    else:
        dt = _ops.lse_dtype(x.dtype, dtype, what)
    if x.dtype.hasobject:
        raise TypeError(f"{what}: dtype {x.dtype} (object) is not supported")
    n_threads = _ops._nthreads(1 if threads is None else threads)
    if dt.kind == "b":  # a logical-or scan (see axial.cumsum)
        y = _scan(op, x.astype(bool).astype(np.int64), ax, np.int64, exclusive, reverse,
                  n_threads, what)
        return y != 0
    x = x.astype(dt)
    code = _ops._CODES[dt]
    flags = (_ops.EXCLUSIVE if exclusive else 0) | (_ops.REVERSE if reverse else 0)
    isa = _isa()
    n = x.shape[ax]
    _, grid = _grid((op, code, x.shape, (ax,), flags), op)
    trailing = math.prod(x.shape[ax + 1:])
    if trailing > 1:
        # columns: the blocks' columns must stay columns (no block of width 1)
        last = max(k for k in range(ax + 1, x.ndim) if x.shape[k] > 1)
        chunks = _no_ones(x.chunks[last])
        if chunks != x.chunks[last]:
            x = x.rechunk({last: chunks})
    if n == 0 or x.numblocks[ax] == 1:
        return da.map_blocks(functools.partial(_t_scan_block, isa, op, code, dt, ax, flags,
                                               n_threads),
                             x, dtype=dt, meta=np.empty((0,) * x.ndim, dt), token="axial-scan")
    if grid == 0 or _onto_grid(x.chunks[ax], n, grid, reverse) != x.chunks[ax]:
        # a stream gives one call's bits for any cut
        return _stream_chain(x, op, code, dt, ax, flags, reverse, isa, n_threads)
    return _shard_scan(x, op, code, dt, ax, flags, reverse, isa)


def _block_shapes(x, ax):
    """For every block index of the axes other than ax: the block's shape with
    ax whole (the shards' tensor)."""
    others = [k for k in range(x.ndim) if k != ax]
    for idx in itertools.product(*(range(x.numblocks[k]) for k in others)):
        shape = list(x.shape)
        for k, i in zip(others, idx):
            shape[k] = x.chunks[k][i]
        yield idx, tuple(shape)


def _full_index(ax, idx, j):
    full = list(idx)
    full.insert(ax, j)
    return tuple(full)


def _shard_scan(x, op, code, dt, ax, flags, reverse, isa):
    token = tokenize(x, op, code, ax, flags, isa)
    sname, cname, name = "axial-summary-" + token, "axial-carry-" + token, "axial-scan-" + token
    starts = [0] + list(itertools.accumulate(x.chunks[ax]))
    m = x.numblocks[ax]
    order = list(range(m))[::-1] if reverse else list(range(m))
    dsk = {}
    for idx, shape in _block_shapes(x, ax):
        desc = (op, code, shape, (ax,), flags)
        for pos, j in enumerate(order):
            key = (x.name,) + _full_index(ax, idx, j)
            start, length = starts[j], x.chunks[ax][j]
            if pos + 1 < m:
                dsk[(sname,) + idx + (pos,)] = (_t_summarize, isa, desc, key, start, length)
            if pos == 0:
                carry = None
            elif pos == 1:
                carry = (sname,) + idx + (0,)
            else:
                dsk[(cname,) + idx + (pos,)] = (_t_combine, carry, (sname,) + idx + (pos - 1,))
                carry = (cname,) + idx + (pos,)
            dsk[(name,) + _full_index(ax, idx, j)] = (_t_scan, isa, desc, dt, key, start,
                                                      length, carry)
    return _array(name, dsk, [x], x.chunks, dt)


def _stream_chain(x, op, code, dt, ax, flags, reverse, isa, threads):
    token = tokenize(x, op, code, ax, flags, isa, threads)
    pname, name = "axial-stream-" + token, "axial-scan-" + token
    m = x.numblocks[ax]
    order = list(range(m))[::-1] if reverse else list(range(m))
    dsk = {}
    for idx, _ in _block_shapes(x, ax):
        state = None
        for j in order:
            full = _full_index(ax, idx, j)
            dsk[(pname,) + full] = (_t_stream, isa, op, code, dt, ax, flags, (x.name,) + full,
                                    state, threads)
            dsk[(name,) + full] = (_t_first, (pname,) + full)
            state = (_t_second, (pname,) + full)
    return _array(name, dsk, [x], x.chunks, dt)


def cumsum(x, axis=None, dtype=None, *, exclusive=False, reverse=False, threads=None):
    """axial.cumsum of a dask array, lazily: the bits of one call for any chunking."""
    return _scan(_ops.OP_CUMSUM, x, axis, dtype, exclusive, reverse, threads, "cumsum")


def logcumsumexp(x, axis=None, dtype=None, *, exclusive=False, reverse=False, threads=None):
    """axial.logcumsumexp of a dask array, lazily: the bits of one call for any chunking."""
    return _scan(_ops.OP_LOGCUMSUMEXP, x, axis, dtype, exclusive, reverse, threads,
                 "logcumsumexp")


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False, threads=None):
    """axial.cumulative_sum of a dask array (axis required above 1-D)."""
    x, ax = _ops.cumulative_axis(da.asarray(x), axis)
    if not include_initial:
        return cumsum(x, ax, dtype, threads=threads)
    dt = _ops.sum_dtype(x.dtype, dtype, "cumulative_sum")
    return cumsum(da.pad(x.astype(dt), _ops.initial_pad(x.ndim, ax)), ax, dt, exclusive=True,
                  threads=threads)


# ---- reductions ----------------------------------------------------------------

def _reduce(op, x, axis, dtype, keepdims, threads, what):
    x = da.asarray(x)
    if x.dtype.hasobject:
        raise TypeError(f"{what}: dtype {x.dtype} (object) is not supported")
    axes = _ops.norm_axes(axis, x.ndim, what)
    if op == _ops.OP_REDUCE_SUM:
        dt = _ops.sum_dtype(x.dtype, dtype, what)
    else:
        dt = _ops.lse_dtype(x.dtype, dtype, what)
    n_threads = _ops._nthreads(1 if threads is None else threads)
    if dt.kind == "b":
        y = _reduce(op, x.astype(bool).astype(np.int64), axes, np.int64, keepdims, n_threads,
                    what)
        return y != 0
    x = x.astype(dt)
    code = _ops._CODES[dt]
    flags = _ops.KEEP_DIMS if keepdims else 0
    isa = _isa()
    cut, grid = _grid((op, code, x.shape, axes, flags), op)
    kept = [k for k in range(x.ndim) if k not in axes]
    if (dt.kind == "f" and len(axes) == 1 and x.numblocks[axes[0]] > 1 and
            (grid == 0 or _onto_grid(x.chunks[axes[0]], x.shape[axes[0]], grid, False) !=
             x.chunks[axes[0]])):
        # a stream gives one call's bits for any cut: no rechunk of the axis
        if not _kept_blocks_ok(x, axes, dt):
            x = x.rechunk({k: -1 for k in kept})
        return _sum_chain(x, op, code, dt, axes[0], flags, keepdims, isa, n_threads)
    whole = {k: -1 for k in axes if k != cut or grid == 0}
    if grid > 0 and dt.kind == "f" and not _kept_blocks_ok(x, axes, dt):
        whole.update({k: -1 for k in kept})
    if any(x.numblocks[k] > 1 for k in whole):
        x = x.rechunk(whole)
    if grid > 0 and cut is not None and x.numblocks[cut] > 1:
        chunks = _onto_grid(x.chunks[cut], x.shape[cut], grid, False)
        if chunks != x.chunks[cut]:
            x = x.rechunk({cut: chunks})
        return _shard_reduce(x, op, code, dt, axes, flags, keepdims, cut, isa)
    if dt.kind == "f" and len(kept) > 0:
        # reduced axes whole: split the kept axes only where each block keeps the
        # plan (each column's bits are its own, wherever it sits in a vector)
        if not _kept_blocks_ok(x, axes, dt):
            x = x.rechunk({k: -1 for k in kept})
    out_chunks = tuple((1,) if k in axes else x.chunks[k] for k in range(x.ndim))
    if not keepdims:
        out_chunks = tuple(c for k, c in enumerate(out_chunks) if k not in axes)
    token = tokenize(x, op, code, axes, flags, isa, n_threads)
    name = "axial-reduce-" + token
    dsk = {}
    kidx = [range(x.numblocks[k]) for k in kept]
    for idx in itertools.product(*kidx):
        full = [0] * x.ndim
        shape = []
        for k, i in zip(kept, idx):
            full[k] = i
        for k in range(x.ndim):
            if k in axes:
                if keepdims:
                    shape.append(1)
            else:
                shape.append(x.chunks[k][full[k]])
        okey = (name,) + (tuple(full) if keepdims else idx)
        dsk[okey] = (_t_reduce_block, isa, op, code, dt, axes, flags, tuple(shape),
                     (x.name,) + tuple(full), n_threads)
    return _array(name, dsk, [x], out_chunks, dt)


def _shard_reduce(x, op, code, dt, axes, flags, keepdims, cut, isa):
    token = tokenize(x, op, code, axes, flags, isa, cut)
    sname, name = "axial-summary-" + token, "axial-reduce-" + token
    # the summaries: a blockwise layer, which dask fuses with x's own
    summ = x.map_blocks(_t_summarize_block, isa, op, code, x.shape, axes, flags, cut,
                        name=sname, dtype=object, meta=np.empty((0,) * x.ndim, object))
    kept = [k for k in range(x.ndim) if k not in axes]
    m = x.numblocks[cut]
    dsk = {}
    kidx = [range(x.numblocks[k]) for k in kept]
    for idx in itertools.product(*kidx):
        full = [0] * x.ndim
        for k, i in zip(kept, idx):
            full[k] = i
        shape = [x.chunks[k][full[k]] if k in kept else x.shape[k] for k in range(x.ndim)]
        desc = (op, code, tuple(shape), axes, flags)
        level = []
        for j in range(m):
            full[cut] = j
            level.append((sname,) + tuple(full))
        depth = 0
        while len(level) > _FAN_IN:  # neighbours in order, _FAN_IN at a time: a tree
            depth += 1
            nxt = []
            for i in range(0, len(level), _FAN_IN):
                key = ("axial-combine-" + token,) + tuple(idx) + (depth, i // _FAN_IN)
                dsk[key] = (_t_combine,) + tuple(level[i:i + _FAN_IN])
                nxt.append(key)
            level = nxt
        out_shape = []
        out_idx = []
        for k in range(x.ndim):
            if k in axes:
                if keepdims:
                    out_shape.append(1)
                    out_idx.append(0)
            else:
                out_shape.append(shape[k])
                out_idx.append(full[k])
        # the last level's summaries combined in the task that finishes
        dsk[(name,) + tuple(out_idx)] = (_t_finish, isa, desc, dt, tuple(out_shape)) + \
            tuple(level)
    out_chunks = tuple((1,) if k in axes else x.chunks[k] for k in range(x.ndim)
                       if keepdims or k not in axes)
    return _array(name, dsk, [summ], out_chunks, dt)


def _sum_chain(x, op, code, dt, ax, flags, keepdims, isa, threads):
    """Each block of the kept axes a chain of the reduction's streams along
    ax, its state passing from chunk to chunk; the blocks run in parallel."""
    token = tokenize(x, op, code, ax, flags, isa, threads)
    pname, name = "axial-sum-stream-" + token, "axial-reduce-" + token
    dsk = {}
    for idx, shape in _block_shapes(x, ax):
        state, last = None, x.numblocks[ax] - 1
        out_shape = tuple(1 if k == ax else d for k, d in enumerate(shape)
                          if k != ax or keepdims)
        for j in range(last + 1):
            full = _full_index(ax, idx, j)
            key = (name,) + (_full_index(ax, idx, 0) if keepdims else idx) if j == last else \
                (pname,) + full
            dsk[key] = (_t_sum_push, isa, op, code, ax, flags, (x.name,) + full, state, threads,
                        (dt, out_shape) if j == last else None)
            state = key
    out_chunks = tuple((1,) if k == ax else x.chunks[k] for k in range(x.ndim)
                       if keepdims or k != ax)
    return _array(name, dsk, [x], out_chunks, dt)


def sum(x, axis=None, dtype=None, keepdims=False, *, threads=None):  # noqa: A001
    """axial.sum of a dask array, lazily: the bits of one call for any chunking."""
    return _reduce(_ops.OP_REDUCE_SUM, x, axis, dtype, keepdims, threads, "sum")


def logsumexp(x, axis=None, keepdims=False, *, dtype=None, threads=None):
    """axial.logsumexp of a dask array, lazily: the bits of one call for any chunking."""
    return _reduce(_ops.OP_REDUCE_LOGSUMEXP, x, axis, dtype, keepdims, threads, "logsumexp")


def roll(x, shift, axis=None):
    """dask's own roll: it moves bytes and does no arithmetic, so any chunking
    gives numpy's (and axial's) result."""
    return da.roll(da.asarray(x), shift, axis)
