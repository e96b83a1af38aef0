#!/usr/bin/env python3
"""Times the runtimes users actually run on axial's benchmark cases, single
threaded, and writes their medians for scripts/report.py.

  peers.py --cases cases.json --out peers.json [--reps 5] [--min-time 0.05]
           [--only numpy,torch,onnxruntime,openvino] [--filter REGEX]

cases.json comes from `axial-bench --cases-json=FILE`.  Each peer is called as
its users call it:
  numpy        np.cumsum(x, axis, out=y) (exclusive: the shifted slice
               cumsum(x[:-1]) -> y[1:], y[0] = 0; reverse: on flipped views,
               no copies); np.sum(x, axis, out=y); np.roll(x, shift, axis)
               (numpy.roll has no out=: it allocates, as users get it).
  torch        torch.set_num_threads(1); tensors share the numpy buffers;
               torch.cumsum(x, d, dtype=x.dtype, out=y) (reverse: flip,
               cumsum, flip; exclusive: cumsum then y -= x);
               torch.sum(x, dims, dtype=x.dtype, out=y); torch.roll(x, s, d).
  onnxruntime  CumSum-14 / ReduceSum-13 models built with the onnx package;
               one session, intra/inter op threads 1, sequential; inputs and
               preallocated outputs bound once with io_binding, the timed call
               is run_with_iobinding.  ONNX has no Roll.
  openvino     CumSum, ReduceSum, Roll from the opset, compiled for CPU with
               INFERENCE_NUM_THREADS=1, NUM_STREAMS=1 and
               INFERENCE_PRECISION_HINT=f32 (no silent bf16); one InferRequest
               with its input tensor sharing the numpy buffer; infer() timed.
Each peer's output is checked once against a float64 numpy reference; a
wrong answer is recorded as a mismatch, never timed.
"""
import argparse
import json
import statistics
import sys
import time

import numpy as np

NP_TYPES = {"f32": np.float32, "f64": np.float64, "i8": np.int8, "u8": np.uint8,
            "i16": np.int16, "u16": np.uint16, "i32": np.int32, "u32": np.uint32,
            "i64": np.int64, "u64": np.uint64, "f16": np.float16}


def make_input(case):
    """The benchmark's own fill: ((i * 7) % 17 - 8) scaled for floats."""
    n = int(np.prod(case["shape"]))
    v = (np.arange(n, dtype=np.int64) * 7 % 17 - 8)
    dt = case["dtype"]
    if dt == "bf16":
        f = (v * 0.125).astype(np.float32)
        return (f.view(np.uint32) >> 16).astype(np.uint16).reshape(case["shape"])
    t = NP_TYPES[dt]
    if np.issubdtype(t, np.floating):
        return (v * 0.125).astype(t).reshape(case["shape"])
    return v.astype(t).reshape(case["shape"])


def as_f64(a, dt):
    if dt == "bf16":
        return (a.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return a.astype(np.float64)


def reference(case, x):
    """float64 result of the case (the check, not the thing timed)."""
    xd = as_f64(x, case["dtype"])
    if case["op"] == "cumsum":
        a = case["axis"]
        v = np.flip(xd, a) if case["reverse"] else xd
        c = np.cumsum(v, axis=a)
        if case["exclusive"]:
            c = c - v
        return np.flip(c, a) if case["reverse"] else c
    if case["op"] == "reduce_sum":
        return np.sum(xd, axis=tuple(case["axes"]) if case["axes"] else None)
    return np.roll(xd, case["shift"], case["axes"])


def out_shape(case):
    if case["op"] != "reduce_sum":
        return tuple(case["shape"])
    if not case["axes"]:
        return ()
    return tuple(d for k, d in enumerate(case["shape"]) if k not in case["axes"])


def close(got, want, dt):
    got = np.asarray(got, dtype=np.float64).reshape(np.shape(want))
    scale = max(1.0, float(np.max(np.abs(want))) if np.size(want) else 1.0)
    tol = 0 if dt[0] in "iu" else (5e-2 if dt in ("bf16", "f16") else 1e-3)
    if dt[0] in "iu":  # integers wrap; compare modulo the width
        bits = 8 * np.dtype(NP_TYPES[dt]).itemsize
        return bool(np.all((got.astype(np.int64) - want.astype(np.int64)) % (1 << bits) == 0))
    return bool(np.max(np.abs(got - want)) <= tol * scale) if np.size(want) else True


def timeit(fn, min_time, reps):
    fn()
    t0 = time.perf_counter_ns()
    fn()
    one = max(time.perf_counter_ns() - t0, 1)
    batch = max(1, int(min_time * 1e9 / one))
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


def numpy_peer(case, x):
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
            src = np.take(xv, np.arange(0, n - 1), axis=a)  # a copy: do it once, outside
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
            del src
        else:
            def fn():
                np.cumsum(xv, axis=a, out=yv)
        return fn, lambda: y
    if case["op"] == "reduce_sum":
        ax = tuple(case["axes"]) if case["axes"] else None

        def fn():
            np.sum(x, axis=ax, out=y)
        return fn, lambda: y
    res = {}

    def fn():
        res["y"] = np.roll(x, case["shift"], case["axes"])
    return fn, lambda: res["y"]


def torch_peer(case, x):
    import torch
    torch.set_num_threads(1)
    dt = case["dtype"]
    if dt in ("u16", "u32", "u64"):
        raise Unsupported(f"torch has no {dt} arithmetic")
    xt = torch.from_numpy(x)
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
              "f16": 10, "f64": 11, "u32": 12, "u64": 13, "bf16": 16}


def ort_peer(case, x):
    import onnx
    import onnxruntime as ort
    from onnx import helper, TensorProto
    if case["op"] == "roll":
        raise Unsupported("ONNX has no Roll")
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
        node = helper.make_node("ReduceSum", ins, ["y"], keepdims=0)
        graph = helper.make_graph([node], "g", [inp], [outp], inits)
        opset = 13
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    try:
        sess = ort.InferenceSession(model.SerializeToString(), so,
                                    providers=["CPUExecutionProvider"])
    except Exception as e:  # no kernel for this type
        raise Unsupported(f"onnxruntime: {str(e).splitlines()[0][:120]}")
    y = np.empty(oshape, dtype=x.dtype)
    b = sess.io_binding()
    b.bind_ortvalue_input("x", ort.OrtValue.ortvalue_from_numpy(x))
    b.bind_ortvalue_output("y", ort.OrtValue.ortvalue_from_numpy(y))

    def fn():
        sess.run_with_iobinding(b)
    return fn, lambda: y


def openvino_peer(case, x):
    import openvino as ov
    try:
        import openvino.opset13 as ops
    except ImportError:
        import openvino.runtime.opset13 as ops
    dt = case["dtype"]
    if dt == "bf16":
        raise Unsupported("openvino: bf16 input not wired here")
    p = ops.parameter(list(case["shape"]), x.dtype, name="x")
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
        cm = core.compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": 1, "NUM_STREAMS": 1,
                                               "INFERENCE_PRECISION_HINT": "f32"})
    except Exception as e:
        raise Unsupported(f"openvino: {str(e).splitlines()[0][:120]}")
    req = cm.create_infer_request()
    req.set_input_tensor(ov.Tensor(x, shared_memory=True))

    def fn():
        req.infer()
    return fn, lambda: req.get_output_tensor().data


PEERS = {"numpy": numpy_peer, "torch": torch_peer, "onnxruntime": ort_peer,
         "openvino": openvino_peer}


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
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--min-time", type=float, default=0.05)
    ap.add_argument("--only", default="numpy,torch,onnxruntime,openvino")
    ap.add_argument("--filter", help="regex on the case name (as --benchmark_filter)")
    args = ap.parse_args()
    with open(args.cases) as f:
        cases = json.load(f)
    if args.filter:
        import re
        rx = re.compile(args.filter)
        # match the axial name with any impl, as Google Benchmark's filter would
        cases = [c for c in cases if rx.search(c["case"]) or any(
            rx.search("/".join(c["case"].split("/")[:2] + [i] + c["case"].split("/")[2:]))
            for i in ("scalar", "avx2", "avx512", "neon"))]
    versions, results = {}, []
    for peer in args.only.split(","):
        v = version(peer)
        if v is None:
            print(f"peers.py: {peer} is not installed (skipped)", file=sys.stderr)
            continue
        versions[peer] = str(v)
        for case in cases:
            x = make_input(case)
            rec = {"case": case["case"], "peer": peer}
            try:
                fn, get = PEERS[peer](case, x)
                fn()
                if not close(as_f64(np.asarray(get()), case["dtype"]), reference(case, x),
                             case["dtype"]):
                    rec["skipped"] = "mismatch against the float64 reference"
                else:
                    rec["ns"] = timeit(fn, args.min_time, args.reps)
                    rec["reps"] = args.reps
            except Unsupported as e:
                rec["skipped"] = str(e)
                rec["unsupported"] = True
            except Exception as e:  # a peer failing must not stop the others
                rec["skipped"] = f"{type(e).__name__}: {str(e).splitlines()[0][:120] if str(e) else ''}"
            results.append(rec)
            shown = f"{rec['ns'] / 1e3:10.1f} us" if "ns" in rec else f"skipped: {rec['skipped']}"
            print(f"  {peer:12s} {case['case']:48s} {shown}", file=sys.stderr)
    with open(args.out, "w") as f:
        json.dump({"peers": versions, "threads": 1, "results": results}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
