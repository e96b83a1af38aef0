# SPDX-License-Identifier: MIT
"""The Python package against numpy and a long double oracle (pytest)."""
import os
import pickle
import warnings
import zlib

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp
from numpy.exceptions import AxisError

import axial

try:
    import ml_dtypes

    BF16 = np.dtype(ml_dtypes.bfloat16)
except ImportError:  # the tests run with it installed; a user may not have it
    BF16 = None

SEED = int(os.environ.get("AXIAL_TEST_SEED", "20261201"))
INTS = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]
FLOATS = [np.float16, np.float32, np.float64] + ([BF16] if BF16 is not None else [])
SIMD = [i for i in axial.isas() if i != "scalar"]


def rng_for(*key):
    # crc32, not hash(): str hashes differ from process to process, and
    # AXIAL_TEST_SEED must replay a run
    return np.random.default_rng([SEED] + [zlib.crc32(str(k).encode()) for k in key])


def random_shape(rng, max_rank=4, max_size=6000):
    rank = int(rng.integers(1, max_rank + 1))
    shape = []
    for _ in range(rank):
        shape.append(int(rng.choice([1, 2, 3, 5, 16, 17, 33, 100, 129])))
    while np.prod(shape) > max_size:
        k = int(rng.integers(0, rank))
        shape[k] = max(1, shape[k] // 2)
    return tuple(shape)


def random_array(rng, shape, dt):
    dt = np.dtype(dt)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return rng.integers(info.min, info.max, size=shape, dtype=dt, endpoint=True)
    if dt.kind == "b":
        return rng.integers(0, 2, size=shape).astype(bool)
    return rng.standard_normal(shape).astype(dt)


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    return a.tobytes() == b.tobytes()


def ulp(v, dt):
    dt = np.dtype(dt)
    if dt == BF16:
        return np.abs(v.astype(np.float32)).astype(np.float64) * 2.0 ** -7 + 2.0 ** -133
    return np.spacing(np.abs(v).astype(dt)).astype(np.float64)


def unit_roundoff(dt):
    return 2.0 ** -53 if np.dtype(dt) == np.float64 else 2.0 ** -24


def check_sum_bound(y, x, axis_terms, dt, c=7):
    """|y - S| <= ulp(S) + (c + 1) * u * M, S and M in long double (docs/API.md section 7)."""
    S, M, n = axis_terms
    u = unit_roundoff(dt)
    extra = n * 2.0 ** -53 if np.dtype(dt) == np.float64 else 0
    bound = ulp(S.astype(np.float64), dt) + (1.5 * (c + 1) * u + extra) * M.astype(np.float64)
    err = np.abs(y.astype(np.longdouble) - S).astype(np.float64)
    bad = ~(err <= bound)
    assert not bad.any(), (f"{np.count_nonzero(bad)} outputs off the bound, worst "
                           f"{(err - bound).max():.3g} (dtype {np.dtype(dt)})")


# ---- integers: exactly numpy, dtype included ----------------------------------

@pytest.mark.parametrize("dt", INTS + [np.bool_])
def test_integers_equal_numpy(dt):
    rng = rng_for("int", dt)
    for _ in range(12):
        shape = random_shape(rng)
        x = random_array(rng, shape, dt)
        ax = int(rng.integers(-len(shape), len(shape)))
        assert same_bits(axial.cumsum(x, ax), np.cumsum(x, ax)), (shape, ax)
        assert same_bits(axial.cumsum(x), np.cumsum(x))
        assert same_bits(axial.cumulative_sum(x, axis=ax), np.cumulative_sum(x, axis=ax))
        assert same_bits(axial.cumulative_sum(x, axis=ax, include_initial=True),
                         np.cumulative_sum(x, axis=ax, include_initial=True))
        axes = tuple(int(a) for a in rng.permutation(len(shape))[:rng.integers(0, len(shape) + 1)])
        for keep in (False, True):
            assert same_bits(axial.sum(x, axes, keepdims=keep), np.sum(x, axes, keepdims=keep)), \
                (shape, axes)
        assert same_bits(axial.sum(x), np.sum(x))
        ref = np.cumsum(x, ax)
        assert same_bits(axial.cumsum(x, ax, exclusive=True), ref - x.astype(ref.dtype))
        assert same_bits(axial.cumsum(x, ax, reverse=True),
                         np.flip(np.cumsum(np.flip(x, ax), ax), ax))
        for dtype in (np.int8, np.uint32, np.int64, bool):
            assert same_bits(axial.cumsum(x, ax, dtype=dtype), np.cumsum(x, ax, dtype=dtype))
            assert same_bits(axial.sum(x, axes, dtype=dtype), np.sum(x, axes, dtype=dtype))


@pytest.mark.parametrize("dt", INTS + FLOATS + [np.bool_, np.complex128, "U3", "datetime64[s]"])
def test_roll_equals_numpy(dt):
    rng = rng_for("roll", dt)
    for _ in range(10):
        shape = random_shape(rng)
        x = random_array(rng, shape, np.int64).astype(dt) if np.dtype(dt).kind not in "biuf" \
            else random_array(rng, shape, dt)
        nax = int(rng.integers(1, len(shape) + 1))
        axes = tuple(int(a) for a in rng.integers(-len(shape), len(shape), nax))
        shifts = tuple(int(s) for s in rng.integers(-300, 300, nax))
        assert same_bits(axial.roll(x, shifts, axes), np.roll(x, shifts, axes))
        assert same_bits(axial.roll(x, shifts[0]), np.roll(x, shifts[0]))
        assert same_bits(axial.roll(x[..., ::2], shifts[0], -1), np.roll(x[..., ::2], shifts[0], -1))
        assert same_bits(axial.roll(x, shifts[0], ()), np.roll(x, shifts[0], ()))  # a copy


# ---- floats: within the bound of the long double sum ----------------------------

@pytest.mark.parametrize("dt", FLOATS)
def test_float_sums_within_bound(dt):
    rng = rng_for("float", dt)
    for _ in range(10):
        shape = random_shape(rng)
        x = random_array(rng, shape, dt)
        xl = x.astype(np.float32).astype(np.longdouble) if dt == BF16 else x.astype(np.longdouble)
        ax = int(rng.integers(0, len(shape)))
        y = axial.cumsum(x, ax)
        assert y.dtype == np.dtype(dt)
        n = shape[ax]
        check_sum_bound(y, x, (np.cumsum(xl, ax), np.cumsum(np.abs(xl), ax), n), dt)
        axes = tuple(sorted(set(int(a) for a in rng.integers(0, len(shape), 2))))
        s = axial.sum(x, axes)
        m = int(np.prod([shape[a] for a in axes]))
        check_sum_bound(np.asarray(s), x, (np.sum(xl, axes), np.sum(np.abs(xl), axes), m), dt)


def lse_oracle(xl, axis, scan):
    m = np.max(xl, axis=axis, keepdims=True) if xl.shape[axis] else 0
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(xl - m)
    s = np.cumsum(e, axis) if scan else np.sum(e, axis, keepdims=True)
    with np.errstate(divide="ignore"):
        y = np.log(s) + m
    return y if scan else np.squeeze(y, axis)


@pytest.mark.parametrize("dt", FLOATS)
def test_log_space_within_bound(dt):
    rng = rng_for("lse", dt)
    for _ in range(8):
        shape = random_shape(rng, max_size=3000)
        x = (random_array(rng, shape, np.float32) * 4).astype(dt)
        xl = x.astype(np.float32).astype(np.longdouble)
        ax = int(rng.integers(0, len(shape)))
        for scan in (True, False):
            y = (axial.logcumsumexp(x, ax) if scan else axial.logsumexp(x, ax)).astype(np.float64)
            ref = lse_oracle(xl, ax, scan)
            n = np.arange(1, shape[ax] + 1).reshape([-1 if k == ax else 1 for k in
                                                     range(len(shape))]) if scan else shape[ax]
            r = np.abs(ref).astype(np.float64)
            if np.dtype(dt) == np.float64:
                bound = 2.0 ** -53 * (4 * r + 4 * np.log(n) + 16 + n)
            else:
                bound = ulp(ref.astype(np.float64), dt) + 4 * 2.0 ** -24 * (r + np.log(n) + 4)
            err = np.abs(y - ref.astype(np.float64))
            assert (err <= bound).all(), (shape, ax, scan, float((err - bound).max()))


def test_float16_cumsum_does_not_stall():
    # numpy's float16 cumsum of ones stops at 2048; axial accumulates in float32
    y = axial.cumsum(np.ones(4096, np.float16))
    assert same_bits(y, np.arange(1, 4097, dtype=np.float32).astype(np.float16))


def test_float32_ones_end_exact():
    y = axial.cumsum(np.ones(1 << 25, np.float32))
    assert y[-1] == 1 << 25


# ---- the same bits for every ISA and thread count -------------------------------

def test_required_isas_are_available():
    # scripts/test.sh names every ISA of the CPU (scripts/cpu-isas.sh): the
    # package must offer each, or its tests below would quietly leave it out
    required = [i for i in os.environ.get("AXIAL_TEST_REQUIRE_ISA", "").split(",") if i]
    if not required:
        pytest.skip("AXIAL_TEST_REQUIRE_ISA is not set")
    missing = [i for i in required if i not in axial.isas()]
    assert not missing, f"required {missing} not among axial.isas() = {axial.isas()}"


@pytest.mark.parametrize("isa", SIMD)
def test_simd_isas_against_the_scalar_oracle(isa):
    rng = rng_for("isa", isa)
    x = rng.standard_normal((64, 3000)).astype(np.float32)
    with axial.use_isa("scalar"):
        assert axial.isa() == "scalar"
        ref = axial.cumsum(x, 1)
        ref_s = axial.sum(x, 0)
    with axial.use_isa(isa):
        assert axial.isa() == isa
        got, got_s = axial.cumsum(x, 1), axial.sum(x, 0)
    xl = x.astype(np.longdouble)
    check_sum_bound(got, x, (np.cumsum(xl, 1), np.cumsum(np.abs(xl), 1), 3000), np.float32)
    assert np.abs(got - ref).max() <= 1e-3 and np.abs(got_s - ref_s).max() <= 1e-3
    # every SIMD ISA gives the same bits
    for other in SIMD:
        with axial.use_isa(other):
            assert same_bits(axial.cumsum(x, 1), got) and same_bits(axial.sum(x, 0), got_s)


def test_use_isa_restores_and_refuses():
    from axial import _core
    before = axial.isa()
    with axial.use_isa("scalar"):
        assert axial.isa() == "scalar"
        with axial.use_isa(before):
            assert axial.isa() == before
        assert axial.isa() == "scalar"
    # the thread follows the process's default again, its per-op choice included
    assert axial.isa() == before and _core.isa_thread(-1) == -1
    for bad in (99, -2, 2**70, 1.5):
        with pytest.raises((ValueError, OverflowError), match="isa_thread|int"):
            _core.isa_thread(bad)
    with pytest.raises(ValueError, match="pentium"):
        axial.use_isa("pentium")
    if "neon" not in axial.isas():
        with pytest.raises(ValueError, match="not available"):
            axial.use_isa("neon")
    with pytest.raises(TypeError, match="name"):
        axial.use_isa(1)
    assert axial.isa() == before


def test_use_isa_belongs_to_the_thread():
    """Two threads in use_isa blocks at once: each runs on its own ISA (the
    bits of the process on it) and the other's choice never leaks in."""
    rng = rng_for("isa-thread")
    x = rng.standard_normal((8, 1 << 17)).astype(np.float32)  # 4 MiB: split on the pool
    nthreads = axial.get_num_threads()
    axial.set_num_threads(2)
    try:
        _each_thread_its_isa(x)
    finally:
        axial.set_num_threads(nthreads)


def _each_thread_its_isa(x):
    import threading
    want = {}
    for name in axial.isas():
        with axial.use_isa(name):
            want[name] = axial.cumsum(x, axis=1)
    before = axial.isa()
    names = axial.isas() * 2
    barrier = threading.Barrier(len(names))
    bad = []

    def run(name):
        with axial.use_isa(name):
            barrier.wait()
            for _ in range(3):
                got = axial.cumsum(x, axis=1)
                if axial.isa() != name or not same_bits(got, want[name]):
                    bad.append((name, axial.isa()))
        if axial.isa() != before:
            bad.append(("restored", axial.isa()))

    threads = [threading.Thread(target=run, args=(n,)) for n in names]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not bad and axial.isa() == before


def test_bits_across_thread_counts():
    rng = rng_for("threads")
    cases = [
        (lambda x: axial.cumsum(x), rng.standard_normal(1 << 20).astype(np.float32)),
        (lambda x: axial.cumsum(x, 0), rng.standard_normal((4096, 300)).astype(np.float32)),
        (lambda x: axial.sum(x), rng.standard_normal(1 << 21).astype(np.float32)),
        (lambda x: axial.sum(x, 0), rng.standard_normal((4096, 300)).astype(np.float64)),
        (lambda x: axial.sum(x, (0, 2)), rng.standard_normal((64, 300, 64)).astype(np.float32)),
        (lambda x: axial.logcumsumexp(x), rng.standard_normal(1 << 19).astype(np.float32)),
        (lambda x: axial.logsumexp(x, 1), rng.standard_normal((16, 1 << 16)).astype(np.float32)),
        (lambda x: axial.roll(x, 12345), rng.standard_normal(1 << 20).astype(np.float32)),
    ]
    before = axial.get_num_threads()
    try:
        for f, x in cases:
            axial.set_num_threads(1)
            ref = f(x)
            for n in (2, 3):
                axial.set_num_threads(n)
                assert axial.get_num_threads() == n
                assert same_bits(f(x), ref)
    finally:
        axial.set_num_threads(before)
    with pytest.raises(ValueError, match="0"):
        axial.set_num_threads(0)


# ---- numpy's semantics ------------------------------------------------------------

def test_numpy_semantics():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    assert same_bits(axial.cumsum(x, -1), np.cumsum(x, -1))
    assert same_bits(axial.cumsum(x), np.cumsum(x))
    assert same_bits(axial.sum(x, (0, -1)), np.sum(x, (0, -1)))
    assert same_bits(axial.sum(x, (), dtype=np.float64), np.sum(x, (), dtype=np.float64))
    s = axial.sum(x)
    assert isinstance(s, np.float32) and s == 276
    assert isinstance(axial.sum(x, 0), np.ndarray)
    assert same_bits(axial.sum(x, 1, keepdims=True), np.sum(x, 1, keepdims=True))
    assert same_bits(axial.cumsum([[1, 2], [3, 4]], 0), np.cumsum([[1, 2], [3, 4]], 0))
    assert same_bits(axial.cumsum(np.float32(5)), np.cumsum(np.float32(5)))
    assert same_bits(axial.sum(np.zeros((0, 3), np.float32), 0), np.zeros(3, np.float32))
    assert same_bits(axial.cumsum(np.zeros((0, 3), np.int8), 1), np.cumsum(np.zeros((0, 3), np.int8), 1))
    assert axial.logsumexp(np.zeros(0, np.float32)) == -np.inf
    t = x.transpose(2, 0, 1)[:, :, ::2]  # non-contiguous
    assert same_bits(axial.cumsum(t, 1), np.cumsum(t, 1))
    assert same_bits(axial.sum(t, 0), np.sum(t, 0))
    out = np.zeros((2, 3, 4), np.float64)
    r = axial.cumsum(x, 2, out=out)
    assert r is out and np.array_equal(out, np.cumsum(x, 2))
    out = np.zeros((3, 2), np.float32).T  # non-contiguous out
    assert axial.sum(x, 2, out=out) is out and np.array_equal(out, np.sum(x, 2))
    assert same_bits(axial.cumsum(x, 1, dtype=np.float64), np.cumsum(x.astype(np.float64), 1))
    assert axial.cumsum(np.ones(3, np.int32)).dtype == np.int64
    assert axial.sum(np.ones(3, np.uint8)).dtype == np.uint64
    assert same_bits(axial.logcumsumexp(np.zeros(3), exclusive=True, reverse=True),
                     np.array([np.log(2), 0, -np.inf]))
    assert axial.logsumexp(np.arange(3)).dtype == np.float64  # integers: float64
    assert axial.logsumexp(np.array([1000.0, 1000.0], np.float32)) == np.float32(1000 + np.log(2))
    with pytest.raises(ValueError, match="axis is required"):
        axial.cumulative_sum(x)
    # an out that overlaps the input: numpy's results
    z = x.copy()
    assert axial.cumsum(z, 2, out=z) is z and np.array_equal(z, np.cumsum(x, 2))
    z = x.copy()
    assert np.array_equal(axial.sum(z, 0, out=z[0]), np.sum(x, 0))
    z = np.arange(10, dtype=np.int64)
    assert np.array_equal(axial.cumsum(z[:9], out=z[1:]), np.cumsum(np.arange(9)))


@pytest.mark.skipif(BF16 is None, reason="ml_dtypes is not installed")
def test_bfloat16():
    x = np.linspace(-3, 3, 1000).astype(BF16)
    y = axial.cumsum(x)
    assert y.dtype == BF16
    ref = np.cumsum(x.astype(np.float64)).astype(np.float32).astype(BF16)
    assert np.abs(y.astype(np.float32) - ref.astype(np.float32)).max() <= 0.07
    assert axial.sum(x).dtype == BF16 and axial.logsumexp(x).dtype == BF16
    assert same_bits(axial.roll(x, 3), np.roll(x, 3))
    s = axial.Stream("cumsum")
    assert same_bits(np.concatenate([s.push(x[:333]), s.push(x[333:])]), y)


# ---- bad input: numpy's exception types, out untouched ----------------------------

BAD = [
    (AxisError, "out of bounds", lambda x, o: axial.cumsum(x, 3, out=o)),
    (AxisError, "out of bounds", lambda x, o: axial.cumsum(x, -4, out=o)),
    (AxisError, "out of bounds", lambda x, o: axial.sum(x, (0, 7), out=o)),
    (AxisError, "out of bounds", lambda x, o: axial.logsumexp(x, 5, out=o)),
    (AxisError, "out of bounds", lambda x, o: axial.roll(x, 1, 9)),
    (ValueError, "duplicate", lambda x, o: axial.sum(x, (1, -2), out=o)),
    (ValueError, "shift", lambda x, o: axial.roll(x, (1, 2, 3), (0, 1))),
    (ValueError, "read-only", lambda x, o: axial.cumsum(x, 0, out=np.broadcast_to(o, o.shape))),
    (ValueError, "shape", lambda x, o: axial.cumsum(x, 0, out=o[:1])),
    (ValueError, "shape", lambda x, o: axial.sum(x, 0, out=o)),
    (ValueError, "shape", lambda x, o: axial.logcumsumexp(x, 0, out=o[..., :2])),
    (TypeError, "not supported", lambda x, o: axial.cumsum(x.astype(np.clongdouble), 0, out=o)),
    (TypeError, "object", lambda x, o: axial.sum(x.astype(object), out=o)),
    (TypeError, "complex", lambda x, o: axial.logsumexp(x.astype(np.complex64), out=o)),
    (TypeError, "int32", lambda x, o: axial.logcumsumexp(x, 0, dtype=np.int32, out=o)),
    (TypeError, "object", lambda x, o: axial.roll(x.astype(object), 1)),
    (TypeError, "ndarray", lambda x, o: axial.cumsum(x, 0, out=[0] * 24)),
]


@pytest.mark.parametrize("exc,words,call", BAD)
def test_bad_input_leaves_out_unchanged(exc, words, call):
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    out = np.full((2, 3, 4), 7.0, np.float32)
    with pytest.raises(exc, match=words):
        call(x, out)
    assert (out == 7).all()


# ---- streams -----------------------------------------------------------------------

@pytest.mark.parametrize("op, dt", [("cumsum", np.float32), ("cumsum", np.float64),
                                     ("cumsum", np.float16), ("cumsum", np.int16),
                                     ("cumsum", np.uint64), ("logcumsumexp", np.float32),
                                     ("logcumsumexp", np.float64), ("logcumsumexp", np.float16),
                                     ("logcumsumexp", np.int16)])
@pytest.mark.parametrize("flags", [(False, False), (True, False), (False, True), (True, True)])
def test_stream_random_cuts(op, dt, flags):
    exclusive, reverse = flags
    rng = rng_for(op + " stream", dt, flags)
    one_call = axial.cumsum if op == "cumsum" else axial.logcumsumexp
    for shape, axis in [((70000,), 0), ((3, 40000), 1), ((20000, 5), 0), ((4, 300, 3), 1),
                        ((50, 7), 1)]:
        x = random_array(rng, shape, dt)
        ref = one_call(x, axis, exclusive=exclusive, reverse=reverse)
        n = shape[axis]
        cuts = np.sort(rng.integers(0, n + 1, int(rng.integers(1, 9))))
        bounds = [0] + [int(c) for c in cuts] + [n]
        pieces = [np.take(x, range(a, b), axis) for a, b in zip(bounds, bounds[1:])]
        s = axial.Stream(op, axis, exclusive=exclusive, reverse=reverse)
        outs = []
        for i, p in enumerate(pieces[::-1] if reverse else pieces):
            if i == len(pieces) // 2:
                s = pickle.loads(pickle.dumps(s))  # the carry travels
            outs.append(s.push(p))
        got = np.concatenate(outs[::-1] if reverse else outs, axis)
        assert same_bits(got, ref), (shape, axis, bounds)
        assert s.length == n


@pytest.mark.parametrize("op, dt", [("sum", np.float32), ("sum", np.float64),
                                     ("sum", np.float16), ("sum", np.int16), ("sum", np.uint8),
                                     ("logsumexp", np.float32), ("logsumexp", np.float64),
                                     ("logsumexp", np.float16), ("logsumexp", np.int16)])
def test_sum_stream_random_cuts(op, dt):
    rng = rng_for(op + " stream", dt)
    one_call = axial.sum if op == "sum" else axial.logsumexp
    for shape, axis in [((70000,), 0), ((3, 40000), 1), ((20000, 5), 0), ((4, 300, 3), 1),
                        ((600, 70), 0), ((90, 500), 1)]:
        x = random_array(rng, shape, dt)
        n = shape[axis]
        cuts = np.sort(rng.integers(0, n + 1, int(rng.integers(1, 9))))
        bounds = [0] + [int(c) for c in cuts] + [n]
        keep = bool(rng.integers(0, 2))
        s = axial.Stream(op, axis, keepdims=keep)
        for i, (a, b) in enumerate(zip(bounds, bounds[1:])):
            if i == len(bounds) // 2:
                s = pickle.loads(pickle.dumps(s))  # the state travels
                part = one_call(np.take(x, range(0, a), axis), axis, keepdims=keep)
                assert same_bits(s.result(), part), (shape, axis, bounds, "so far")
            assert s.push(np.take(x, range(a, b), axis)) is None
        assert same_bits(s.result(), one_call(x, axis, keepdims=keep)), (shape, axis, bounds)
        assert s.length == n
    with pytest.raises(ValueError, match="reverse"):
        axial.Stream("sum", reverse=True)
    with pytest.raises(ValueError, match="result"):
        axial.Stream("cumsum").result()
    with pytest.raises(ValueError, match="no piece"):
        axial.Stream("sum").result()
    with pytest.raises(ValueError, match="exclusive"):
        axial.Stream("logsumexp", exclusive=True)
    with pytest.raises(TypeError, match="complex"):
        axial.Stream("logsumexp").push(np.ones(3, np.complex64))


def _outcome(f, module):
    try:
        r = np.asarray(f(module))
        return ("ok", r.dtype, r.shape, r.tolist())
    except Exception as e:  # noqa: BLE001 - the exception type is compared
        return ("raise", type(e))


def test_axis_and_shift_forms_as_numpy():
    # numpy itself is the reference: values, dtypes and shapes, or the same
    # exception type
    x = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    z = np.array(3.0)
    forms = [lambda m: m.sum(x, axis=[0, 1]), lambda m: m.sum(x, axis=True),
             lambda m: m.sum(x, axis=(True,)), lambda m: m.sum(x, axis=np.int64(1)),
             lambda m: m.sum(x, axis=1.0), lambda m: m.cumsum(x, axis=True),
             lambda m: m.cumsum(x, axis=[1]), lambda m: m.roll(x, 1.5),
             lambda m: m.roll(x, -1.5, axis=1), lambda m: m.roll(x, 1, axis=True),
             lambda m: m.roll(x, True), lambda m: m.roll(x, (1, 2.7), axis=(0, 1)),
             lambda m: m.roll(z, 1), lambda m: m.sum(z, axis=0), lambda m: m.sum(z, axis=-1),
             lambda m: m.sum(z, axis=(0,)), lambda m: m.sum(z, axis=1),
             lambda m: m.sum(z, axis=()), lambda m: m.sum(z, axis=0, keepdims=True),
             lambda m: m.cumsum(z, axis=0), lambda m: m.cumsum(z, axis=-1),
             lambda m: m.cumsum(z, axis=1), lambda m: m.cumsum(z, axis=True)]
    for k, f in enumerate(forms):
        want, got = _outcome(f, np), _outcome(f, axial)
        assert got == want, (k, want, got)


class _Sub(np.ndarray):
    pass


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # (numpy.matrix)
def test_other_array_types_as_numpy():
    # an ndarray subclass comes back as numpy returns it (numpy.matrix, with
    # its own sum and shapes, through numpy's function); a dask array stays lazy
    x = np.arange(12.0).reshape(3, 4).view(_Sub)
    m = np.matrix([[1.0, 2.0], [3.0, 4.0]])
    forms = [lambda k, a: k.sum(a), lambda k, a: k.sum(a, axis=0),
             lambda k, a: k.sum(a, axis=1, keepdims=True), lambda k, a: k.cumsum(a),
             lambda k, a: k.cumsum(a, axis=1), lambda k, a: k.roll(a, 1),
             lambda k, a: k.roll(a, 1, axis=0), lambda k, a: k.cumulative_sum(a, axis=0),
             lambda k, a: k.cumulative_sum(a, axis=0, include_initial=True)]
    def outcome(f, mod, a):
        try:
            r = f(mod, a)
            return (type(r), np.shape(r), np.asarray(r).tolist())
        except Exception as e:  # noqa: BLE001 - the exception type is compared
            return type(e)
    for a in (x, m):
        for k, f in enumerate(forms):
            want, got = outcome(f, np, a), outcome(f, axial, a)
            assert got == want, (type(a).__name__, k, want, got)
    da = pytest.importorskip("dask.array")
    d = da.from_array(np.arange(64.0).reshape(8, 8), chunks=3)
    for name, args in (("sum", (0,)), ("cumsum", (1,)), ("roll", (2,)), ("logsumexp", (0,)),
                       ("logcumsumexp", (1,))):
        lazy = getattr(axial, name)(d, *args)
        assert isinstance(lazy, da.Array), name
        assert same_bits(lazy.compute(), getattr(axial, name)(d.compute(), *args)), name
    with pytest.raises(TypeError, match="dask"):
        axial.sum(d, out=np.empty(8))


def test_sum_where_and_initial_as_numpy():
    a, f = np.array([1, 2, 3]), np.array([1.5, 2.5, -0.0], np.float32)
    m = np.arange(6).reshape(2, 3)
    forms = [lambda k: k.sum(a, initial=5.5), lambda k: k.sum(f, initial=1),
             lambda k: k.sum(np.array([], np.float32), initial=3),
             lambda k: k.sum(a, where=[True, False, True]), lambda k: k.sum(a, where=[1, 0, 1]),
             lambda k: k.sum(np.ones((2, 3)), axis=0, where=[True, False, True]),
             lambda k: k.sum(np.array([-0.0, 5.0]), where=[True, False]),
             lambda k: k.sum(np.array([-0.0, -0.0]), where=[True, True]),
             lambda k: k.sum(a, where=None), lambda k: k.sum(a, initial=None),
             lambda k: k.sum(np.array([True, True]), initial=1),
             lambda k: k.sum(np.array([1.0]), where=False),
             lambda k: k.sum(np.array([1], np.uint8), initial=-1),
             lambda k: k.sum(a, dtype=np.float32, initial=0.5),
             lambda k: k.sum(m, axis=1, keepdims=True, initial=2, where=[[1, 0, 1], [0, 1, 1]]),
             lambda k: k.sum(a, where=[True, False]),
             lambda k: k.sum(m, axis=0, out=np.empty(3, np.float32), where=[True, False, True])]

    def outcome(f, k):
        try:
            r = np.asarray(f(k))
            return (r.dtype, r.shape, r.tolist(), np.signbit(r).tolist())
        except Exception as e:  # noqa: BLE001 - the exception type is compared
            return type(e)
    for k, form in enumerate(forms):
        want, got = outcome(form, np), outcome(form, axial)
        assert got == want, (k, want, got)


def test_out_of_another_dtype_as_numpy():
    # numpy loops in the input's and out's promoted type (int8 into bool
    # wraps at 8 bits, int64 into float64 sums in float64): every integer
    # result exactly numpy's; where that type is a float, numpy's dtype and
    # shape (the values follow axial's float order, documented)
    dts = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
           np.uint64, np.float16, np.float32, np.float64]
    rng = rng_for("out dtypes", np.int64)
    for a_dt in dts:
        info = np.iinfo(a_dt) if np.dtype(a_dt).kind in "iu" else None
        if a_dt is np.bool_:
            x = rng.integers(0, 2, (96, 8)).astype(bool)
        elif info is not None:  # values that wrap the narrow types
            x = rng.integers(max(info.min, -2**62), min(info.max, 2**62), (96, 8),
                             dtype=np.int64 if info.min < 0 else np.uint64).astype(a_dt)
        else:
            x = rng.standard_normal((96, 8)).astype(a_dt)
        forms = [("sum", 0, (8,), {}), ("sum", -1, (96,), {}), ("sum", None, (), {}),
                 ("sum", (0, 1), (), {}), ("cumsum", 0, (96, 8), {}), ("cumsum", -1, (96, 8), {}),
                 ("cumsum", None, (768,), {}), ("cumulative_sum", 0, (96, 8), {}),
                 ("cumulative_sum", 0, (97, 8), {"include_initial": True}),
                 ("cumulative_sum", -1, (96, 9), {"include_initial": True})]
        for o_dt in dts:
            for name, axis, shape, kw in forms:
                with np.errstate(over="ignore", invalid="ignore"):  # (both warn alike)
                    want = getattr(np, name)(x, axis=axis, out=np.zeros(shape, o_dt), **kw)
                    got = getattr(axial, name)(x, axis=axis, out=np.zeros(shape, o_dt), **kw)
                assert got.dtype == want.dtype and got.shape == want.shape
                if np.result_type(a_dt, o_dt).kind not in "fc":
                    assert np.array_equal(got, want), (name, axis, kw, a_dt, o_dt)


def test_where_initial_in_every_dtype_as_numpy():
    # sum's where= and initial= over every input x out (or dtype) type and
    # axis form, complex included: numpy's dtype, shape and exception type
    # everywhere, its values where they do not depend on the float order
    dts = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
           np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128]
    rng = rng_for("where initial", np.int64)
    n = 0
    for a_dt in dts:
        kind = np.dtype(a_dt).kind
        if kind == "b":
            x = rng.integers(0, 2, (96, 8)).astype(bool)
        elif kind in "iu":
            info = np.iinfo(a_dt)
            x = rng.integers(max(info.min, -2**62), min(info.max, 2**62), (96, 8),
                             dtype=np.int64 if info.min < 0 else np.uint64).astype(a_dt)
        elif kind == "c":
            x = (rng.integers(-50, 50, (96, 8)) + 1j * rng.integers(-50, 50, (96, 8)))
            x = x.astype(a_dt)
        else:
            x = rng.standard_normal((96, 8)).astype(a_dt)
        mask = rng.integers(0, 2, (1, 8)).astype(bool)
        for o_dt in dts:
            exact = np.result_type(a_dt, o_dt).kind not in "fc" or \
                (kind == "c" and np.dtype(o_dt).kind == "c")  # (integer-valued parts)
            for axis, shape in ((0, (8,)), (-1, (96,)), (None, ()), ((0, 1), ())):
                for kw in ({"where": mask}, {"initial": 3}, {"where": mask, "initial": 1}):
                    for as_out in (True, False):
                        got = []
                        for mod in (np, axial):
                            kw2 = dict(kw, out=np.zeros(shape, o_dt)) if as_out else \
                                dict(kw, dtype=o_dt)
                            try:
                                with np.errstate(all="ignore"), warnings.catch_warnings():
                                    warnings.simplefilter("ignore")
                                    got.append(np.asarray(mod.sum(x, axis=axis, **kw2)))
                            except Exception as e:  # noqa: BLE001 - the types must match
                                got.append(type(e))
                        want, mine = got
                        what = (a_dt, o_dt, axis, sorted(kw), as_out, want, mine)
                        n += 1
                        if isinstance(want, type) or isinstance(mine, type):
                            assert want is mine, what
                            continue
                        assert mine.dtype == want.dtype and mine.shape == want.shape, what
                        assert not exact or np.array_equal(mine, want), what
    assert n == len(dts) ** 2 * 24


def test_complex_by_parts_as_numpy():
    # numpy adds complex numbers part by part; integer-valued parts are exact
    # in any order, so the results are numpy's bit for bit
    rng = rng_for("complex", np.complex64)
    for ct in (np.complex64, np.complex128):
        z = (rng.integers(-50, 50, (7, 9)) + 1j * rng.integers(-50, 50, (7, 9))).astype(ct)
        forms = [lambda k: k.sum(z), lambda k: k.sum(z, axis=1, keepdims=True),
                 lambda k: k.sum(z, dtype=np.complex128), lambda k: k.sum(z[0, 0]),
                 lambda k: k.sum(z[0, 0], keepdims=True), lambda k: k.cumsum(z, axis=0),
                 lambda k: k.cumulative_sum(z, axis=1, include_initial=True),
                 lambda k: k.sum(z, axis=0, out=np.zeros(9, np.complex128)),
                 lambda k: k.cumsum(z, axis=1, out=np.zeros((7, 9), np.float64))]
        for k, f in enumerate(forms):
            with warnings.catch_warnings():  # (a complex into a float out: numpy warns too)
                warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
                want, got = np.asarray(f(np)), np.asarray(f(axial))
            assert got.dtype == want.dtype and got.shape == want.shape, (ct, k)
            assert np.array_equal(got, want), (ct, k, got, want)
    z = np.array([1 + 2j, 3 - 1j, 0.5j], np.complex64)
    for dt in (np.float32, np.int8, np.bool_):  # numpy's cast, with its warning
        with pytest.warns(np.exceptions.ComplexWarning) if dt is not np.bool_ else \
                warnings.catch_warnings():
            got = axial.sum(z, dtype=dt)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
            assert got.dtype == dt and got == np.sum(z, dtype=dt)
    with pytest.raises(TypeError, match="complex"):
        axial.logsumexp(np.ones(3, np.complex64))


def test_masked_timedelta_and_rank_refused():
    # a masked array: numpy's own function where numpy has one (the mask
    # honoured), else refused; never the sum of the masked value
    m = np.ma.array([1.0, 2.0, 100.0], mask=[0, 0, 1])
    assert axial.sum(m) == 3.0 and type(axial.cumsum(m)) is np.ma.MaskedArray
    assert np.ma.allequal(axial.cumsum(m), np.cumsum(m))
    assert np.ma.allequal(axial.roll(m, 1), np.roll(m, 1))
    for f in (axial.logsumexp, axial.logcumsumexp, lambda a: axial.cumsum(a, exclusive=True)):
        with pytest.raises(TypeError, match="masked"):
            f(m)
    with pytest.raises(TypeError, match="timedelta64"):
        axial.sum(np.array([1, 2], dtype="m8[s]"))
    with pytest.raises(ValueError, match="17 dimensions"):
        axial.sum(np.ones((1,) * 17, np.float32))


def test_stream_refuses_what_does_not_belong():
    s = axial.Stream("cumsum", 1)
    s.push(np.ones((3, 10), np.float32))
    with pytest.raises(ValueError, match=r"\(4, 10\)"):
        s.push(np.ones((4, 10), np.float32))
    with pytest.raises(ValueError, match="float64"):
        s.push(np.ones((3, 10), np.float64))
    assert s.length == 10
    with pytest.raises(ValueError, match="'prod'"):
        axial.Stream("prod")
    with pytest.raises(ValueError, match="keepdims"):
        axial.Stream("logcumsumexp", keepdims=True)


@settings(max_examples=40, deadline=None)
@given(hnp.arrays(np.float32, hnp.array_shapes(min_dims=1, max_dims=3, max_side=40),
                  elements=st.floats(-1e6, 1e6, width=32)),
       st.data())
def test_property_stream_any_cuts(x, data):
    axis = data.draw(st.integers(0, x.ndim - 1))
    n = x.shape[axis]
    cuts = sorted(data.draw(st.lists(st.integers(0, n), max_size=5)))
    bounds = [0] + cuts + [n]
    s = axial.Stream("cumsum", axis)
    got = np.concatenate([s.push(np.take(x, range(a, b), axis))
                          for a, b in zip(bounds, bounds[1:])], axis)
    assert same_bits(got, axial.cumsum(x, axis))


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(hnp.integer_dtypes() | hnp.unsigned_integer_dtypes(),
                  hnp.array_shapes(min_dims=0, max_dims=4, max_side=7)),
       st.data())
def test_property_integers_equal_numpy(x, data):
    ax = data.draw(st.integers(-max(x.ndim, 1), max(x.ndim, 1) - 1)) if x.ndim else None
    assert same_bits(axial.cumsum(x, ax), np.cumsum(x, ax))
    assert same_bits(axial.sum(x, ax), np.sum(x, ax))


@settings(max_examples=40, deadline=None)
@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=3, max_side=50),
                  elements=st.floats(-1e3, 1e3)))
def test_property_float_sum_exact_for_small_integers(x):
    # integer-valued float64 terms below 2^53 in total: every order is exact
    x = np.round(x)
    assert np.array_equal(axial.sum(x, 0), np.sum(x, 0))  # (signed zeros: docs/API.md, 7)
    assert np.array_equal(axial.cumsum(x, -1), np.cumsum(x, -1))


def test_bench_runs(capsys):
    from axial import bench

    bench.main(["--quick", "--no-dask", "--reps", "1"])
    table = capsys.readouterr().out
    assert "| cumsum [256 KiB], 1 thread |" in table and "Stream" in table
