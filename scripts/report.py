#!/usr/bin/env python3
"""Prints the benchmark table: one row per case, axial's best ISA beside the
scalar kernel, the bandwidth probe and every peer, all measured in one run.

  report.py --bench bench.json [--peers peers.json] [--markdown out.md]

bench.json is Google Benchmark's JSON from axial-bench, run with
--benchmark_repetitions=N --benchmark_report_aggregates_only=true: the
medians are used.  Benchmark names are {op}/{type}/{impl}/{rest}; the case is
{op}/{type}/{rest}.  peers.json comes from scripts/peers.py.
"""
import argparse
import json
import sys

ISAS = ["scalar", "avx2", "avx512", "neon"]
BIN_PEERS = ["loop", "eigen", "onednn"]
PY_PEERS = ["numpy", "torch", "onnxruntime", "openvino"]

LEGEND = """\
Columns: best = axial's fastest available ISA; elem/ns and GB/s (input + output
bytes) are its median figures; x scalar = best ISA speed / scalar kernel speed;
of probe = probe time / axial time (1.0 = at the bandwidth ceiling: read-sum for
ReduceSum, memcpy for CumSum and Roll); peer columns = peer time / axial time
(> 1: axial is faster; < 1: the peer is faster).  '-' = the peer has no such
operation or type; 'skip' = skipped (the reasons are listed above the table)."""


def split(name):
    parts = name.split("/")
    # run_name of an aggregate has no /real_time suffix in 1.7 ('.../real_time' kept)
    if parts[-1] == "real_time":
        parts = parts[:-1]
    op, dtype, impl, rest = parts[0], parts[1], parts[2], "/".join(parts[3:])
    return f"{op}/{dtype}/{rest}", impl


def load_bench(path):
    with open(path) as f:
        data = json.load(f)
    med, skipped = {}, {}
    for b in data["benchmarks"]:
        name = b.get("run_name", b["name"])
        case, impl = split(name)
        if b.get("error_occurred"):
            skipped[(case, impl)] = b.get("error_message", "skipped")
            continue
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        unit = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
        med[(case, impl)] = {
            "ns": b["real_time"] * unit,
            "items": b.get("items_per_second", 0.0),
            "bytes": b.get("bytes_per_second", 0.0),
        }
    return data.get("context", {}), med, skipped


def size_of(case):
    shape = case.split("/")[2]
    n = 1
    for d in shape.split("x"):
        n *= int(d)
    return n


def unsupported(reason):
    """The peer lacks the operation or type (shown '-'), rather than failing."""
    return any(k in reason for k in ("no such operation", ": no ", "not wired",
                                     "has no ", "unimplemented"))


def fmt_ratio(v):
    if v is None:
        return "-"
    if isinstance(v, str):
        return v
    return f"{v:.2f}" if v < 10 else f"{v:.1f}" if v < 100 else f"{v:.0f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", required=True)
    ap.add_argument("--peers")
    ap.add_argument("--markdown")
    ap.add_argument("--reps", help="repetitions per median (for the header)")
    args = ap.parse_args()

    ctx, med, skipped = load_bench(args.bench)
    py = {}
    py_skip = {}
    py_versions = {}
    if args.peers:
        with open(args.peers) as f:
            pd = json.load(f)
        py_versions = pd.get("peers", {})
        for r in pd.get("results", []):
            if "ns" in r:
                py[(r["case"], r["peer"])] = r["ns"]
            elif r.get("unsupported"):
                py_skip[(r["case"], r["peer"])] = "no such operation or type: " + r["skipped"]
            else:
                py_skip[(r["case"], r["peer"])] = r.get("skipped", "skipped")

    cases = []
    for (case, impl) in list(med) + list(skipped):
        if case not in cases:
            cases.append(case)

    peers = [p for p in BIN_PEERS if any(k[1] == p for k in med)]
    peers += [p for p in PY_PEERS if any(k[1] == p for k in py)]
    header = ["case", "best", "elem/ns", "GB/s", "x scalar", "of probe"] + peers
    rows = []
    for case in cases:
        avail = [(med[(case, i)]["ns"], i) for i in ISAS if (case, i) in med]
        if not avail:
            continue
        t, best = min(avail)
        a = med[(case, best)]
        row = [case, best, f"{a['items'] / 1e9:.3g}", f"{a['bytes'] / 1e9:.3g}"]
        sc = med.get((case, "scalar"))
        row.append(fmt_ratio(sc["ns"] / t if sc else None))
        pr = med.get((case, "probe"))
        row.append(fmt_ratio(pr["ns"] / t if pr else None))
        for p in peers:
            if (case, p) in med:
                row.append(fmt_ratio(med[(case, p)]["ns"] / t))
            elif (case, p) in py:
                row.append(fmt_ratio(py[(case, p)] / t))
            elif (case, p) in skipped or (case, p) in py_skip:
                reason = skipped.get((case, p)) or py_skip.get((case, p), "")
                row.append("-" if unsupported(reason) else "skip")
            else:
                row.append("-")
        rows.append(row)

    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    out = []
    cpu = ctx.get("host_name", "")
    out.append(f"axial benchmark: {ctx.get('date', '')}, {ctx.get('num_cpus', '?')} CPUs at "
               f"{ctx.get('mhz_per_cpu', '?')} MHz {cpu}; medians of "
               f"{args.reps or '?'} repetitions; ratios within one run")
    isa_skips = sorted({f"{i}: {m}" for (c, i), m in skipped.items() if i in ISAS})
    for s in isa_skips:
        out.append(f"  skipped ISA  {s}")
    peer_skips = sorted({f"{i}: {m}" for (c, i), m in list(skipped.items()) + list(py_skip.items())
                         if i not in ISAS})
    for s in peer_skips[:30]:
        out.append(f"  skipped peer {s}")
    if py_versions:
        out.append("  python peers: " + ", ".join(f"{k} {v}" for k, v in py_versions.items()))
    out.append("")
    out.append("  ".join(str(h).ljust(w) if i == 0 else str(h).rjust(w)
                         for i, (h, w) in enumerate(zip(header, widths))))
    for r in rows:
        out.append("  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                             for i, (c, w) in enumerate(zip(r, widths))))
    out.append("")
    out.append(LEGEND)
    text = "\n".join(out)
    print(text)

    if args.markdown:
        md = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        for r in rows:
            md.append("| " + " | ".join(str(c) for c in r) + " |")
        with open(args.markdown, "w") as f:
            f.write("\n".join(out[: out.index("")]) + "\n\n" + "\n".join(md) + "\n\n" + LEGEND + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
