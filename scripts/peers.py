#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Times the runtimes users actually run on axial's benchmark cases, single
threaded and (torch, onnxruntime, openvino) on T threads for the cases that
cases.json lists with "threads": [T, ...] (axial-bench's threads dimension),
and writes their medians for scripts/report.py.

  peers.py --cases cases.json --out peers.json [--reps 7] [--min-time 0.05]
           [--only numpy,torch,onnxruntime,openvino,scipy] [--filter REGEX]

cases.json comes from `axial-bench --cases-json=FILE`.  Each peer is called as
its users call it:
  numpy        np.cumsum(x, axis, out=y) (exclusive: the shifted slice
               np.cumsum(x[:-1], axis, out=y[1:]), then y[0] = 0; reverse: the
               same on np.flip views of x and y, no copies);
               np.sum(x, axis=tuple, out=y) (np.sum(x) for all axes);
               np.roll(x, shift, axis) (numpy.roll has no out=: it allocates,
               as its users get it);
               np.logaddexp.accumulate(x, axis, out=y) (exclusive and reverse
               as for cumsum, the first output -inf);
               ReduceLogSumExp the stable way, into preallocated buffers:
               m = np.max(x, axis, keepdims=True), t = exp(x - m),
               y = log(np.sum(t, axis)) + m.
  torch        torch.set_num_threads(T) (1 but for the threads dimension);
               tensors share the numpy buffers;
               torch.cumsum(x, d, dtype=x.dtype, out=y) (reverse: flip,
               cumsum, flip into y; exclusive: cumsum then y -= x);
               torch.sum(x, dims, dtype=x.dtype, out=y); torch.roll(x, s, d);
               torch.logcumsumexp(x, d, out=y) (reverse: flip, logcumsumexp,
               flip into y; it has no exclusive form); torch.logsumexp(x,
               dims, out=y).
  onnxruntime  CumSum-14 / ReduceSum-13 / ReduceLogSumExp-18 models built with
               the onnx package;
               one InferenceSession, intra_op_num_threads T (1 but for the threads
               dimension), inter op threads 1, sequential; inputs and
               preallocated outputs bound once with io_binding, the timed call
               is run_with_iobinding.  ONNX has no Roll and no LogCumSumExp.
  openvino     CumSum, ReduceSum, Roll from the opset, compiled for CPU with
               INFERENCE_NUM_THREADS=T (1 but for the threads dimension),
               NUM_STREAMS=1 and
               INFERENCE_PRECISION_HINT=f32 (no silent bf16); one InferRequest
               with its input tensor sharing the numpy buffer (bf16: the
               uint16 bits as an ov.Type.bf16 tensor); infer() timed.  Its
               opset has no LogCumSumExp or LogSumExp operation.
  scipy        scipy.special.logsumexp(x, axis) (ReduceLogSumExp only; it
               allocates its result), where scipy is importable.
Timing: calls are doubled until a run takes min_time/5 (that is the warm-up),
then each of --reps repetitions times a batch of calls lasting about
--min-time with time.perf_counter_ns; the median ns per call is recorded.
Each peer's output is checked once against a float64 numpy reference (loose
tolerance; integers modulo their width); a wrong answer is recorded as a
mismatch, never timed.  For the log-space ops every float output is checked
and its largest error recorded ("max_err", absolute); a peer whose outputs
are all finite where the reference's are but drift beyond the tolerance
(numpy's f32 logaddexp.accumulate and torch's f32 logcumsumexp over long
axes: an f32 running sum loses the small terms) is timed all the same, as
its users get it, and marked "inaccurate" with the first difference.  A type or operation the peer lacks is recorded as
skipped with "unsupported": true (report.py shows '-'); any other failure as
skipped (shown 'skip').  Runtimes are imported lazily: one that is missing is
"not installed".  Runs with Debian's python3 (numpy 1.24) or .venv-peers.
numpy has no threads: it is timed once, single-threaded.  Every record has
"threads": T (1 for the single-thread figures).
"""
import argparse
import json
import statistics
import sys
import time

import numpy as np

NP_TYPES = {"f32": np.float32, "f64": np.float64, "i8": np.int8, "u8": np.uint8,
            "i16": np.int16, "u16": np.uint16, "i32": np.int32, "u32": np.uint32,
            "i64": np.int64, "u64": np.uint64, "f16": np.float16, "bool": np.bool_}


def make_input(case):
    """The benchmark's own fill: ((i * 7) % 17 - 8) scaled for floats."""
    n = int(np.prod(case["shape"]))
    v = (np.arange(n, dtype=np.int64) * 7 % 17 - 8)
    dt = case["dtype"]
    if dt == "bf16":
        f = (v * 0.125).astype(np.float32)
        return (f.view(np.uint32) >> 16).astype(np.uint16).reshape(case["shape"])
    t = NP_TYPES[dt]
    if dt == "bool":
        return (v > 0).reshape(case["shape"])
    if np.issubdtype(t, np.floating):
        return (v * 0.125).astype(t).reshape(case["shape"])
    return v.astype(t).reshape(case["shape"])


def widen(a, dt):
    """The values in a wide type: float64 for floats (bf16 from its bits),
    int64 / uint64 for integers (sums then wrap modulo 2^64, which keeps
    them exact modulo 2^bits), bool as is."""
    a = np.asarray(a)
    if dt == "bf16":
        return (a.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    if dt == "bool":
        return a.astype(np.bool_)
    if dt[0] == "u":
        return a.astype(np.uint64)
    if dt[0] == "i":
        return a.astype(np.int64)
    return a.astype(np.float64)


def lse_reference(case, xd):
    """LogCumSumExp / ReduceLogSumExp in float64, shifted by the maximum of
    each line (exact enough for the benchmark's fill, values in [-1, 1])."""
    if case["op"] == "reduce_logsumexp":
        ax = tuple(case["axes"]) if case["axes"] else None
        m = np.max(xd, axis=ax, keepdims=True)
        return np.squeeze(np.log(np.sum(np.exp(xd - m), axis=ax, keepdims=True)) + m, axis=ax)
    a = case["axis"]
    v = np.flip(xd, a) if case["reverse"] else xd
    m = np.max(v, axis=a, keepdims=True)
    e = np.exp(v - m)
    c = np.cumsum(e, axis=a)
    if case["exclusive"]:
        c = c - e
    with np.errstate(divide="ignore"):
        y = np.log(c) + m
    if case["exclusive"]:  # no terms: -inf, not log(rounding residue)
        first = [slice(None)] * y.ndim
        first[a] = 0
        y[tuple(first)] = -np.inf
    return np.flip(y, a) if case["reverse"] else y


def reference(case, x):
    """The case's result in the wide type (the check, not the thing timed)."""
    xd = widen(x, case["dtype"])
    if case["op"] in LSE_OPS:
        return lse_reference(case, xd)
    if case["op"] == "cumsum":
        a = case["axis"]
        v = np.flip(xd, a) if case["reverse"] else xd
        c = np.cumsum(v, axis=a, dtype=xd.dtype)
        if case["exclusive"]:
            c = c - v
        return np.flip(c, a) if case["reverse"] else c
    if case["op"] == "reduce_sum":
        return np.sum(xd, axis=tuple(case["axes"]) if case["axes"] else None, dtype=xd.dtype)
    return np.roll(xd, case["shift"], case["axes"])


LSE_OPS = ("logcumsumexp", "reduce_logsumexp")
REDUCE_OPS = ("reduce_sum", "reduce_logsumexp")


def out_shape(case):
    if case["op"] not in REDUCE_OPS:
        return tuple(case["shape"])
    if not case["axes"]:
        return ()
    return tuple(d for k, d in enumerate(case["shape"]) if k not in case["axes"])


def close(got, want, dt):
    """got (the peer's output, its own type) against want (reference())."""
    got = widen(got, dt).reshape(np.shape(want))
    if dt == "bool":
        return bool(np.array_equal(got, want))
    if dt[0] in "iu":  # integers wrap; compare modulo 2^bits, exactly
        mask = np.uint64((1 << (8 * np.dtype(NP_TYPES[dt]).itemsize)) - 1)
        d = got.view(np.uint64) - np.asarray(want).view(np.uint64)
        return bool(np.all((d & mask) == 0))
    if not np.size(want):
        return True
    tol = 5e-2 if dt in ("bf16", "f16") else 1e-3
    want = np.asarray(want)
    if not np.all(np.isfinite(want)):  # the log-space ops' -inf: compare as max_err does
        fin = np.isfinite(want)
        scale = max(1.0, float(np.max(np.abs(want[fin]), initial=0.0)))
        return max_err(got, want, "f64") <= tol * scale
    scale = max(1.0, float(np.max(np.abs(want))))
    return bool(np.max(np.abs(got - want)) <= tol * scale)


def max_err(got, want, dt):
    """The largest |got - want| of a float result (inf where one is not
    finite and the other is, or they differ in sign of inf; NaN counts)."""
    got = widen(got, dt).reshape(np.shape(want))
    want = np.asarray(want)
    if not want.size:
        return 0.0
    with np.errstate(invalid="ignore"):
        d = np.abs(got - want)
    same = (got == want) | (np.isnan(got) & np.isnan(want))  # equal infs give NaN above
    d = np.where(same, 0.0, np.where(np.isnan(d), np.inf, d))
    return float(np.max(d))


def drifted(got, want, dt):
    """A log-space result beyond the tolerance that is still the same
    computation: finite wherever the reference is, and equal to it elsewhere
    (the same infinities).  Timed, marked inaccurate."""
    got = widen(got, dt).reshape(np.shape(want))
    want = np.asarray(want)
    fin = np.isfinite(want)
    return bool(np.all(np.isfinite(got[fin])) and np.array_equal(got[~fin], want[~fin]))


def first_diff(got, want, dt):
    """Where a mismatch is, in words (recorded beside the skip)."""
    got = widen(got, dt).reshape(np.shape(want))
    want = np.asarray(want)
    if dt[0] in "iu":
        mask = np.uint64((1 << (8 * np.dtype(NP_TYPES[dt]).itemsize)) - 1)
        bad = (got.view(np.uint64) - want.view(np.uint64)) & mask != 0
        want = (want.view(np.uint64) & mask).astype(NP_TYPES[dt])  # wrapped as the type
        got = got.astype(NP_TYPES[dt])
    elif dt == "bool":
        bad = got != want
    else:
        bad = ~np.isclose(got, want, rtol=1e-3, atol=1e-3)
    idx = np.argwhere(bad)
    if not len(idx):
        return "no element differs (tolerance)"
    i = tuple(idx[0])
    return f"{int(bad.sum())} elements differ; first at {list(map(int, i))}: got {got[i]}, want {want[i]}"


def timeit(fn, min_time, reps):
    """Median ns per call over `reps` batches of about min_time seconds each;
    the calibration (doubling the calls until min_time/5) is the warm-up."""
    n = 1
    while True:
        t0 = time.perf_counter_ns()
        for _ in range(n):
            fn()
        dt = max(time.perf_counter_ns() - t0, 1)
        if dt >= min_time * 1e9 / 5 or n >= 1 << 24:
            break
        n *= 2
    batch = max(1, round(n * min_time * 1e9 / dt))
    samples = []
    for _ in range(reps):
        t0 = time.perf_counter_ns()
        for _ in range(batch):
            fn()
        samples.append((time.perf_counter_ns() - t0) / batch)
    return statistics.median(samples)


# ---- peers: each returns (callable, result getter) or raises Unsupported ----

class Unsupported(Exception):
    pass


def numpy_peer(case, x, threads):
    dt = case["dtype"]
    if dt == "bf16":
        raise Unsupported("numpy has no bfloat16")
    y = np.empty(out_shape(case), dtype=x.dtype)
    if case["op"] == "cumsum":
        a = case["axis"]
        xv = np.flip(x, a) if case["reverse"] else x
        yv = np.flip(y, a) if case["reverse"] else y
        n = x.shape[a]
        if case["exclusive"]:
            idx_hi = [slice(None)] * x.ndim
            idx_hi[a] = slice(1, None)
            idx_0 = [slice(None)] * x.ndim
            idx_0[a] = 0
            dst = yv[tuple(idx_hi)]
            lo = [slice(None)] * x.ndim
            lo[a] = slice(0, n - 1)
            xlo = xv[tuple(lo)]

            def fn():
                np.cumsum(xlo, axis=a, out=dst)
                yv[tuple(idx_0)] = 0
        else:
            def fn():
                np.cumsum(xv, axis=a, out=yv)
        return fn, lambda: y
    if case["op"] == "reduce_sum":
        ax = tuple(case["axes"]) if case["axes"] else None

        def fn():
            np.sum(x, axis=ax, out=y)
        return fn, lambda: y
    if case["op"] == "logcumsumexp":
        a = case["axis"]
        xv = np.flip(x, a) if case["reverse"] else x
        yv = np.flip(y, a) if case["reverse"] else y
        if case["exclusive"]:
            n = x.shape[a]
            hi, lo, first = ([slice(None)] * x.ndim for _ in range(3))
            hi[a], lo[a], first[a] = slice(1, None), slice(0, n - 1), 0
            dst, xlo = yv[tuple(hi)], xv[tuple(lo)]

            def fn():
                np.logaddexp.accumulate(xlo, axis=a, out=dst)
                yv[tuple(first)] = -np.inf
        else:
            def fn():
                np.logaddexp.accumulate(xv, axis=a, out=yv)
        return fn, lambda: y
    if case["op"] == "reduce_logsumexp":
        # the stable way, into buffers made once: max, exp(x - max), sum, log
        ax = tuple(case["axes"]) if case["axes"] else None
        m = np.empty([1 if ax is None or k in ax else d for k, d in enumerate(x.shape)],
                     dtype=x.dtype)
        t = np.empty_like(x)
        ms = m.reshape(y.shape)

        def fn():
            np.max(x, axis=ax, keepdims=True, out=m)
            np.subtract(x, m, out=t)
            np.exp(t, out=t)
            np.sum(t, axis=ax, out=y)
            np.log(y, out=y)
            np.add(y, ms, out=y)
        return fn, lambda: y
    res = {}

    def fn():
        res["y"] = np.roll(x, case["shift"], case["axes"])
    return fn, lambda: res["y"]


def torch_peer(case, x, threads):
    import torch
    torch.set_num_threads(threads)
    dt = case["dtype"]
    try:
        xt = torch.from_numpy(x)
    except TypeError as e:  # torch < 2.3 has no uint16/32/64
        raise Unsupported(f"torch: {e}"[:160])
    if dt == "bf16":
        xt = xt.view(torch.bfloat16)
    yt = torch.empty(out_shape(case), dtype=xt.dtype)
    if case["op"] == "cumsum":
        a = case["axis"]
        if case["reverse"]:
            def fn():
                r = torch.cumsum(torch.flip(xt, [a]), a, dtype=xt.dtype)
                if case["exclusive"]:
                    r -= torch.flip(xt, [a])
                yt.copy_(torch.flip(r, [a]))
        else:
            def fn():
                torch.cumsum(xt, a, dtype=xt.dtype, out=yt)
                if case["exclusive"]:
                    yt.sub_(xt)
    elif case["op"] == "reduce_sum":
        dims = list(case["axes"]) if case["axes"] else list(range(x.ndim))

        def fn():
            torch.sum(xt, dims, dtype=xt.dtype, out=yt)
    elif case["op"] == "logcumsumexp":
        a = case["axis"]
        if case["exclusive"]:
            raise Unsupported("torch.logcumsumexp has no exclusive form")
        if case["reverse"]:
            def fn():
                yt.copy_(torch.flip(torch.logcumsumexp(torch.flip(xt, [a]), a), [a]))
        else:
            def fn():
                torch.logcumsumexp(xt, a, out=yt)
    elif case["op"] == "reduce_logsumexp":
        dims = list(case["axes"]) if case["axes"] else list(range(x.ndim))

        def fn():
            torch.logsumexp(xt, dims, out=yt)
    else:
        res = {}

        def fn():
            res["y"] = torch.roll(xt, case["shift"], case["axes"])
        return fn, lambda: to_np(res["y"], dt)
    return fn, lambda: to_np(yt, dt)


def to_np(t, dt):
    import torch
    if dt == "bf16":
        return t.view(torch.int16).numpy().view(np.uint16)
    return t.numpy()


ONNX_TYPES = {"f32": 1, "u8": 2, "i8": 3, "u16": 4, "i16": 5, "i32": 6, "i64": 7,
              "bool": 9, "f16": 10, "f64": 11, "u32": 12, "u64": 13, "bf16": 16}


def ort_peer(case, x, threads):
    import onnxruntime as ort
    from onnx import helper, TensorProto
    if case["op"] in ("roll", "logcumsumexp"):
        raise Unsupported("ONNX has no " + ("Roll" if case["op"] == "roll" else "LogCumSumExp"))
    dt = case["dtype"]
    et = ONNX_TYPES[dt]
    oshape = list(out_shape(case))
    inp = helper.make_tensor_value_info("x", et, list(case["shape"]))
    outp = helper.make_tensor_value_info("y", et, oshape)
    if case["op"] == "cumsum":
        axis = helper.make_tensor("axis", TensorProto.INT64, [], [case["axis"]])
        node = helper.make_node("CumSum", ["x", "axis"], ["y"],
                                exclusive=int(case["exclusive"]), reverse=int(case["reverse"]))
        graph = helper.make_graph([node], "g", [inp], [outp], [axis])
        opset = 14
    else:
        inits = []
        ins = ["x"]
        if case["axes"]:
            inits.append(helper.make_tensor("axes", TensorProto.INT64, [len(case["axes"])],
                                            case["axes"]))
            ins.append("axes")
        # ReduceSum-13 and ReduceLogSumExp-18 take the axes as an input
        lse = case["op"] == "reduce_logsumexp"
        node = helper.make_node("ReduceLogSumExp" if lse else "ReduceSum", ins, ["y"],
                                keepdims=0)
        graph = helper.make_graph([node], "g", [inp], [outp], inits)
        opset = 18 if lse else 13
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    try:
        sess = ort.InferenceSession(model.SerializeToString(), so,
                                    providers=["CPUExecutionProvider"])
    except Exception as e:  # no kernel for this type
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        opname = {"cumsum": "CumSum-14", "reduce_sum": "ReduceSum-13",
                  "reduce_logsumexp": "ReduceLogSumExp-18"}[case["op"]]
        if "NOT_IMPLEMENTED" in msg:
            raise Unsupported(f"onnxruntime has no CPU kernel for {opname} on {dt}")
        if "Type Error" in msg:
            raise Unsupported(f"ONNX {opname} does not allow {dt}")
        raise Unsupported(f"onnxruntime: {msg[:160]}")
    y = np.empty(oshape, dtype=x.dtype)
    b = sess.io_binding()

    def value(a):  # bf16: the uint16 bits, typed bfloat16 (ReduceLogSumExp has a kernel)
        if dt == "bf16":
            return ort.OrtValue.ortvalue_from_numpy_with_onnx_type(a, et)
        return ort.OrtValue.ortvalue_from_numpy(a)
    b.bind_ortvalue_input("x", value(x))
    b.bind_ortvalue_output("y", value(y))

    def fn():
        sess.run_with_iobinding(b)
    return fn, lambda: y


def openvino_peer(case, x, threads):
    if case["op"] in LSE_OPS:
        raise Unsupported("OpenVINO's opset has no LogCumSumExp or LogSumExp operation")
    import openvino as ov
    try:
        import openvino.opset13 as ops
    except ImportError:
        import openvino.runtime.opset13 as ops
    dt = case["dtype"]
    et = ov.Type.bf16 if dt == "bf16" else ov.Type.boolean if dt == "bool" else x.dtype
    p = ops.parameter(list(case["shape"]), et, name="x")
    if case["op"] == "cumsum":
        n = ops.cumsum(p, ops.constant(np.int64(case["axis"])), case["exclusive"],
                       case["reverse"])
    elif case["op"] == "reduce_sum":
        axes = case["axes"] or list(range(x.ndim))
        n = ops.reduce_sum(p, ops.constant(np.array(axes, np.int64)), False)
    else:
        n = ops.roll(p, ops.constant(np.array(case["shift"], np.int64)),
                     ops.constant(np.array(case["axes"], np.int64)))
    model = ov.Model([n], [p])
    core = ov.Core()
    try:
        cm = core.compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": threads,
                                               "NUM_STREAMS": 1,
                                               "INFERENCE_PRECISION_HINT": "f32"})
    except Exception as e:
        raise Unsupported(f"openvino: {(str(e).splitlines() or [type(e).__name__])[0][:160]}")
    req = cm.create_infer_request()
    if dt == "bf16":  # the uint16 bits, shared, typed bf16
        req.set_input_tensor(ov.Tensor(x, ov.Shape(list(x.shape)), ov.Type.bf16))
    else:
        req.set_input_tensor(ov.Tensor(x, shared_memory=True))

    def fn():
        req.infer()

    def get():
        y = req.get_output_tensor().data
        return y.view(np.uint16) if dt == "bf16" else y
    return fn, get


def scipy_peer(case, x, threads):
    from scipy.special import logsumexp
    if case["op"] != "reduce_logsumexp":
        raise Unsupported("scipy has no " + case["op"])
    if case["dtype"] == "bf16":
        raise Unsupported("scipy has no bfloat16")
    ax = tuple(case["axes"]) if case["axes"] else None
    res = {}

    def fn():
        res["y"] = logsumexp(x, axis=ax)
    return fn, lambda: res["y"]


PEERS = {"numpy": numpy_peer, "torch": torch_peer, "onnxruntime": ort_peer,
         "openvino": openvino_peer, "scipy": scipy_peer}
THREADED = ("torch", "onnxruntime", "openvino")  # numpy has no threads
ISAS = ("scalar", "avx2", "avx512", "neon")


def version(name):
    try:
        mod = __import__(name)
        return getattr(mod, "__version__", None) or getattr(mod, "get_version", lambda: "?")()
    except Exception:
        return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--min-time", type=float, default=0.05)
    ap.add_argument("--only", default="numpy,torch,onnxruntime,openvino,scipy")
    ap.add_argument("--filter", help="regex on the case name (as --benchmark_filter)")
    args = ap.parse_args()
    with open(args.cases) as f:
        cases = json.load(f)
    cases = [c for c in cases if not c.get("sweep")]  # axial's split sweep: no peers
    rx = None
    if args.filter:
        import re
        rx = re.compile(args.filter)

    def runs(case, peer):
        """The thread counts to time this peer at on this case: 1, and the
        case's "threads" for the threaded peers; with --filter, those whose
        axial name (any impl, "/threads:T" for T > 1) it matches, as Google
        Benchmark's filter would."""
        ts = [1] + (list(case.get("threads", [])) if peer in THREADED else [])
        if not rx:
            return ts
        parts = case["case"].split("/")
        names = [case["case"]] + ["/".join(parts[:2] + [i] + parts[2:]) for i in ISAS]
        return [t for t in ts if any(rx.search(n if t == 1 else f"{n}/threads:{t}")
                                     for n in names)]
    versions, results, counts = {}, [], set()
    for peer in args.only.split(","):
        v = version(peer)
        if v is None:
            print(f"peers.py: {peer} is not installed (skipped)", file=sys.stderr)
            continue
        versions[peer] = str(v)
        for case, threads in [(c, t) for c in cases for t in runs(c, peer)]:
            counts.add(threads)
            rec = {"case": case["case"], "peer": peer, "threads": threads}
            try:
                if case["dtype"] == "bool" and case["op"] != "roll":
                    raise Unsupported("bool is not a numeric type for " + case["op"])
                x = make_input(case)
                fn, get = PEERS[peer](case, x, threads)
                fn()
                want = reference(case, x)
                lse = case["op"] in LSE_OPS
                if lse:
                    rec["max_err"] = max_err(get(), want, case["dtype"])
                if not close(get(), want, case["dtype"]):
                    if lse and drifted(get(), want, case["dtype"]):
                        rec["inaccurate"] = first_diff(get(), want, case["dtype"])
                        rec["ns"] = timeit(fn, args.min_time, args.reps)
                        rec["reps"] = args.reps
                    else:
                        rec["skipped"] = "mismatch against the float64 reference"
                        rec["mismatch"] = first_diff(get(), want, case["dtype"])
                else:
                    rec["ns"] = timeit(fn, args.min_time, args.reps)
                    rec["reps"] = args.reps
            except Unsupported as e:
                rec["skipped"] = str(e)
                rec["unsupported"] = True
            except Exception as e:  # a peer failing must not stop the others
                msg = str(e).splitlines()[0][:160] if str(e) else ""
                rec["skipped"] = f"{type(e).__name__}: {msg}"
                if isinstance(e, NotImplementedError) or "NOT_IMPLEMENTED" in msg:
                    rec["unsupported"] = True  # the peer lacks this type or operation
            fn = get = x = None
            results.append(rec)
            shown = f"{rec['ns'] / 1e3:10.1f} us" if "ns" in rec else f"skipped: {rec['skipped']}"
            if "inaccurate" in rec:
                shown += f"  (inaccurate: max error {rec['max_err']:.3g})"
            print(f"  {peer:12s} {case['case']:48s} T={threads:<2d} {shown}", file=sys.stderr)
    with open(args.out, "w") as f:
        json.dump({"peers": versions, "threads": sorted(counts) or [1], "results": results},
                  f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
