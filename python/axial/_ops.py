# SPDX-License-Identifier: MIT
"""numpy's semantics over axial's C calls (axial._core).

Every function checks all of its arguments (axes, dtypes, out) before it
computes anything, computes into a fresh array or straight into a suitable
``out``, and copies into any other ``out`` only once the result exists: bad
input never writes into ``out``.
"""
import operator
import os

import numpy as np
from numpy.exceptions import AxisError

from . import _core

try:  # optional: bfloat16 arrays
    import ml_dtypes as _ml_dtypes

    _BF16 = np.dtype(_ml_dtypes.bfloat16)
except ImportError:  # pragma: no cover - depends on the environment
    _BF16 = None

# axial_dtype codes (include/axial.h).
_CODES = {
    np.dtype(np.float32): 1,
    np.dtype(np.float64): 2,
    np.dtype(np.float16): 3,
    np.dtype(np.int8): 5,
    np.dtype(np.uint8): 6,
    np.dtype(np.int16): 7,
    np.dtype(np.uint16): 8,
    np.dtype(np.int32): 9,
    np.dtype(np.uint32): 10,
    np.dtype(np.int64): 11,
    np.dtype(np.uint64): 12,
    np.dtype(np.bool_): 13,
}
if _BF16 is not None:
    _CODES[_BF16] = 4
_FLOATS = {1, 2, 3, 4}
_U16 = np.dtype(np.uint16)

OP_CUMSUM, OP_LOGCUMSUMEXP, OP_REDUCE_SUM, OP_REDUCE_LOGSUMEXP = 1, 2, 3, 4
EXCLUSIVE, REVERSE = 1, 2
KEEP_DIMS, EMPTY_AXES_ALL = 1, 2

_I64, _U64, _F64 = np.dtype(np.int64), np.dtype(np.uint64), np.dtype(np.float64)


def _default_threads():
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


_threads = _default_threads()


def set_num_threads(n):
    """Run large calls on ``n`` threads of axial's pool (1: the calling thread).

    The results never depend on ``n``: every call is split by its shape alone.
    """
    n = operator.index(n)
    if n < 1:
        raise ValueError(f"set_num_threads({n}): the count must be at least 1")
    global _threads
    _threads = n


def get_num_threads():
    """The thread count of set_num_threads (default: the CPUs this process may use)."""
    return _threads


def _nthreads(threads):
    if threads is None:
        return _threads
    if type(threads) is int and threads >= 1:
        return threads
    n = operator.index(threads)
    if n < 1:
        raise ValueError(f"threads={n}: the count must be at least 1")
    return n


def raw(a):
    """a, with bfloat16 as uint16 (ml_dtypes' bfloat16 has no buffer export)."""
    return a.view(_U16) if a.dtype is _BF16 else a


def code_of(dt, what):
    c = _CODES.get(dt)
    if c is None:
        raise TypeError(f"{what}: dtype {dt} is not supported (axial takes bool, the integer "
                        f"types, float16, bfloat16, float32 and float64)")
    return c


def _per_dtype(resolve):
    """resolve(dt, dtype, what), remembered per input dtype when dtype is None."""
    cache = {}

    def get(dt, dtype, what):
        if dtype is not None:
            return resolve(dt, dtype, what)
        r = cache.get(dt)
        if r is None:
            r = cache[dt] = resolve(dt, None, what)
        return r
    get.__doc__ = resolve.__doc__
    return get


@_per_dtype
def sum_dtype(dt, dtype, what):
    """numpy's result dtype of sum/cumsum: small integers and bool widen to the
    platform integer (int64 / uint64 on the platforms axial runs on)."""
    if dtype is not None:
        dt = np.dtype(dtype)
        if dt.kind == "b":
            return dt
        code_of(dt, what)
        return dt
    k = dt.kind
    if k == "b" or (k == "i" and dt.itemsize < 8):
        return _I64
    if k == "u" and dt.itemsize < 8:
        return _U64
    if k in "iuf" and dt in _CODES or dt == _BF16:
        return dt
    code_of(dt, what)  # raises
    return dt


@_per_dtype
def lse_dtype(dt, dtype, what):
    """The float type of a log-space op: the input's, float64 for integers and
    bool (as scipy.special.logsumexp), or ``dtype``."""
    if dtype is not None:
        dt = np.dtype(dtype)
        if code_of(dt, what) not in _FLOATS:
            raise TypeError(f"{what}: dtype {dt} is not a float type (float16, bfloat16, "
                            f"float32 or float64)")
        return dt
    if dt.kind in "biu" and not dt.hasobject:
        return _F64
    if dt in _CODES and _CODES[dt] in _FLOATS:
        return dt
    raise TypeError(f"{what}: dtype {dt} is not supported (axial's log-space ops take float16, "
                    f"bfloat16, float32 and float64; integers and bool compute in float64)")


def as_input(x, what, native=True):
    """x as an array (byte-swapped data in native order, unless only moved)."""
    if type(x) is not np.ndarray and isinstance(x, np.ma.MaskedArray):
        raise TypeError(f"{what}: a masked array (numpy.ma.MaskedArray) is not supported: its "
                        "mask would be dropped; use numpy.ma's function, or x.filled(...) first")
    a = x if type(x) is np.ndarray else np.asarray(x)
    dt = a.dtype
    if a.ndim > 16:
        raise ValueError(f"{what}: {a.ndim} dimensions; axial takes at most 16 (the C "
                         "library's AXIAL_MAX_RANK)")
    if dt in _CODES:  # the common case: a native type axial takes
        return a
    if dt.hasobject:
        raise TypeError(f"{what}: dtype {dt} (object) is not supported")
    if native and not dt.isnative:
        a = a.astype(dt.newbyteorder("="))
    return a


def norm_axis(axis, ndim, what, allow_bool=False):
    """An axis as numpy takes it: an integer (bool only where allow_bool, as
    numpy.roll takes it), in [-ndim, ndim)."""
    if type(axis) is int and -ndim <= axis < ndim:
        return axis + ndim if axis < 0 else axis
    if isinstance(axis, (bool, np.bool_)):
        if not allow_bool:
            raise TypeError(f"{what}: axis {axis!r} is a bool; an integer is required")
        axis = int(axis)
    try:
        ax = operator.index(axis)
    except TypeError:
        raise TypeError(f"{what}: axis {axis!r} is not an integer") from None
    if ax < -ndim or ax >= ndim:
        raise AxisError(ax, ndim)
    return ax + ndim if ax < 0 else ax


def norm_axes(axis, ndim, what):
    """axis None / int / tuple -> a sorted tuple of distinct non-negative axes
    (numpy's reductions: a list is refused; a 0-d input takes the integer 0
    or -1, reducing nothing, but no tuple but ())."""
    if axis is None:
        return tuple(range(ndim))
    if type(axis) is int and -ndim <= axis < ndim:
        return (axis + ndim if axis < 0 else axis,)
    if isinstance(axis, list):
        raise TypeError(f"{what}: axis {axis!r} is a list; an integer or a tuple of integers "
                        "is required")
    if ndim == 0 and not isinstance(axis, tuple):
        try:
            norm_axis(axis, 1, what)  # the integer 0 or -1
        except AxisError:
            raise AxisError(operator.index(axis), 0) from None
        return ()
    axes = [norm_axis(a, ndim, what) for a in (axis if isinstance(axis, tuple) else (axis,))]
    if len(set(axes)) != len(axes):
        raise ValueError(f"{what}: duplicate value in 'axis' {axis!r}")
    return tuple(sorted(axes))


def check_out(out, shape, what):
    """Checks ``out`` (before anything is computed); returns it, or None."""
    if out is None:
        return None
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError(f"{what}: out must be one array, got a tuple of {len(out)}")
        out = out[0]
    if not isinstance(out, np.ndarray):
        raise TypeError(f"{what}: out must be a numpy.ndarray, got {type(out).__name__}")
    if out.shape != tuple(shape):
        raise ValueError(f"{what}: out has shape {out.shape}, the result has shape {tuple(shape)}")
    if not out.flags.writeable:
        raise ValueError(f"{what}: out (shape {out.shape}, dtype {out.dtype}) is read-only")
    return out


def target(out, shape, dt, src):
    """Where to compute: ``out`` itself when it is C-contiguous of dtype dt and
    shares no memory with the input src, else a new array (numpy's results
    for an ``out`` that overlaps the input)."""
    if out is not None and out.dtype == dt and out.flags.c_contiguous and \
            not np.may_share_memory(out, src):
        return out
    return np.empty(shape, dt)


def deliver(res, out):
    if out is None:
        return res
    if res is not out:
        np.copyto(out, res, casting="unsafe")
    return out


def contiguous(a, dt):
    """a as a C-contiguous array of dtype dt (a copy only when needed)."""
    if a.dtype is not dt and a.dtype != dt:
        return np.ascontiguousarray(a.astype(dt))
    return a if a.flags.c_contiguous else np.ascontiguousarray(a)


# ---- other array types -------------------------------------------------------

def _is_dask(x):
    return hasattr(x, "__dask_graph__") and hasattr(x, "chunks")


def _on_dask(name, x, out, *args, **kw):
    """A dask array, as numpy hands it to dask: lazily, on axial.dask."""
    if out is not None:
        raise TypeError(f"{name}: out= is not taken with a dask array (the result is lazy)")
    from . import dask as ad
    return getattr(ad, name)(x, *args, **kw)


def _numpy_own(x):
    """Whether x is an ndarray subclass whose type changes what numpy's
    function does with it (its own sum, cumsum, ravel, reshape or indexing, as
    numpy.matrix and unit-carrying arrays have): numpy's function runs then."""
    if type(x) is np.ndarray or not isinstance(x, np.ndarray):
        return False
    mro = type(x).__mro__
    return any(k in vars(c) for c in mro[:mro.index(np.ndarray)]
               for k in ("sum", "cumsum", "ravel", "reshape", "__getitem__"))


def _other(x, out, numpy_fn, run):
    """An input that is neither an ndarray nor a dask array (the callers send
    those to _on_dask), as numpy treats it (docs/PYTHON.md): a subclass whose
    type changes numpy's function (numpy_fn, where numpy has one); another
    subclass computed on its plain view and returned as that subclass (its
    __array_wrap__); anything else through run."""
    if numpy_fn is not None and _numpy_own(x):
        return numpy_fn()
    if isinstance(x, np.ndarray) and not isinstance(x, np.ma.MaskedArray):
        r = run(x.view(np.ndarray))
        return r if out is not None else x.__array_wrap__(np.asarray(r), None, False)
    return run(x)


def _out_dtype(op, src, dtype, out):
    """numpy's computation type: dtype, else, where out is given, the type
    numpy's ufunc loops in: the input's and out's promoted (int64 and uint64:
    float64), when axial computes in it."""
    if dtype is not None or out is None:
        return dtype
    o = out[0] if isinstance(out, tuple) and len(out) == 1 else out
    try:
        dt = np.result_type(src, o.dtype)
    except (AttributeError, TypeError):
        return None
    if not (dt in _CODES or dt == np.bool_):
        return None
    if op in (OP_LOGCUMSUMEXP, OP_REDUCE_LOGSUMEXP) and _CODES.get(dt) not in _FLOATS:
        return None
    return dt


_COMPLEX_PART = {np.dtype(np.complex64): np.dtype(np.float32),
                 np.dtype(np.complex128): np.dtype(np.float64)}


def _complex(a, dtype):
    """Whether a sum or scan is complex: of a complex input, or in a complex dtype."""
    return a.dtype.kind == "c" or (dtype is not None and np.dtype(dtype).kind == "c")


def _by_parts(a, dtype, out, what, run):
    """A complex sum or scan (numpy adds complex numbers part by part): the
    real and the imaginary parts, each a float sum or scan of axial's, into
    one complex result of the input's type (or dtype's); in a real dtype,
    the input cast to it as numpy casts it."""
    ct = np.dtype(dtype) if dtype is not None else a.dtype
    if ct not in _COMPLEX_PART:  # a real dtype: numpy's cast (ComplexWarning), then its sum
        if ct.kind != "b":
            code_of(ct, what)  # (raises for a type axial lacks)
        y = np.asarray(run(a.astype(ct), ct))
    else:
        a = a.astype(ct, copy=False)
        ft = _COMPLEX_PART[ct]
        re, im = run(a.real.copy(), ft), run(a.imag.copy(), ft)  # (0-d stays 0-d)
        y = np.empty(np.shape(re), ct)
        y.real, y.imag = re, im
    if out is not None:
        return deliver(y, check_out(out, y.shape, what))
    return y[()] if y.ndim == 0 else y


# ---- CumSum / LogCumSumExp ---------------------------------------------------

def _scan(op, x, axis, dtype, out, exclusive, reverse, what, threads=None):
    a = as_input(x, what)
    if op == OP_CUMSUM and _complex(a, dtype):
        return _by_parts(a, dtype, out, what, lambda p, ft: _scan(
            op, p, axis, ft, None, exclusive, reverse, what, threads))
    if axis is None or a.ndim == 0:
        if axis is not None:
            norm_axis(axis, 1, what)
        a = a.reshape(-1)
        ax = 0
    else:
        ax = norm_axis(axis, a.ndim, what)
    dtype = _out_dtype(op, a.dtype, dtype, out) if out is not None else dtype
    if op == OP_CUMSUM:
        dt = sum_dtype(a.dtype, dtype, what)
    else:
        dt = lse_dtype(a.dtype, dtype, what)
    out = check_out(out, a.shape, what)
    n = _nthreads(threads)
    flags = (EXCLUSIVE if exclusive else 0) | (REVERSE if reverse else 0)
    if dt.kind == "b":  # a logical-or scan: the int64 scan of 0/1 is never 0 once a 1 is seen
        y = np.empty(a.shape, _I64)
        _core.scan(op, 11, contiguous(a.astype(bool, copy=False), _I64), y, a.shape, ax, flags, n)
        return deliver(y != 0, out)
    src = contiguous(a, dt)
    y = target(out, a.shape, dt, src)
    _core.scan(op, _CODES[dt], raw(src), raw(y), a.shape, ax, flags, n)
    return deliver(y, out)


def cumsum(x, axis=None, dtype=None, out=None, *, exclusive=False, reverse=False):
    """numpy.cumsum, on axial's kernels; ``exclusive`` leaves each element out
    of its own output, ``reverse`` scans from the far end."""
    if type(x) is not np.ndarray:
        if _is_dask(x):
            return _on_dask("cumsum", x, out, axis, dtype, exclusive=exclusive, reverse=reverse)
        return _other(x, out, None if exclusive or reverse else
                      lambda: np.cumsum(x, axis, dtype, out),
                      lambda a: _scan(OP_CUMSUM, a, axis, dtype, out, exclusive, reverse,
                                      "cumsum"))
    return _scan(OP_CUMSUM, x, axis, dtype, out, exclusive, reverse, "cumsum")


def cumulative_axis(a, axis, what="cumulative_sum"):
    """The array API's axis of cumulative_sum (required above 1-D) for a numpy
    or dask array a: (a, with a 0-d one as 1-D, and the axis)."""
    if axis is None:
        if a.ndim > 1:
            raise ValueError(f"{what}: axis is required for an array of {a.ndim} dimensions")
        axis = 0
    if a.ndim == 0:
        a = a.reshape(1)
    return a, norm_axis(axis, a.ndim, what)


def initial_pad(ndim, ax):
    """The pad widths that add one element at the end of axis ax."""
    pad = [(0, 0)] * ndim
    pad[ax] = (0, 1)
    return pad


def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """numpy.cumulative_sum (the array API's): ``axis`` is required above 1-D;
    ``include_initial`` puts the empty sum (0) first."""
    kw = {"axis": axis, "dtype": dtype, "out": out, "include_initial": include_initial}
    if type(x) is not np.ndarray:
        if _is_dask(x):
            return _on_dask("cumulative_sum", x, kw.pop("out"), **kw)
        if include_initial and isinstance(x, np.ndarray) and not _numpy_own(x):
            x = x.view(np.ndarray)  # (numpy's result: a plain array)
        return _other(x, out, lambda: np.cumulative_sum(x, **kw),
                      lambda a: cumulative_sum(as_input(a, "cumulative_sum"), **kw))
    a, ax = cumulative_axis(as_input(x, "cumulative_sum"), axis)
    if not include_initial:
        return _scan(OP_CUMSUM, a, ax, dtype, out, False, False, "cumulative_sum")
    shape = list(a.shape)
    shape[ax] += 1
    if dtype is None and out is not None:  # (numpy's loop type: the input's and out's)
        dtype = _out_dtype(OP_CUMSUM, a.dtype, None, out)
    dt = (np.dtype(dtype) if dtype is not None else a.dtype) if _complex(a, dtype) else \
        sum_dtype(a.dtype, dtype, "cumulative_sum")  # (complex: checked by parts)
    out = check_out(out, shape, "cumulative_sum")
    # the exclusive scan of a with one more element: its last output is the total
    return _scan(OP_CUMSUM, np.pad(a.astype(dt, copy=False), initial_pad(a.ndim, ax)), ax, dt,
                 out, True, False, "cumulative_sum")


def logcumsumexp(x, axis=None, dtype=None, out=None, *, exclusive=False, reverse=False):
    """log(cumsum(exp(x))) without overflow, computed in the log semiring:
    ``y[j] = log(exp(x[0]) + ... + exp(x[j]))`` along the axis (None flattens)."""
    if type(x) is not np.ndarray:
        if _is_dask(x):
            return _on_dask("logcumsumexp", x, out, axis, dtype, exclusive=exclusive,
                            reverse=reverse)
        return _other(x, out, None, lambda a: _scan(OP_LOGCUMSUMEXP, a, axis, dtype, out,
                                                    exclusive, reverse, "logcumsumexp"))
    return _scan(OP_LOGCUMSUMEXP, x, axis, dtype, out, exclusive, reverse, "logcumsumexp")


# ---- ReduceSum / ReduceLogSumExp ---------------------------------------------

def _reduce(op, x, axis, dtype, out, keepdims, what, threads=None):
    a = as_input(x, what)
    if op == OP_REDUCE_SUM and _complex(a, dtype):
        return _by_parts(a, dtype, out, what, lambda p, ft: _reduce(
            op, p, axis, ft, None, keepdims, what, threads))
    axes = norm_axes(axis, a.ndim, what)
    dtype = _out_dtype(op, a.dtype, dtype, out) if out is not None else dtype
    if op == OP_REDUCE_SUM:
        dt = sum_dtype(a.dtype, dtype, what)
    else:
        dt = lse_dtype(a.dtype, dtype, what)
    if len(axes) == a.ndim:
        shape = (1,) * a.ndim if keepdims else ()
    elif keepdims:
        shape = tuple(1 if k in axes else d for k, d in enumerate(a.shape))
    else:
        shape = tuple(d for k, d in enumerate(a.shape) if k not in axes)
    out = check_out(out, shape, what)
    n = _nthreads(threads)
    flags = KEEP_DIMS if keepdims else 0
    if dt.kind == "b":  # logical or: the int64 sum of 0/1 values
        y = np.empty(shape, _I64)
        _core.reduce(op, 11, contiguous(a.astype(bool, copy=False), _I64), y, a.shape, axes, flags, n)
        y = y != 0
    else:
        src = contiguous(a, dt)
        y = target(out, shape, dt, src)
        _core.reduce(op, _CODES[dt], raw(src), raw(y), a.shape, axes, flags, n)
    if out is None and y.ndim == 0:
        return y[()]
    return deliver(y, out)


_NOVALUE = object()  # (numpy's own default for where= and initial=: not None)


def _sum_where(x, axis, dtype, out, keepdims, where, initial):
    """numpy.sum's where= (the elements left out add numpy's identity, +0) and
    initial= (added to each sum, cast to the computation type as numpy casts
    it), computed in numpy's type: dtype, else the input's and out's
    promoted type, else sum's default."""
    a = as_input(x, "sum")
    o = out[0] if isinstance(out, tuple) and len(out) == 1 else out
    if out is not None and not isinstance(o, np.ndarray):
        check_out(out, (), "sum")  # (raises: not one ndarray)
    if dtype is not None:
        dt = np.dtype(dtype)
    elif out is not None:
        dt = np.result_type(a.dtype, o.dtype)
    else:
        dt = a.dtype if a.dtype.kind == "c" else sum_dtype(a.dtype, None, "sum")
    if where is not _NOVALUE:
        a = np.where(np.broadcast_to(np.asarray(where, dtype=bool), a.shape), a,
                     np.zeros((), a.dtype))
    y = np.asarray(sum(a, axis, dt, None, keepdims))
    if initial is not _NOVALUE and initial is not None:
        if out is not None and o.dtype == np.bool_:
            initial = bool(initial)  # (numpy takes it as out's bool: 3 adds 1)
        y = np.add(y, np.array(initial, dtype=dt), dtype=dt)
    elif where is not _NOVALUE and dt.kind in "fc":  # (from numpy's identity: no -0.0)
        y = np.add(y, np.zeros((), dt), dtype=dt)
    if out is None:
        return y[()] if y.ndim == 0 else y
    out = check_out(out, y.shape, "sum")
    np.copyto(out, y, casting="unsafe")
    return out


def sum(x, axis=None, dtype=None, out=None, keepdims=False, *, where=_NOVALUE,  # noqa: A001
        initial=_NOVALUE):
    """numpy.sum, on axial's kernels (floats in the one summation order)."""
    if where is not _NOVALUE or initial is not _NOVALUE:
        return _sum_where(x, axis, dtype, out, keepdims, where, initial)
    if type(x) is not np.ndarray:
        if _is_dask(x):
            return _on_dask("sum", x, out, axis, dtype, keepdims)
        return _other(x, out, lambda: np.sum(x, axis, dtype, out, **({"keepdims": True}
                                                                    if keepdims else {})),
                      lambda a: _reduce(OP_REDUCE_SUM, a, axis, dtype, out, keepdims, "sum"))
    return _reduce(OP_REDUCE_SUM, x, axis, dtype, out, keepdims, "sum")


def logsumexp(x, axis=None, keepdims=False, *, dtype=None, out=None):
    """log(sum(exp(x))) over the axes without overflow (an empty set gives -inf)."""
    if type(x) is not np.ndarray:
        if _is_dask(x):
            return _on_dask("logsumexp", x, out, axis, keepdims, dtype=dtype)
        return _other(x, out, None, lambda a: _reduce(OP_REDUCE_LOGSUMEXP, a, axis, dtype, out,
                                                      keepdims, "logsumexp"))
    return _reduce(OP_REDUCE_LOGSUMEXP, x, axis, dtype, out, keepdims, "logsumexp")


# ---- Roll --------------------------------------------------------------------

_UINT_OF_SIZE = {1: np.dtype(np.uint8), 2: np.dtype(np.uint16), 4: np.dtype(np.uint32),
                 8: np.dtype(np.uint64)}


def roll(x, shift, axis=None, *, threads=None):
    """numpy.roll: elements that roll past the end come back at the start."""
    if type(x) is not np.ndarray:
        if _is_dask(x):
            return _on_dask("roll", x, None, shift, axis)
        if not isinstance(x, np.ndarray) or _numpy_own(x):
            return _other(x, None, lambda: np.roll(x, shift, axis),
                          lambda a: roll(np.asarray(a), shift, axis, threads=threads))
        return _other(x, None, None, lambda a: roll(a, shift, axis, threads=threads))
    a = as_input(x, "roll", native=False)
    if axis is None:
        return roll(a.reshape(-1), shift, 0, threads=threads).reshape(a.shape)
    try:
        b = np.broadcast(np.asarray(shift), np.asarray(axis))
    except ValueError:
        raise ValueError(f"roll: shift {shift!r} and axis {axis!r} have different counts") from None
    if b.nd > 1:
        raise ValueError(f"roll: shift {shift!r} and axis {axis!r} must be integers or 1-D "
                         f"sequences")
    shifts = {}
    for s, ax in b:
        ax = norm_axis(ax, a.ndim, "roll", allow_bool=True)
        shifts[ax] = shifts.get(ax, 0) + int(s)  # (numpy.roll's int(): 1.5 rolls by 1)
    if not shifts:
        return a.copy()
    src = np.ascontiguousarray(a)
    dt = src.dtype
    shape = src.shape
    if dt in _CODES and dt != _BF16:
        code, view = _CODES[dt], src
    elif dt.itemsize in _UINT_OF_SIZE:  # any other type moves as bytes of its size
        view = src.view(_UINT_OF_SIZE[dt.itemsize])
        code = _CODES[view.dtype]
    else:  # wider items: a trailing axis of bytes that does not roll
        view = src.reshape(src.shape + (1,)).view(np.uint8)
        code, shape = 6, view.shape
    y = np.empty(shape, view.dtype)
    axes = tuple(shifts)
    # shifts reduced modulo the length here: the C call takes int64 shifts
    sh = tuple(shifts[k] % a.shape[k] if a.shape[k] else 0 for k in axes)
    _core.roll(code, view, y, shape, sh, axes, _nthreads(threads))
    return y.view(dt).reshape(a.shape)


# ---- ISAs --------------------------------------------------------------------

def isa():
    """The name of the ISA this thread's next call runs on ('scalar', 'avx2', 'avx512', 'neon')."""
    return _core.isa()


def isas():
    """The ISAs this CPU and this build run, the scalar oracle first."""
    return _core.isas()


class use_isa:
    """Makes the ISA ``name`` the calling thread's: its calls, and the tasks
    they hand to axial's threads, run on it; other threads keep their own
    (the process's default unless they chose one).

    As a plain call it stays so on this thread; as a context manager the
    thread's choice before (or the default, the library's per-op choice
    included) is restored on exit::

        with axial.use_isa("scalar"):
            ref = axial.cumsum(x)    # the scalar oracle
    """

    def __init__(self, name):
        if not isinstance(name, str):
            raise TypeError(f"use_isa: the ISA must be a name, got {type(name).__name__}")
        self._prev = _core.isa_thread(name.strip().lower())

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        _core.isa_thread(self._prev)
        return False
