#!/usr/bin/env python3
"""Prints the benchmark tables: one per size and operator, one row per case,
axial's best ISA beside the scalar kernel, the bandwidth probe and every
peer, all measured in one run.

  report.py --bench bench.json [--peers peers.json] [--cases cases.json]
            [--markdown out.md] [--reps N]

bench.json is Google Benchmark's JSON from axial-bench, run with
--benchmark_repetitions=N --benchmark_report_aggregates_only=true: the
medians are used.  Benchmark names are {op}/{type}/{impl}/{rest}; the case is
{op}/{type}/{rest}.  peers.json comes from scripts/peers.py, cases.json from
`axial-bench --cases-json` (its order and byte sizes; without it the sizes
are computed from the shapes).  Runs with any python3, no packages needed.
"""
import argparse
import json
import math
import sys

ISAS = ["scalar", "avx2", "avx512", "neon"]
BIN_PEERS = ["loop", "eigen", "onednn"]
PY_PEERS = ["numpy", "torch", "onnxruntime", "openvino"]
OPS = ["cumsum", "reduce_sum", "roll"]
ITEMSIZE = {"f32": 4, "f64": 8, "f16": 2, "bf16": 2, "i8": 1, "u8": 1, "i16": 2,
            "u16": 2, "i32": 4, "u32": 4, "i64": 8, "u64": 8, "bool": 1}

LEGEND = """\
Columns: best = axial's fastest available ISA (lowest median time among
scalar/avx2/avx512/neon not skipped); elem/ns = its items_per_second / 1e9 (per wall-clock second);
GB/s = its bytes_per_second / 1e9 (input + output bytes); x scalar = best ISA
speed / scalar kernel speed; of probe = probe time / axial time, the fraction
of the bandwidth ceiling reached (1.0 = at bandwidth; probe: read-sum for
ReduceSum, memcpy for CumSum and Roll); peer columns = peer time / axial time
(> 1: axial is faster; < 1: the peer is faster).  '-' = no figure (the peer
has no such operation or type, or did not run); 'skip' = the peer was skipped
or failed (the reasons are listed above the tables).  The "per ISA" tables
give every ISA that ran: probe time / its time, and scalar time / its time.
All single-threaded."""


def split(name):
    parts = name.split("/")
    # an aggregate's run_name keeps a '/real_time' or '/manual_time' suffix
    while parts and parts[-1] in ("real_time", "manual_time", "process_time"):
        parts = parts[:-1]
    if len(parts) < 3:
        return name, ""
    op, dtype, impl, rest = parts[0], parts[1], parts[2], parts[3:]
    return "/".join([op, dtype] + rest), impl


def wall_scale(b):
    """cpu_time / real_time of one entry (1 when unknown)."""
    real, cpu = b.get("real_time") or 0.0, b.get("cpu_time") or 0.0
    return cpu / real if real > 0 and cpu > 0 else 1.0


def load_bench(path):
    with open(path) as f:
        data = json.load(f)
    med, skipped, order = {}, {}, []
    for b in data.get("benchmarks", []):
        name = b.get("run_name", b["name"])
        case, impl = split(name)
        if case not in order:
            order.append(case)
        if b.get("error_occurred"):
            skipped[(case, impl)] = b.get("error_message", "skipped")
            continue
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        if b.get("run_type") == "iteration" and (case, impl) in med:
            continue  # without aggregates: keep the first repetition
        unit = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
        med[(case, impl)] = {
            "ns": b["real_time"] * unit,
            # Google Benchmark's rates are per CPU second; rescale them to
            # wall-clock time, which every ratio here uses (a shared VM
            # steals time: the two can differ)
            "items": b.get("items_per_second", 0.0) * wall_scale(b),
            "bytes": b.get("bytes_per_second", 0.0) * wall_scale(b),
        }
    return data.get("context", {}), med, skipped, order


def case_bytes(case, info):
    if info and info.get("bytes"):
        return int(info["bytes"])
    parts = case.split("/")
    n = 1
    try:
        for d in parts[2].split("x"):
            n *= int(d)
    except (IndexError, ValueError):
        return 0
    return n * ITEMSIZE.get(parts[1], 1)


def size_class(b):
    """The nearest power of two: cases of one size class share a table."""
    return 1 << max(0, round(math.log2(b))) if b > 0 else 0


def size_label(b):
    if b >= 1 << 20 and b % (1 << 20) == 0:
        return f"{b >> 20} MiB"
    if b >= 1 << 10 and b % (1 << 10) == 0:
        return f"{b >> 10} KiB"
    return f"{b} B"


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
    ap.add_argument("--cases")
    ap.add_argument("--markdown")
    ap.add_argument("--reps", help="repetitions per median (for the header)")
    args = ap.parse_args()

    ctx, med, skipped, order = load_bench(args.bench)
    infos = {}
    if args.cases:
        with open(args.cases) as f:
            for c in json.load(f):
                infos[c["case"]] = c
    py, py_skip, py_versions, py_unsup = {}, {}, {}, set()
    if args.peers:
        with open(args.peers) as f:
            pd = json.load(f)
        py_versions = pd.get("peers", {})
        for r in pd.get("results", []):
            if "ns" in r:
                py[(r["case"], r["peer"])] = r["ns"]
            elif r.get("unsupported"):
                py_skip[(r["case"], r["peer"])] = r["skipped"]
                py_unsup.add((r["case"], r["peer"]))
            else:
                why = r.get("skipped", "skipped")
                if r.get("mismatch"):
                    why += f" ({r['case']}: {r['mismatch']})"
                py_skip[(r["case"], r["peer"])] = why

    # cases: cases.json's order, then any the bench has that it lacks
    cases = [c for c in infos if any(k[0] == c for k in list(med) + list(skipped))]
    cases += [c for c in order if c not in cases]

    peers = [p for p in BIN_PEERS if any(k[1] == p for k in list(med) + list(skipped))]
    peers += [p for p in PY_PEERS if any(k[1] == p for k in list(py) + list(py_skip))]
    header = ["case", "best", "elem/ns", "GB/s", "x scalar", "of probe"] + peers

    def lacks(case, p):
        if (case, p) in skipped:
            return unsupported(skipped[(case, p)])
        return (case, p) in py_unsup

    # per-ISA view: every ISA that ran, its fraction of the probe and its
    # speed-up over the scalar kernel (the targets are per ISA)
    isas = [i for i in ISAS if any(k[1] == i for k in med)]
    isa_header = (["case"] + [f"{i} of probe" for i in isas]
                  + [f"{i} x scalar" for i in isas if i != "scalar"])
    isa_groups = {}

    groups = {}  # (bytes, op) -> rows
    for case in cases:
        op = case.split("/")[0]
        avail = [(med[(case, i)]["ns"], i) for i in ISAS if (case, i) in med]
        if avail:
            t, best = min(avail)
            a = med[(case, best)]
            row = [case, best, f"{a['items'] / 1e9:.3g}", f"{a['bytes'] / 1e9:.3g}"]
            sc = med.get((case, "scalar"))
            row.append(fmt_ratio(sc["ns"] / t if sc else None))
            pr = med.get((case, "probe"))
            row.append(fmt_ratio(pr["ns"] / t if pr else None))
        else:  # no ISA ran: no ratios
            t = None
            row = [case, "skip", "-", "-", "-", "-"]
        for p in peers:
            if (case, p) in med or (case, p) in py:
                pt = med[(case, p)]["ns"] if (case, p) in med else py[(case, p)]
                row.append(fmt_ratio(pt / t) if t else "-")
            elif (case, p) in skipped or (case, p) in py_skip:
                row.append("-" if lacks(case, p) else "skip")
            else:
                row.append("-")
        key = (size_class(case_bytes(case, infos.get(case))),
               OPS.index(op) if op in OPS else len(OPS), op)
        groups.setdefault(key, []).append(row)
        pr, sc = med.get((case, "probe")), med.get((case, "scalar"))
        irow = [case]
        irow += [fmt_ratio(pr["ns"] / med[(case, i)]["ns"]) if pr and (case, i) in med else "-"
                 for i in isas]
        irow += [fmt_ratio(sc["ns"] / med[(case, i)]["ns"]) if sc and (case, i) in med else "-"
                 for i in isas if i != "scalar"]
        isa_groups.setdefault(key, []).append(irow)

    allrows = [r for rows in groups.values() for r in rows]
    widths = [max(len(str(r[i])) for r in allrows + [header]) for i in range(len(header))]

    def line(r):
        return "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                         for i, (c, w) in enumerate(zip(r, widths)))

    top = []
    top.append(f"axial benchmark: {ctx.get('date', '')}, {ctx.get('num_cpus', '?')} CPUs at "
               f"{ctx.get('mhz_per_cpu', '?')} MHz {ctx.get('host_name', '')}; medians of "
               f"{args.reps or '?'} repetitions; single-threaded; ratios within one run")
    isa_skips = sorted({f"{i}: {m}" for (c, i), m in skipped.items() if i in ISAS})
    for s in isa_skips:
        top.append(f"  skipped ISA  {s}")
    if not isa_skips:
        top.append("  skipped ISA  none")
    all_skips = [(k, m) for k, m in list(skipped.items()) + list(py_skip.items())
                 if k[1] not in ISAS]
    for tag, want in (("'-'   ", True), ("'skip'", False)):
        reasons = sorted({f"{p}: {m}" for (c, p), m in all_skips if lacks(c, p) == want})
        for s in reasons[:40]:
            top.append(f"  {tag} {s[:220]}")
        if len(reasons) > 40:
            top.append(f"  {tag} ... and {len(reasons) - 40} more reasons")
    if py_versions:
        top.append("  python peers: " + ", ".join(f"{k} {v}" for k, v in py_versions.items()))

    text, md = list(top), list(top)
    for (b, _, op), rows in sorted(groups.items()):
        title = f"{op}, {size_label(b)}" if b else op
        text += ["", f"== {title}", line(header)] + [line(r) for r in rows]
        md += ["", f"### {title}", "",
               "| " + " | ".join(header) + " |",
               "|" + "".join("---|" if i == 0 else "---:|" for i in range(len(header)))]
        md += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    for (b, _, op), rows in sorted(isa_groups.items()):
        title = f"{op}, {size_label(b)}, per ISA" if b else f"{op}, per ISA"
        iw = [max(len(str(r[i])) for r in rows + [isa_header]) for i in range(len(isa_header))]
        text += ["", f"== {title}"]
        text += ["  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                           for i, (c, w) in enumerate(zip(r, iw))) for r in [isa_header] + rows]
        md += ["", f"### {title}", "",
               "| " + " | ".join(isa_header) + " |",
               "|" + "".join("---|" if i == 0 else "---:|" for i in range(len(isa_header)))]
        md += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    text += ["", LEGEND]
    md += ["", LEGEND]
    print("\n".join(text))
    if args.markdown:
        with open(args.markdown, "w") as f:
            # keep the list lines apart in Markdown
            f.write("\n".join(x + "  " if x.startswith("  ") or x == top[0] else x
                              for x in md) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
