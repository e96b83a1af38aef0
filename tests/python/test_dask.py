# SPDX-License-Identifier: MIT
"""axial.dask on a 2-process LocalCluster: the bits of one call for any chunking."""
import os

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")

import axial  # noqa: E402
import axial.dask as ad  # noqa: E402

SEED = int(os.environ.get("AXIAL_TEST_SEED", "20261201"))


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=40) as cluster:
        with distributed.Client(cluster) as c:
            yield c


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def random_chunks(rng, n):
    """Random chunk sizes along an axis of length n (sizes of 1 included)."""
    if n == 0:
        return (0,)
    cuts = sorted(set(int(c) for c in rng.integers(1, n, int(rng.integers(0, 6)))) if n > 1
                  else set())
    bounds = [0] + cuts + [n]
    return tuple(b - a for a, b in zip(bounds, bounds[1:]))


CASES = [  # (shape, dtype)
    ((70000,), np.float32),
    ((3, 50000), np.float32),
    ((40000, 3), np.float32),
    ((500, 300), np.float64),
    ((64, 40, 33), np.float32),
    ((2, 20000, 2), np.float16),
    ((300, 257), np.int32),
    ((5000, 17), np.uint8),
]


@pytest.mark.parametrize("shape,dt", CASES)
def test_dask_bits_equal_one_call(client, shape, dt):
    rng = np.random.default_rng([SEED, len(shape), sum(shape), np.dtype(dt).num])
    x = (rng.standard_normal(shape) * 3).astype(dt) if np.dtype(dt).kind == "f" else \
        rng.integers(0, 100, shape).astype(dt)
    for trial in range(3):
        chunks = tuple(random_chunks(rng, n) for n in shape)
        d = da.from_array(x, chunks=chunks)
        ax = int(rng.integers(0, len(shape)))
        axes = tuple(sorted(set(int(a) for a in rng.integers(0, len(shape), 2))))
        ex, rev = bool(rng.integers(0, 2)), bool(rng.integers(0, 2))
        jobs = [
            ("cumsum", ad.cumsum(d, ax, exclusive=ex, reverse=rev),
             axial.cumsum(x, ax, exclusive=ex, reverse=rev)),
            ("sum", ad.sum(d, axes), axial.sum(x, axes)),
            ("sum keepdims", ad.sum(d, None, keepdims=True), axial.sum(x, None, keepdims=True)),
            ("roll", ad.roll(d, 7, ax), axial.roll(x, 7, ax)),
            ("cumulative_sum", ad.cumulative_sum(d, axis=ax, include_initial=True),
             axial.cumulative_sum(x, axis=ax, include_initial=True)),
        ]
        if np.dtype(dt).kind == "f":
            jobs += [
                ("logcumsumexp", ad.logcumsumexp(d, ax, reverse=rev),
                 axial.logcumsumexp(x, ax, reverse=rev)),
                ("logsumexp", ad.logsumexp(d, axes), axial.logsumexp(x, axes)),
            ]
        results = client.compute([j[1] for j in jobs], sync=True)
        for (what, _, ref), got in zip(jobs, results):
            assert same_bits(got, ref), (what, shape, chunks, ax, axes, ex, rev)


@pytest.mark.parametrize("op", ["cumsum", "logcumsumexp"])
def test_dask_scan_lines_keep_their_chunks(client, op):
    # chunk boundaries off the grid of 16384: a chain of streams, no rechunk
    rng = np.random.default_rng([SEED, 7])
    lazy, eager = getattr(ad, op), getattr(axial, op)
    for dt in (np.float32, np.float16, np.float64):
        x = (rng.standard_normal((5, 40000)) * 3).astype(dt)
        for chunks in (((2, 3), (2048,) * 19 + (1088,)), ((5,), (1, 16383, 16385, 7231))):
            d = da.from_array(x, chunks=chunks)
            for ex, rev in ((False, False), (True, True)):
                y = lazy(d, 1, exclusive=ex, reverse=rev)
                assert y.chunks == d.chunks, (dt, chunks)
                assert same_bits(y.compute(), eager(x, 1, exclusive=ex, reverse=rev))


@pytest.mark.parametrize("op", ["sum", "logsumexp"])
def test_dask_sums_along_one_axis_keep_the_axis_chunks(client, op):
    # no grid (many outputs) or chunks off it: a chain of ReduceSum (or
    # ReduceLogSumExp) streams
    rng = np.random.default_rng([SEED, 8])
    lazy, eager = getattr(ad, op), getattr(axial, op)
    for dt, shape in ((np.float32, (3000, 70)), (np.float16, (200, 3000)),
                      (np.float64, (40000, 3)), (np.float32, (5, 30000, 2))):
        x = (rng.standard_normal(shape) * 3).astype(dt)
        for ax in range(len(shape)):
            chunks = tuple(random_chunks(rng, n) for n in shape)
            d = da.from_array(x, chunks=chunks)
            for keep in (False, True):
                y = lazy(d, ax, keepdims=keep)
                assert same_bits(y.compute(), eager(x, ax, keepdims=keep)), (dt, shape, ax)
        d = da.from_array(x, chunks=(shape[0] // 3 + 1,) + shape[1:])
        keys = [k[0] if isinstance(k, tuple) else k for k in dict(lazy(d, 0).dask)]
        assert not any(str(k).startswith("rechunk") for k in keys), (shape, "a rechunk")


@pytest.mark.parametrize("op", ["sum", "logsumexp"])
def test_dask_sums_on_the_grid_are_summaries(client, op):
    # many outputs: chunks of the order's grid (1024 rows of columns, 8192
    # f64 terms of a line) summarised apart, in a blockwise layer that dask
    # can fuse with the input's; no chain, no rechunk, the kept axes' chunks
    rng = np.random.default_rng([SEED, 12])
    lazy, eager = getattr(ad, op), getattr(axial, op)
    # (kept blocks of more than 64 outputs each: those of fewer have chunks of
    # 64 KiB of rows, another plan, and are taken whole)
    for dt, shape, ax, chunks, other in (
            (np.float32, (4096, 300), 0, (2048, 1024, 1024), (100, 200)),
            (np.float64, (3072, 70), 0, (1024, 2048), (70,)),
            (np.float64, (65, 17000), 1, (8192, 8192, 616), (65,))):
        x = (rng.standard_normal(shape) * 3).astype(dt)
        d = da.from_array(x, chunks=(chunks, other) if ax == 0 else (other, chunks))
        y = lazy(d, ax)
        assert y.chunks == (other,), (dt, shape)
        names = {str(k[0] if isinstance(k, tuple) else k) for k in dict(y.dask)}
        assert any(n.startswith("axial-summary") for n in names), (dt, shape, "no summaries")
        assert not any(n.startswith(("axial-sum-stream", "rechunk")) for n in names), (dt, shape)
        assert same_bits(y.compute(), eager(x, ax)), (dt, shape)


@pytest.mark.parametrize("op", ["sum", "logsumexp"])
def test_dask_several_reduced_groups_on_the_grid(client, op):
    # several groups of reduced axes: the first reduced axis in the order's
    # cells (a power of two of its indices: 32 and 128 here), each chunk
    # along it summarised apart; no rechunk where its chunks are on the grid
    rng = np.random.default_rng([SEED, 13])
    lazy, eager = getattr(ad, op), getattr(axial, op)
    for dt, shape, axes, chunks in (
            (np.float32, (300, 5, 40), (0, 2), ((64, 96, 140), (5,), (40,))),
            (np.float64, (4, 400, 5, 8), (1, 3), ((2, 2), (128, 256, 16), (5,), (8,)))):
        x = (rng.standard_normal(shape) * 3).astype(dt)
        d = da.from_array(x, chunks=chunks)
        y = lazy(d, axes)
        names = {str(k[0] if isinstance(k, tuple) else k) for k in dict(y.dask)}
        assert any(n.startswith("axial-summary") for n in names), (dt, shape, "no summaries")
        assert not any(n.startswith("rechunk") for n in names), (dt, shape, "a rechunk")
        assert same_bits(y.compute(), eager(x, axes)), (dt, shape)
        for _ in range(2):  # anywhere else: moved onto the grid, the same bits
            d = da.from_array(x, chunks=tuple(random_chunks(rng, n) for n in shape))
            assert same_bits(lazy(d, axes, keepdims=True).compute(),
                             eager(x, axes, keepdims=True)), (dt, shape, d.chunks)


def test_dask_log_space_ops_split_their_columns(client):
    # each column's bits are its own: the columns split where the chunks are
    # (none of width 1, a line), the scan axis chained, never rechunked
    rng = np.random.default_rng([SEED, 9])
    for dt, shape in ((np.float32, (300, 1000)), (np.float64, (40, 6, 50)),
                      (np.float16, (90, 700))):
        x = (rng.standard_normal(shape) * 4).astype(dt)
        for trial in range(3):
            chunks = (shape[0] // 3 + 1,) + tuple(random_chunks(rng, n) for n in shape[1:])
            d = da.from_array(x, chunks=chunks)
            y = ad.logcumsumexp(d, 0)
            assert same_bits(y.compute(), axial.logcumsumexp(x, 0)), (dt, shape, chunks)
            r = ad.logsumexp(d, 0)
            assert same_bits(r.compute(), axial.logsumexp(x, 0)), (dt, shape, chunks)
    d = da.from_array(np.ones((300, 1000), np.float32), chunks=(100, 250))
    assert ad.logcumsumexp(d, 0).chunks == d.chunks
    assert ad.logsumexp(d, 0).chunks[0] == (250, 250, 250, 250)


def test_dask_bfloat16_on_the_cluster(client):
    # every op on bfloat16 through the worker processes (pickled blocks, states
    # and summaries), without a rechunk through dask's P2P
    ml_dtypes = pytest.importorskip("ml_dtypes")
    x = (np.random.default_rng([SEED, 9]).standard_normal((3000, 70)) * 3).astype(
        ml_dtypes.bfloat16)
    d = da.from_array(x, chunks=(700, 30))
    jobs = [(ad.sum(d), axial.sum(x)), (ad.sum(d, 0), axial.sum(x, 0)),
            (ad.sum(d, 1), axial.sum(x, 1)), (ad.cumsum(d, 0), axial.cumsum(x, 0)),
            (ad.cumsum(d, 1), axial.cumsum(x, 1)), (ad.logsumexp(d, 0), axial.logsumexp(x, 0)),
            (ad.logcumsumexp(d, 1), axial.logcumsumexp(x, 1))]
    results = client.compute([j[0] for j in jobs], sync=True)
    for k, (got, (_, ref)) in enumerate(zip(results, jobs)):
        assert same_bits(got, ref), k


def test_dask_on_the_scalar_oracle_and_lazy(client):
    x = np.random.default_rng(SEED).standard_normal((3, 40000)).astype(np.float32)
    d = da.from_array(x, chunks=(1, 9999))
    with axial.use_isa("scalar"):
        lazy = ad.cumsum(d, 1)  # built here: the tasks run the scalar ISA on the workers
        ref = axial.cumsum(x, 1)
        lse = ad.logcumsumexp(d, 1)
        lse_ref = axial.logcumsumexp(x, 1)
    assert isinstance(lazy, da.Array)
    assert same_bits(lazy.compute(), ref)
    assert same_bits(lse.compute(), lse_ref)


def test_dask_bad_input(client):
    d = da.ones((4, 5), chunks=2)
    with pytest.raises(np.exceptions.AxisError):
        ad.cumsum(d, 2)
    with pytest.raises(ValueError, match="duplicate"):
        ad.sum(d, (0, 0))
    with pytest.raises(TypeError, match="complex"):
        ad.sum(d.astype(complex))


def edge_cases():
    rng = np.random.default_rng(SEED)
    x = rng.standard_normal((50, 70)).astype(np.float32)
    d = da.from_array(x, chunks=(13, 9))
    e = np.zeros((0, 5), np.float32)
    de = da.from_array(e, chunks=(1, 2))
    z = np.array(3.5, np.float32)
    dz = da.from_array(z)
    b = rng.integers(0, 2, (40, 30)).astype(bool)
    db = da.from_array(b, chunks=(7, 11))
    w = rng.standard_normal((4, 5, 6, 7))
    dw = da.from_array(w, chunks=(3, 2, 4, 5))
    yield "axis None", ad.cumsum(d), axial.cumsum(x)
    yield "sum of all", ad.sum(d), axial.sum(x)
    yield "sum over ()", ad.sum(d, ()), axial.sum(x, ())
    yield "logsumexp keepdims", ad.logsumexp(d, 1, keepdims=True), \
        axial.logsumexp(x, 1, keepdims=True)
    yield "cumsum dtype", ad.cumsum(d, 1, dtype=np.float64), axial.cumsum(x, 1, dtype=np.float64)
    yield "empty cumsum", ad.cumsum(de, 0), axial.cumsum(e, 0)
    yield "empty sum", ad.sum(de, 0), axial.sum(e, 0)
    yield "empty logsumexp", ad.logsumexp(de, 0), axial.logsumexp(e, 0)
    yield "0-d cumsum", ad.cumsum(dz), axial.cumsum(z)
    yield "0-d sum", ad.sum(dz), axial.sum(z)
    yield "bool cumsum", ad.cumsum(db, 0), np.cumsum(b, 0)
    yield "bool sum to bool", ad.sum(db, 1, dtype=bool), np.sum(b, 1, dtype=bool)
    for axes in [(0, 2), (1, 3), (0, 1, 3), (2,)]:
        yield f"sum {axes}", ad.sum(dw, axes), axial.sum(w, axes)
        yield f"logsumexp {axes}", ad.logsumexp(dw, axes), axial.logsumexp(w, axes)
    for ax in range(4):
        yield f"cumsum {ax}", ad.cumsum(dw, ax, reverse=True), axial.cumsum(w, ax, reverse=True)
        yield f"logcumsumexp {ax}", ad.logcumsumexp(dw, ax, exclusive=True), \
            axial.logcumsumexp(w, ax, exclusive=True)


def test_dask_edge_cases(client):
    cases = list(edge_cases())
    results = client.compute([c[1] for c in cases], sync=True)
    for (what, _, ref), got in zip(cases, results):
        assert same_bits(got, ref), what
