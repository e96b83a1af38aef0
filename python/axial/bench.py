# SPDX-License-Identifier: MIT
"""python -m axial.bench: axial against numpy, and axial.dask against dask.

Prints a Markdown table (medians of repetitions, f32) with a copy probe
(numpy's vectorised copy loop, ``np.positive(x, out=y)``, of the same bytes)
measured in the same run, so that the figures compare across machines as
ratios.  Progress goes to stderr.

    python -m axial.bench [--quick] [--no-dask] [--reps N]
"""
import argparse
import itertools
import os
import statistics
import sys
import time

import numpy as np

import axial
from axial import _core


def _median_time(f, reps, inner=1):
    f()  # warm: pages touched, code loaded
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(inner):
            f()
        ts.append((time.perf_counter() - t0) / inner)
    return statistics.median(ts)


def _fmt_t(t):
    return f"{t * 1e6:.2f} µs" if t < 1e-3 else f"{t * 1e3:.2f} ms"


class Table:
    def __init__(self):
        self.rows = []

    def add(self, case, axial_t, peer, peer_t, note=""):
        ratio = peer_t / axial_t
        self.rows.append((case, _fmt_t(axial_t), peer, _fmt_t(peer_t), f"{ratio:.2f}x", note))
        print(f"  {case}: axial {_fmt_t(axial_t)}, {peer} {_fmt_t(peer_t)} ({ratio:.2f}x) {note}",
              file=sys.stderr, flush=True)

    def markdown(self):
        lines = ["| case | axial | peer | peer time | peer / axial | note |",
                 "|---|---|---|---|---|---|"]
        lines += ["| " + " | ".join(r) + " |" for r in self.rows]
        return "\n".join(lines)


def bench_numpy(table, reps, quick):
    rng = np.random.default_rng(1)
    print("numpy: call overhead, 256 KiB and 64 MiB, 1 thread", file=sys.stderr, flush=True)
    axial.set_num_threads(1)
    x16 = rng.random(16).astype(np.float32)
    n = 20000
    table.add("cumsum [16] (call overhead)", _median_time(lambda: axial.cumsum(x16), reps, n),
              "np.cumsum", _median_time(lambda: np.cumsum(x16), reps, n))
    table.add("sum [16] (call overhead)", _median_time(lambda: axial.sum(x16), reps, n),
              "np.sum", _median_time(lambda: np.sum(x16), reps, n))
    sizes = [(256 << 10, "256 KiB")] + ([] if quick else [(64 << 20, "64 MiB")])
    for nbytes, label in sizes:
        x = rng.random(nbytes // 4).astype(np.float32)
        y = np.empty_like(x)
        inner = 200 if nbytes < (1 << 20) else 1
        copy_t = _median_time(lambda: np.positive(x, out=y), reps, inner)
        note = f"copy probe {_fmt_t(copy_t)}"
        t_ax = _median_time(lambda: axial.cumsum(x), reps, inner)
        table.add(f"cumsum [{label}], 1 thread", t_ax, "np.cumsum",
                  _median_time(lambda: np.cumsum(x), reps, inner),
                  note + f"; axial at {copy_t / t_ax:.2f} of the copy")
        table.add(f"sum [{label}], 1 thread", _median_time(lambda: axial.sum(x), reps, inner),
                  "np.sum", _median_time(lambda: np.sum(x), reps, inner), note)
        table.add(f"logcumsumexp [{label}], 1 thread",
                  _median_time(lambda: axial.logcumsumexp(x), reps, inner),
                  "np.logaddexp.accumulate",
                  _median_time(lambda: np.logaddexp.accumulate(x), reps, inner))
        table.add(f"roll [{label}], 1 thread", _median_time(lambda: axial.roll(x, 1000), reps, inner),
                  "np.roll", _median_time(lambda: np.roll(x, 1000), reps, inner), note)
        if nbytes >= (1 << 20):
            # both into a preallocated out: no page faults of a fresh output
            t_py = _median_time(lambda: axial.cumsum(x, out=y), reps)
            table.add(f"cumsum [{label}], 1 thread, out=", t_py, "np.cumsum(out=)",
                      _median_time(lambda: np.cumsum(x, out=y), reps),
                      note + f"; axial at {copy_t / t_py:.2f} of the copy")
            # the numpy layer's cost on a large call: the full call with out=
            # against the bare C call through axial._core (same buffers)
            t_c = _median_time(lambda: _core.scan(1, 1, x, y, x.shape, 0, 0, 1), reps)
            table.add(f"cumsum [{label}] from Python, out=", t_py, "the bare C call", t_c,
                      "peer / axial is Python's speed as a fraction of C's")
            axial.set_num_threads(2)
            t2 = _median_time(lambda: axial.cumsum(x, out=y), reps)
            axial.set_num_threads(1)
            table.add(f"cumsum [{label}], 2 threads", t2, "1 thread", t_py)
    # a stream of 256 pieces of 64 KiB against one call of the same 16 MiB
    x = rng.random(1 << 22).astype(np.float32)
    pieces = np.split(x, 256)

    def stream():
        s = axial.Stream("cumsum")
        for p in pieces:
            s.push(p)
    table.add("Stream, 256 pieces of 64 KiB", _median_time(stream, reps), "one call (16 MiB)",
              _median_time(lambda: axial.cumsum(x), reps),
              "peer / axial >= 0.8 means at most 1.25x one call")


def _same(block):
    return block


def bench_dask(table, reps, quick):
    import dask.array as da
    import distributed

    import axial.dask as ad

    side = 4096 if quick else 8192
    print(f"dask: cumsum and sum of [{side}, {side}] f32 along each axis on a LocalCluster",
          file=sys.stderr, flush=True)
    results = {}
    for workers in (1, 2):
        with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                      dashboard_address=None, silence_logs=40) as cluster, \
                distributed.Client(cluster) as client:
            x = da.random.default_rng(0).random((side, side), dtype=np.float32,
                                                chunks=(side // 4, side // 4)).persist()
            distributed.wait(x)

            fresh = itertools.count()

            def run(f):
                def go():
                    # a new name for the same blocks, so that no result of an
                    # earlier repetition is found in the cluster's memory
                    xi = x.map_blocks(_same, name=f"axial-bench-input-{next(fresh)}")
                    r = f(xi).persist()
                    distributed.wait(r)
                    del r
                return go
            for ax in (0, 1):
                for op in ("cumsum", "sum"):
                    mine, peer = getattr(ad, op), getattr(da, op)
                    results[(op, ax, "axial", workers)] = _median_time(
                        run(lambda a: mine(a, ax)), reps)
                    results[(op, ax, "dask", workers)] = _median_time(
                        run(lambda a: peer(a, ax)), reps)
            client.cancel(x)
    for w in (1, 2):
        for ax in (0, 1):
            for op in ("cumsum", "sum"):
                table.add(f"axial.dask {op} [{side}, {side}] axis {ax}, {w} worker(s)",
                          results[(op, ax, "axial", w)], f"da.{op}", results[(op, ax, "dask", w)])
    table.add(f"axial.dask cumsum [{side}, {side}] axis 0, 2 workers",
              results[("cumsum", 0, "axial", 2)], "axial.dask, 1 worker",
              results[("cumsum", 0, "axial", 1)])


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m axial.bench", description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="small sizes only (a smoke run)")
    p.add_argument("--no-dask", action="store_true", help="leave out the dask rows")
    p.add_argument("--reps", type=int, default=9, help="repetitions per case (median)")
    a = p.parse_args(argv)
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            info = f.read()
        name = [ln.split(":", 1)[1].strip() for ln in info.splitlines()
                if ln.startswith("model name")]
        fam = [ln.split(":", 1)[1].strip() for ln in info.splitlines()
               if ln.startswith("cpu family") or ln.startswith("model\t")]
        cpu = f"{name[0]} (family {fam[0]} model {fam[1]})" if name and len(fam) > 1 else cpu
    except OSError:
        pass
    print(f"axial {axial.__version__}, ISA {axial.isa()}, numpy {np.__version__}, {cpu}, "
          f"{os.cpu_count()} CPUs, medians of {a.reps}", flush=True)
    table = Table()
    before = axial.get_num_threads()
    try:
        bench_numpy(table, a.reps, a.quick)
        if not a.no_dask:
            bench_dask(table, max(3, a.reps // 3), a.quick)
    finally:
        axial.set_num_threads(before)
    print(table.markdown())


if __name__ == "__main__":
    main()
