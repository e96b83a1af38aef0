#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Prints the benchmark tables: one per size and operator, one row per case,
axial's best ISA beside the scalar kernel, the bandwidth probe and every
peer, all measured in one run.

  report.py --bench bench.json [--peers peers.json] [--cases cases.json]
            [--markdown out.md] [--reps N] [--svg DIR [--machine TEXT]]

bench.json is Google Benchmark's JSON from axial-bench, run with
--benchmark_repetitions=N --benchmark_report_aggregates_only=true: the
medians are used.  Benchmark names are {op}/{type}/{impl}/{rest}; the case is
{op}/{type}/{rest}.  peers.json comes from scripts/peers.py, cases.json from
`axial-bench --cases-json` (its order and byte sizes; without it the sizes
are computed from the shapes).  Runs with any python3, no packages needed.

Names ending in "/threads:T" (the threads dimension), "/sweep" (the split
sweep) and "parallel_for/..." (the pool's empty parallel_for) get their own
tables after the single-thread ones: see THREADS_LEGEND.

--svg DIR also writes SVG plots there (plain SVG, no packages): for each op
and size, speed-{op}-{size}.svg, the GB/s of every case for axial on each
ISA, the probe(s) and every peer (log scale); and where the threads
dimension ran, threads-{op}-{size}.svg, each case's speed-up over one thread
at every T for axial, the T-thread probe and the threaded peers.  Their
titles name the machine (--machine, e.g. the CPU model; else bench.json's
host and CPU count) and the run's date.  The text and Markdown are the same
with or without --svg.
"""
import argparse
import json
import math
import os
import sys

# "default": the library's own choice, benchmarked where it differs from every
# one ISA (it runs some ops on another ISA than the active one)
ISAS = ["scalar", "avx2", "avx512", "neon", "default"]
BIN_PEERS = ["loop", "eigen", "onednn"]
PY_PEERS = ["numpy", "torch", "onnxruntime", "openvino", "scipy"]
LSE_OPS = ["logcumsumexp", "reduce_logsumexp"]
OPS = ["cumsum", "reduce_sum", "roll"] + LSE_OPS
ITEMSIZE = {"f32": 4, "f64": 8, "f16": 2, "bf16": 2, "i8": 1, "u8": 1, "i16": 2,
            "u16": 2, "i32": 4, "u32": 4, "i64": 8, "u64": 8, "bool": 1}

LEGEND = """\
Columns: best = axial's fastest available ISA (lowest median time among
scalar/avx2/avx512/neon, and default where the library chooses per op, not
skipped); elem/ns = its items_per_second / 1e9 (per wall-clock second);
GB/s = its bytes_per_second / 1e9 (input + output bytes); x scalar = best ISA
speed / scalar kernel speed; of probe = probe time / axial time, the fraction
of the bandwidth ceiling reached (1.0 = at bandwidth; probe: read-sum for
ReduceSum, memcpy for CumSum and Roll); peer columns = peer time / axial time
(> 1: axial is faster; < 1: the peer is faster).  '-' = no figure (the peer
has no such operation or type, or did not run); 'skip' = the peer was skipped
or failed (the reasons are listed above the tables).  The "per ISA" tables
give every ISA that ran: probe time / its time, and scalar time / its time.
The log-space ops (logcumsumexp, reduce_logsumexp) add "of exp" = the exp
probe's time on the best ISA (exp_{isa}: one libm or SLEEF exp per element,
the ceiling of a one-exp kernel) / axial's time, and their "vs exp probe and
peers" tables give, per ISA, ns per element, "x exp" = axial time / that
ISA's exp-probe time (the target: <= 2 for ReduceLogSumExp on AVX-512),
"x cache" = ns per element of the same case at the cache-resident size / at
this size (the target: >= 0.8 from memory) and peer time / axial time for
numpy, torch, ONNX Runtime and scipy.  A peer
ratio marked '*' was timed although its result drifted beyond the check's
tolerance (listed above the tables with its largest error).
All single-threaded."""

THREADS_LEGEND = """\
Threads tables: one row per case and thread count T.  axial runs the ISA
dispatch picks (column isa): row "1" is the plain call (axial_cumsum ...),
the baseline of every speed-up; row "1 pool" is the _ex call with a 1-thread
axial_pool (its "x 1 thread" is the pool's overhead: 1.00 = none); row T is
the _ex call with a T-thread axial_pool.  GB/s = input + output bytes per
wall-clock second; x 1 thread = plain-call time / this time; of T-probe =
T-thread probe time / axial time (the probe split into T contiguous parts,
one per thread: read-sum for ReduceSum, memcpy for CumSum and Roll; at T = 1
the single-thread probe); probe x 1 = the T-thread probe's own speed-up over
one thread (what the memory system allows); cpu/wall = process CPU time /
wall time over axial's timed loop (about T when T threads work; pool threads
that spin while waiting count too; well under 1 on a loaded machine); ran =
the threads that ran 5% of that loop or more; target = "yes" where x 1 thread >= 0.9 T
or of T-probe >= 0.9 (the target for 1 MiB and more; "n/a" below);
peer columns = the peer's time at the same T / axial's time at T (> 1: axial
is faster): Eigen on a ThreadPoolDevice of T threads, oneDNN with T OpenMP
threads, PyTorch set_num_threads(T), ONNX Runtime intra_op_num_threads=T,
OpenVINO INFERENCE_NUM_THREADS=T.  Split sweep: the plain call and _ex with
a 2-thread pool on 1-D f32 inputs; plain / 2 threads > 1 means splitting
pays.  Empty parallel_for: one parallel_for of a T-thread pool with T no-op
tasks."""


def split(name):
    """(case, impl, threads): threads is 0 for a row without "/threads:T"."""
    parts = name.split("/")
    # an aggregate's run_name keeps a '/real_time' or '/manual_time' suffix
    while parts and parts[-1] in ("real_time", "manual_time", "process_time"):
        parts = parts[:-1]
    threads = 0
    if parts and parts[-1].startswith("threads:") and parts[-1][8:].isdigit():
        threads = int(parts[-1][8:])
        parts = parts[:-1]
    if len(parts) < 3:
        return "/".join(parts), "", threads
    op, dtype, impl, rest = parts[0], parts[1], parts[2], parts[3:]
    return "/".join([op, dtype] + rest), impl, threads


def wall_scale(b):
    """cpu_time / real_time of one entry (1 when unknown)."""
    real, cpu = b.get("real_time") or 0.0, b.get("cpu_time") or 0.0
    return cpu / real if real > 0 and cpu > 0 else 1.0


def load_bench(path):
    with open(path) as f:
        data = json.load(f)
    med, skipped, order = {}, {}, []
    # threads dimension, sweep, parallel_for: keyed (case, impl, threads)
    tmed, tskipped = {}, {}
    for b in data.get("benchmarks", []):
        name = b.get("run_name", b["name"])
        if name.startswith(("streams/", "shards/")):
            continue  # their own table: pieces_table
        case, impl, threads = split(name)
        extra = threads or case.endswith("/sweep") or case.startswith("parallel_for/")
        m, sk = (tmed, tskipped) if extra else (med, skipped)
        key = (case, impl, threads) if extra else (case, impl)
        if not extra and case not in order:
            order.append(case)
        if b.get("error_occurred"):
            sk[key] = b.get("error_message", "skipped")
            continue
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        if b.get("run_type") == "iteration" and key in m:
            continue  # without aggregates: keep the first repetition
        unit = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
        m[key] = {
            "cpu_per_wall": b.get("cpu_per_wall"),
            "threads_ran": b.get("threads_ran"),
            "ns": b["real_time"] * unit,
            # Google Benchmark's rates are per CPU second; rescale them to
            # wall-clock time, which every ratio here uses (a shared VM
            # steals time: the two can differ)
            "items": b.get("items_per_second", 0.0) * wall_scale(b),
            "bytes": b.get("bytes_per_second", 0.0) * wall_scale(b),
        }
    return data.get("context", {}), med, skipped, order, tmed, tskipped


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


def table(title, header, rows):
    """A plain-text table and its Markdown, under one title."""
    w = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    text = ["", f"== {title}"]
    text += ["  ".join(str(c).ljust(x) if i == 0 else str(c).rjust(x)
                       for i, (c, x) in enumerate(zip(r, w))) for r in [header] + rows]
    md = ["", f"### {title}", "", "| " + " | ".join(header) + " |",
          "|" + "".join("---|" if i == 0 else "---:|" for i in range(len(header)))]
    md += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return text, md


def threads_tables(ctx, med, skipped, tmed, tskipped, py, py_skip, tpy, tpy_skip, tpy_unsup,
                   cases, infos, lacks):
    """The threads dimension, the split sweep and the empty parallel_for."""
    text, md = [], []
    tcases = [c for c in cases if any(k[0] == c and k[2] for k in list(tmed) + list(tskipped))]
    tcases += [k[0] for k in list(tmed) + list(tskipped)
               if k[2] and k[0] not in tcases and not k[0].endswith("/sweep")
               and not k[0].startswith("parallel_for/")]
    tcases = list(dict.fromkeys(tcases))
    counts = sorted({k[2] for k in list(tmed) + list(tskipped) if k[2] > 1})
    isa = ctx.get("threads_isa")
    bin_peers = [p for p in ("eigen", "onednn")
                 if any(k[1] == p for k in list(tmed) + list(tskipped))]
    py_peers = [p for p in ("torch", "onnxruntime", "openvino")
                if any(k[1] == p for k in list(tpy) + list(tpy_skip))]
    peers = bin_peers + py_peers
    header = (["case", "threads", "isa", "GB/s", "x 1 thread", "of T-probe", "probe x 1",
               "cpu/wall", "ran", "target"] + peers)
    groups = {}

    def ratio(a, b):
        return fmt_ratio(a / b) if a and b else "-"

    for case in tcases:
        op = case.split("/")[0]
        nbytes = case_bytes(case, infos.get(case))
        ai = isa or next((k[1] for k in tmed if k[0] == case and k[2] and k[1] in ISAS), None)
        plain = med.get((case, ai))
        probe1 = med.get((case, "probe"))
        rows = []

        def row(label, a, probe, peer_cells, threads):
            t = a["ns"] if a else None
            x1 = plain["ns"] / t if plain and t else None
            ofp = probe["ns"] / t if probe and t else None
            if threads < 2 or t is None:
                target = "-"
            elif nbytes < 1 << 20:
                target = "n/a"
            else:
                target = "yes" if (x1 and x1 >= 0.9 * threads) or (ofp and ofp >= 0.9) else "no"
            cpw = a.get("cpu_per_wall") if a else None
            ran = a.get("threads_ran") if a else None
            return [case, label, ai or "-",
                    f"{a['bytes'] / 1e9:.3g}" if a and a["bytes"] else "-",
                    fmt_ratio(x1), fmt_ratio(ofp),
                    ratio(probe1["ns"] if probe1 else None, probe["ns"] if probe else None),
                    f"{cpw:.2f}" if cpw is not None else "-",
                    f"{ran:.0f}" if ran is not None else "-", target] + peer_cells

        def cell(t, pt, sk, unsup):
            if pt is not None:
                return fmt_ratio(pt / t) if t else "-"
            if sk is not None:
                return "-" if unsup else "skip"
            return "-"

        # T = 1: the plain call and the single-thread peers
        t1 = plain["ns"] if plain else None
        cells = []
        for p in peers:
            pt = (med.get((case, p)) or {}).get("ns") if p in bin_peers else py.get((case, p))
            sk = skipped.get((case, p)) if p in bin_peers else py_skip.get((case, p))
            cells.append(cell(t1, pt, sk, sk is not None and lacks(case, p)))
        if ai in ISAS and ((case, ai) in med or (case, ai) in skipped):
            rows.append(row("1", plain, probe1, cells, 1))
        pool1 = tmed.get((case, ai, 1))
        if pool1 or (case, ai, 1) in tskipped:
            rows.append(row("1 pool", pool1, probe1, ["-"] * len(peers), 1))
        for n in counts:
            a = tmed.get((case, ai, n))
            if not a and (case, ai, n) not in tskipped:
                continue
            t = a["ns"] if a else None
            cells = []
            for p in peers:
                if p in bin_peers:
                    pt = (tmed.get((case, p, n)) or {}).get("ns")
                    sk = tskipped.get((case, p, n))
                    un = sk is not None and unsupported(sk)
                else:
                    pt, sk = tpy.get((case, p, n)), tpy_skip.get((case, p, n))
                    un = (case, p, n) in tpy_unsup
                cells.append(cell(t, pt, sk, un))
            rows.append(row(str(n), a, tmed.get((case, "probe", n)), cells, n))
        key = (size_class(nbytes), OPS.index(op) if op in OPS else len(OPS), op)
        groups.setdefault(key, []).extend(rows)
    for (b, _, op), rows in sorted(groups.items()):
        t, m = table(f"{op}, {size_label(b)}, threads", header, rows)
        text += t
        md += m
    skips = sorted({f"{k[1]} threads:{k[2]}: {v}" for k, v in tskipped.items()
                    if not unsupported(v)} |
                   {f"{k[1]} threads:{k[2]}: {v}" for k, v in tpy_skip.items()
                    if k not in tpy_unsup})
    # the peers (and probe) that ran on fewer threads than asked
    few = sorted(f"{k[1]} threads:{k[2]} {k[0]}: {v['threads_ran']:.0f} thread(s) ran"
                 for k, v in tmed.items()
                 if k[1] not in ISAS and k[2] > 1 and v.get("threads_ran") is not None
                 and v["threads_ran"] < k[2])
    if few and groups:
        text += ["", "threads: ran on fewer threads than asked (threads_ran):"]
        text += [f"  {x}" for x in few[:40]]
        md += ["", "threads: ran on fewer threads than asked (threads_ran):", ""]
        md += [f"- {x}" for x in few[:40]]
    if skips and groups:
        text += ["", "threads: skipped or failed:"] + [f"  {s[:220]}" for s in skips[:40]]
        md += ["", "threads: skipped or failed:", ""] + [f"- {s[:220]}" for s in skips[:40]]

    # the split sweep: plain call vs _ex on a 2-thread pool
    sweep = {}
    for k, v in tmed.items():
        if k[0].endswith("/sweep") and k[2] in (0, 2):
            sweep.setdefault(k[0], {})[k[2]] = v["ns"]
    for k in tskipped:
        if k[0].endswith("/sweep"):
            sweep.setdefault(k[0], {})
    def family(c):
        """(op, shape family): "[n] axis:0", "[n/1024, 1024] axis:1", ..."""
        parts = c.split("/")
        dims = parts[2].split("x")
        params = [q for q in parts[3:] if q != "sweep" and not q.startswith("shift:")]
        shape = "[n]" if len(dims) == 1 else "[" + ", ".join(["n/" + dims[-1]] + dims[1:]) + "]"
        return parts[0], " ".join([shape] + params)

    def size_of(c):
        dims = c.split("/")[2].split("x")
        n = 1
        for d in dims:
            n *= int(d)
        return n * ITEMSIZE.get(c.split("/")[1], 1)

    fams = sorted({family(c) for c in sweep}, key=lambda f: (OPS.index(f[0])
                                                            if f[0] in OPS else 9, f[1]))
    for op, fam in fams:
        rows, pays = [], None
        names = sorted((c for c in sweep if family(c) == (op, fam)), key=size_of)
        for c in names:
            p, e = sweep[c].get(0), sweep[c].get(2)
            r = p / e if p and e else None
            isa = next((k[1] for k in list(tmed) + list(tskipped) if k[0] == c), "")
            rows.append([size_label(size_of(c)),
                         f"{p:.0f}" if p else "skip" if (c, isa, 0) in tskipped else "-",
                         f"{e:.0f}" if e else "skip" if (c, isa, 2) in tskipped else "-",
                         fmt_ratio(r)])
        if not rows:
            continue
        # the smallest size from which every larger one gains from 2 threads
        # (by 10% at least: the sweep's medians of 3 move by a few percent)
        for c in reversed(names):
            p, e = sweep[c].get(0), sweep[c].get(2)
            if not (p and e and p / e >= 1.1):
                break
            pays = c
        t, m = table(f"{op}, split sweep (f32 {fam}{' shift:n/3' if op == 'roll' else ''}), "
                     "2 threads",
                     ["input", "plain ns", "2 threads ns", "plain / 2 threads"], rows)
        both = [c for c in names if sweep[c].get(0) and sweep[c].get(2)]
        verdict = (f"splitting pays (2 threads >= 1.1x faster at every size) from "
                   f"{size_label(size_of(pays))} up" if pays else
                   "2 threads are not faster at the largest size measured" if both else
                   "no size has both the plain and the 2-thread figure")
        below = [sweep[c][2] / sweep[c][0] for c in names[:names.index(pays) if pays else None]
                 if sweep[c].get(0) and sweep[c].get(2)]
        if below:
            verdict += (f"; {'below that' if pays else 'at every size'}, _ex on the 2-thread "
                        f"pool costs at most {max(below):.2f}x the plain call")
        text += t + [verdict]
        md += m + ["", verdict]

    # one empty parallel_for
    pf = sorted((k[2], v["ns"]) for k, v in tmed.items() if k[0].startswith("parallel_for/"))
    pfs = sorted((k[2], v) for k, v in tskipped.items() if k[0].startswith("parallel_for/"))
    if pf or pfs:
        rows = [[str(n), f"{ns:.0f}"] for n, ns in pf] + [[str(n), "skip: " + v] for n, v in pfs]
        t, m = table("one empty parallel_for of the pool (T no-op tasks)",
                     ["threads", "ns per call"], rows)
        text += t
        md += m
    return text, md


def pieces_table(path):
    """The streams and shards rows (bench/streams.c): each row's median time
    and its ratio to the one call of the same op and ISA (the row's own
    x_one_call, timed alternating, where it has one; else the two rows' times),
    and, for the streams, to the copy probe."""
    with open(path) as f:
        data = json.load(f)
    ns, alt, skip, order = {}, {}, {}, []
    for b in data.get("benchmarks", []):
        name = b.get("run_name", b["name"])
        if not name.startswith(("streams/", "shards/")):
            continue
        if name not in order:
            order.append(name)
        if b.get("error_occurred"):
            skip[name] = b.get("error_message", "skipped")
        elif b.get("run_type") != "aggregate" or b.get("aggregate_name") == "median":
            unit = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
            ns.setdefault(name, b["real_time"] * unit)
            if "x_one_call" in b:
                alt.setdefault(name, b["x_one_call"])
    if not order:
        return [], []
    probe = next((v for k, v in ns.items() if k.startswith("streams/copy/")), None)

    def one_call(name):
        head = name.rsplit("/", 1)[0]
        for cand in (head + "/one_call", "streams/" + head.split("/", 1)[1] + "/one_call",
                     "shards/" + head.split("/", 1)[1] + "/one_call"):
            if cand in ns:
                return ns[cand]
        return None

    rows = []
    for name in order:
        if name in skip:
            rows.append([name, "skip", "-", "-", skip[name][:60]])
            continue
        base = one_call(name)
        rows.append([name, f"{ns[name] / 1e6:.3f}",
                     fmt_ratio(alt[name]) if name in alt else
                     fmt_ratio(ns[name] / base) if base else "-",
                     fmt_ratio(probe / ns[name]) if probe and name.startswith("streams/") else "-",
                     ""])
    return table("streams and shards (ms; x one call: time over the one call's, timed "
                 "alternating; of probe: copy probe time over this)", ["case", "ms", "x one call", "of probe", "note"],
                 rows)


# ---- plots (--svg DIR): plain SVG written by hand ------------------------------

SERIES = {  # name -> (legend label, colour)
    "scalar": ("axial scalar", "#9ecae1"), "avx2": ("axial avx2", "#3182bd"),
    "avx512": ("axial avx512", "#08306b"), "neon": ("axial neon", "#2171b5"),
    "default": ("axial default (its per-op ISA)", "#6baed6"),
    "probe": ("probe", "#404040"),
    "exp_scalar": ("exp probe scalar", "#d9d9d9"), "exp_avx2": ("exp probe avx2", "#a3a3a3"),
    "exp_avx512": ("exp probe avx512", "#7a7a7a"), "exp_neon": ("exp probe neon", "#a3a3a3"),
    "loop": ("plain C loop", "#fd8d3c"), "eigen": ("Eigen", "#31a354"),
    "onednn": ("oneDNN", "#756bb1"), "numpy": ("numpy", "#de2d26"),
    "torch": ("PyTorch", "#8c564b"), "onnxruntime": ("ONNX Runtime", "#e377c2"),
    "openvino": ("OpenVINO", "#bcbd22"), "scipy": ("scipy", "#17becf"),
    "ideal": ("T x (ideal)", "#000000"),
}
FONT = "DejaVu Sans, Arial, Helvetica, sans-serif"
MONO = "DejaVu Sans Mono, Menlo, Consolas, monospace"


def _esc(s):
    return (str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


class Svg:
    """A list of SVG elements; the height is set when it is written."""

    def __init__(self, width):
        self.w, self.items = width, []

    def rect(self, x, y, w, h, fill, stroke=None):
        st = f' stroke="{stroke}"' if stroke else ""
        self.items.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{max(w, 0):.1f}" '
                          f'height="{h:.1f}" fill="{fill}"{st}/>')

    def line(self, x1, y1, x2, y2, stroke="#000", width=1.0, dash=None):
        d = f' stroke-dasharray="{dash}"' if dash else ""
        self.items.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                          f'stroke="{stroke}" stroke-width="{width}"{d}/>')

    def polyline(self, pts, stroke, width=1.5, dash=None):
        d = f' stroke-dasharray="{dash}"' if dash else ""
        p = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
        self.items.append(f'<polyline points="{p}" fill="none" stroke="{stroke}" '
                          f'stroke-width="{width}"{d}/>')

    def circle(self, x, y, r, fill):
        self.items.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="{fill}" '
                          f'stroke="#fff" stroke-width="0.8"/>')

    def text(self, x, y, s, size=11, anchor="start", bold=False, mono=False, fill="#000",
             rotate=None):
        b = ' font-weight="bold"' if bold else ""
        r = f' transform="rotate({rotate} {x:.1f} {y:.1f})"' if rotate is not None else ""
        fam = f' font-family="{MONO}"' if mono else ""
        anc = f' text-anchor="{anchor}"' if anchor != "start" else ""
        col = f' fill="{fill}"' if fill != "#000" else ""
        self.items.append(f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}"{fam}{anc}{col}'
                          f'{b}{r}>{_esc(s)}</text>')

    def header(self, title, lines, legend, pad=12):
        """Title, caption lines and a legend that wraps; returns the y below them."""
        self.text(pad, 24, title, size=15, bold=True)
        y, width = 24, int((self.w - 2 * pad) / 6.6)  # characters of 11 px per line
        for ln in lines:
            words, cur = ln.split(" "), ""
            for wd in words + [None]:
                if wd is not None and (not cur or len(cur) + 1 + len(wd) <= width):
                    cur = f"{cur} {wd}" if cur else wd
                    continue
                y += 16
                self.text(pad, y, cur, size=11, fill="#333")
                cur = wd or ""
        y += 12
        x = pad
        for name in legend:
            label, colour = SERIES[name]
            w = 26 + 6.4 * len(label)
            if x + w > self.w - pad:
                x, y = pad, y + 17
            if name == "ideal":
                self.line(x, y + 6, x + 14, y + 6, colour, 1.2, "4,3")
            else:
                self.rect(x, y + 1, 14, 10, colour)
            self.text(x + 19, y + 10, label, size=11)
            x += w + 8
        return y + 24

    def write(self, path, height):
        with open(path, "w") as f:
            f.write(f'<?xml version="1.0" encoding="UTF-8"?>\n'
                    f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.w:.0f}" '
                    f'height="{height:.0f}" viewBox="0 0 {self.w:.0f} {height:.0f}" '
                    f'font-family="{FONT}">\n'
                    f'<rect x="0" y="0" width="{self.w:.0f}" height="{height:.0f}" '
                    f'fill="#ffffff"/>\n')
            f.write("\n".join(self.items) + "\n</svg>\n")


def _fmt_val(v):
    return f"{v:.3g}"


def speed_svg(path, title, lines, rows, series):
    """Horizontal bars on a log scale, one group per case.  rows: [(label,
    {series: GB/s}, best series, {series: mark})]; series: those to draw, in
    order (each group has a slot for every one, so the colours line up)."""
    vals = [v for _, vs, _, _ in rows for v in vs.values() if v > 0]
    if not vals:
        return False
    # the axis: from the 1-2-5 step at or below the slowest bar to the one
    # above the fastest (with room for its figure)
    steps = [m * 10.0 ** d for d in range(-6, 7) for m in (1, 2, 5)]
    lo_v = max(v for v in steps if v <= min(vals))
    hi_v = min(v for v in steps if v >= max(vals) * 1.1)
    lo, hi = math.log10(lo_v), math.log10(hi_v)
    pad, label_w = 12, 6.7 * max(len(r[0]) for r in rows) + 14
    svg = Svg(max(900, label_w + 640))
    top = svg.header(title, lines, series) + 16
    left, right = pad + label_w, svg.w - pad - 54
    bar, gap = (8, 1) if len(series) <= 8 else (7, 1)
    group = len(series) * (bar + gap) + 10

    def x(v):
        return left + (math.log10(v) - lo) / (hi - lo) * (right - left)

    bottom = top + group * len(rows)
    # grid: every 1, 2, 5 x 10^k; labels at the powers of ten (and at 2 and 5
    # when the axis spans at most three decades)
    ticks = [(v, f"{v:g}"[0] == "1") for v in steps if lo_v <= v <= hi_v]
    for i, (label, vs, best, marks) in enumerate(rows):
        y0 = top + i * group
        if i % 2 == 0:
            svg.rect(pad, y0, svg.w - 2 * pad, group, "#f3f3f3")
    for v, major in ticks:
        svg.line(x(v), top - 4, x(v), bottom + 4, "#bbbbbb" if major else "#dddddd",
                 1.0 if major else 0.8, None if major else "3,3")
        if major or hi - lo <= 3 or v in (lo_v, hi_v):
            t = f"{v:g}"
            svg.text(x(v), top - 8, t, size=10, anchor="middle", fill="#333")
            svg.text(x(v), bottom + 16, t, size=10, anchor="middle", fill="#333")
    svg.text((left + right) / 2, bottom + 32, "GB/s (input + output bytes per second; log scale)",
             size=11, anchor="middle")
    for i, (label, vs, best, marks) in enumerate(rows):
        y0 = top + i * group + 5
        svg.text(left - 8, y0 + (group - 10) / 2 + 4, label, size=11, anchor="end", mono=True)
        for j, s in enumerate(series):
            v = vs.get(s)
            if not v or v <= 0:
                continue
            y = y0 + j * (bar + gap)
            svg.rect(left, y, x(v) - left, bar, SERIES[s][1])
            tail = marks.get(s, "")
            if s == best:
                svg.text(x(v) + 4, y + bar - 0.5, _fmt_val(v) + tail, size=10, bold=True)
            elif tail:
                svg.text(x(v) + 3, y + bar, tail, size=11, bold=True)
    svg.line(left, top - 4, left, bottom + 4, "#555555")
    svg.write(path, bottom + 44)
    return True


def threads_svg(path, title, lines, panels, counts, series):
    """Small multiples, one panel per case: speed-up over one thread (y) at
    each thread count (x), one line per series, the ideal T x dashed.
    panels: [(label, {series: {T: speed-up}})]."""
    pad, pw, ph, cols = 12, 250, 200, min(4, len(panels))
    svg = Svg(max(900, pad * 2 + cols * pw))
    top = svg.header(title, lines, series + ["ideal"]) + 4
    ts = [1] + [t for t in counts if t > 1]
    vals = [v for _, ss in panels for d in ss.values() for v in d.values()] + [max(ts)]
    step = 0.5 if max(vals) <= 3 else 1 if max(vals) <= 8 else 2 if max(vals) <= 16 else 5
    ymax = step * math.ceil(max(vals) * 1.06 / step)
    for k, (label, ss) in enumerate(panels):
        px, py_ = pad + (k % cols) * pw, top + (k // cols) * ph
        l, r, t, b = px + 40, px + pw - 46, py_ + 26, py_ + ph - 34
        svg.rect(px + 2, py_ + 2, pw - 4, ph - 4, "#fafafa", "#dddddd")
        svg.text(px + pw / 2, py_ + 17, label if len(label) <= 36 else label[:35] + "…",
                 size=10.5, anchor="middle", mono=True)

        def X(tv):
            i = ts.index(tv)
            return l + (i + 0.5) * (r - l) / len(ts)

        def Y(v):
            return b - v / ymax * (b - t)
        n = 0
        while n * step <= ymax + 1e-9:
            v = n * step
            svg.line(l, Y(v), r, Y(v), "#bbbbbb" if v == int(v) else "#e3e3e3", 0.8)
            svg.text(l - 5, Y(v) + 3.5, f"{v:g}", size=9.5, anchor="end", fill="#333")
            n += 1
        for tv in ts:
            svg.text(X(tv), b + 13, str(tv), size=9.5, anchor="middle", fill="#333")
        svg.text((l + r) / 2, b + 26, "threads", size=9.5, anchor="middle", fill="#333")
        svg.text(px + 11, (t + b) / 2, "x 1 thread", size=9.5, anchor="middle", fill="#333",
                 rotate=-90)
        svg.line(l, b, r, b, "#555555")
        svg.line(l, t, l, b, "#555555")
        svg.polyline([(X(tv), Y(tv)) for tv in ts], "#000000", 1.2, "4,3")
        for s in reversed(series):  # axial last: on top
            d = ss.get(s, {})
            pts = [(X(tv), Y(d[tv])) for tv in ts if tv in d]
            if not pts:
                continue
            axial = s in ISAS
            if len(pts) > 1:
                svg.polyline(pts, SERIES[s][1], 2.6 if axial else 1.6)
            for xx, yy in pts:
                svg.circle(xx, yy, 3.6 if axial else 2.8, SERIES[s][1])
            if axial:
                last = max(tv for tv in ts if tv in d)
                svg.text(X(last) + 6, Y(d[last]) + 4, f"{d[last]:.2f}x", size=10, bold=True,
                         fill=SERIES[s][1])
    rows = (len(panels) + cols - 1) // cols
    svg.write(path, top + rows * ph + 8)
    return True


def write_plots(outdir, ctx, machine, reps, med, py, py_inacc, tmed, tpy, cases, infos, isas):
    """speed-{op}-{size}.svg and threads-{op}-{size}.svg into outdir; returns the
    paths written."""
    os.makedirs(outdir, exist_ok=True)
    where = (f"{machine}, {ctx.get('num_cpus', '?')} CPUs" if machine else
             f"host {ctx.get('host_name', '?')}, {ctx.get('num_cpus', '?')} CPUs at "
             f"{ctx.get('mhz_per_cpu', '?')} MHz")
    run = (f"{where}; axial ISAs {', '.join(isas) or 'none'}; "
           f"{str(ctx.get('date', ''))[:10]}; medians of {reps or '?'} repetitions")
    written = []

    def slug(b):
        return size_label(b).replace(" ", "")

    def bytes_per_call(case):
        for (c, _), a in med.items():
            if c == case and a["bytes"] and a["ns"]:
                return a["bytes"] * a["ns"] / 1e9
        return None

    groups = {}
    for case in cases:
        op = case.split("/")[0]
        key = (size_class(case_bytes(case, infos.get(case))), OPS.index(op) if op in OPS
               else len(OPS), op)
        groups.setdefault(key, []).append(case)
    for (b, _, op), cs in sorted(groups.items()):
        lse = op in LSE_OPS
        cand = (isas + ["probe"] + ([f"exp_{i}" for i in isas] if lse else [])
                + BIN_PEERS + PY_PEERS)
        rows = []
        for case in cs:
            per = bytes_per_call(case)
            vs, marks = {}, {}
            for s in cand:
                ns = py.get((case, s)) if s in PY_PEERS else (med.get((case, s)) or {}).get("ns")
                if ns and per:
                    vs[s] = per / ns  # bytes per ns = GB/s
                if (case, s) in py_inacc:
                    marks[s] = "*"
            ran = [(med[(case, i)]["ns"], i) for i in isas if (case, i) in med]
            rows.append((case.split("/", 1)[1], vs, min(ran)[1] if ran else None, marks))
        series = [s for s in cand if any(s in r[1] for r in rows)]
        if not series:
            continue
        probe = "read-sum" if op.startswith("reduce") else "memcpy"
        notes = [run,
                 f"Bars: axial on each ISA (the figure: its fastest ISA's GB/s), the probe "
                 f"({probe} of the same bytes)"
                 + (", the exp probes (one exp per element)" if lse else "")
                 + " and the peers, all on one thread; a missing bar: not run or not available."]
        if any(r[3] for r in rows):
            notes.append("*: timed, but its result drifts beyond the check's tolerance.")
        p = os.path.join(outdir, f"speed-{op}-{slug(b)}.svg")
        if speed_svg(p, f"{op}, {size_label(b)}: speed of each case", notes, rows, series):
            written.append(p)

    # threads: speed-up over the same implementation on one thread
    counts = sorted({k[2] for k in tmed if k[2] > 1 and not k[0].endswith("/sweep")
                     and not k[0].startswith("parallel_for/")})
    if not counts:
        return written
    ai = ctx.get("threads_isa")
    tcases = [c for c in cases if any(k[0] == c and k[2] for k in tmed)]
    tgroups = {}
    for case in tcases:
        op = case.split("/")[0]
        a = ai or next((k[1] for k in tmed if k[0] == case and k[2] and k[1] in ISAS), None)
        ss = {}
        for s in [a, "probe", "eigen", "onednn", "torch", "onnxruntime", "openvino"]:
            if s in ("torch", "onnxruntime", "openvino"):
                base = py.get((case, s))
                at = {t: tpy.get((case, s, t)) for t in counts}
            else:
                base = (med.get((case, s)) or {}).get("ns")
                at = {t: (tmed.get((case, s, t)) or {}).get("ns") for t in counts}
            d = {t: base / v for t, v in at.items() if base and v}
            if d:
                d[1] = 1.0
                ss[s] = d
        if ss:
            key = (size_class(case_bytes(case, infos.get(case))), OPS.index(op) if op in OPS
                   else len(OPS), op)
            tgroups.setdefault(key, []).append((case.split("/", 1)[1], ss))
    for (b, _, op), panels in sorted(tgroups.items()):
        series = [s for s in ISAS + ["probe", "eigen", "onednn", "torch", "onnxruntime",
                                     "openvino"] if any(s in ss for _, ss in panels)]
        probe = "read-sum" if op.startswith("reduce") else "memcpy"
        notes = [run,
                 "Speed-up = each implementation's time on 1 thread / its time on T threads: "
                 "axial's plain call against its _ex call on a T-thread pool (the figure: at the "
                 f"most threads), the probe ({probe}) against itself split into T parts, each "
                 "peer against itself on 1 thread.  Dashed: T x."]
        p = os.path.join(outdir, f"threads-{op}-{slug(b)}.svg")
        if threads_svg(p, f"{op}, {size_label(b)}: speed-up with threads", notes, panels,
                       counts, series):
            written.append(p)
    return written


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", required=True)
    ap.add_argument("--peers")
    ap.add_argument("--cases")
    ap.add_argument("--markdown")
    ap.add_argument("--reps", help="repetitions per median (for the header)")
    ap.add_argument("--svg", metavar="DIR", help="also write SVG plots into DIR")
    ap.add_argument("--machine", help="the machine, for the plots' titles (e.g. the CPU model)")
    args = ap.parse_args()

    ctx, med, skipped, order, tmed, tskipped = load_bench(args.bench)
    infos = {}
    if args.cases:
        with open(args.cases) as f:
            for c in json.load(f):
                infos[c["case"]] = c
    py, py_skip, py_versions, py_unsup = {}, {}, {}, set()
    py_inacc = {}  # (case, peer) -> its largest error: timed, but beyond the tolerance
    tpy, tpy_skip, tpy_unsup = {}, {}, set()  # the python peers at T >= 2: (case, peer, T)
    if args.peers:
        with open(args.peers) as f:
            pd = json.load(f)
        py_versions = pd.get("peers", {})
        for r in pd.get("results", []):
            t = r.get("threads", 1)
            if t > 1:
                if "ns" in r:
                    tpy[(r["case"], r["peer"], t)] = r["ns"]
                else:
                    tpy_skip[(r["case"], r["peer"], t)] = r.get("skipped", "skipped")
                    if r.get("unsupported"):
                        tpy_unsup.add((r["case"], r["peer"], t))
                continue
            if "ns" in r:
                py[(r["case"], r["peer"])] = r["ns"]
                if r.get("inaccurate"):
                    py_inacc[(r["case"], r["peer"])] = (r.get("max_err"), r["inaccurate"])
            elif r.get("unsupported"):
                py_skip[(r["case"], r["peer"])] = r["skipped"]
                py_unsup.add((r["case"], r["peer"]))
            else:
                why = r.get("skipped", "skipped")
                if r.get("mismatch"):
                    why += f" ({r['case']}: {r['mismatch']})"
                py_skip[(r["case"], r["peer"])] = why

    # cases: cases.json's order, then any the bench has that it lacks
    cases = [c for c in infos if any(k[0] == c for k in list(med) + list(skipped))
             and not infos[c].get("sweep")]
    cases += [c for c in order if c not in cases]

    def peers_of(ops):
        """The peer columns of the cases of these ops: those with a figure or a skip."""
        keys = [k for k in list(med) + list(skipped) + list(py) + list(py_skip)
                if k[0].split("/")[0] in ops]
        return [p for p in BIN_PEERS + PY_PEERS if any(k[1] == p for k in keys)]
    peers = peers_of([o for o in OPS if o not in LSE_OPS])
    lse_peers = peers_of(LSE_OPS)
    header = ["case", "best", "elem/ns", "GB/s", "x scalar", "of probe"] + peers
    lse_header = header[:6] + ["of exp"] + lse_peers

    def peer_cell(case, p, t):
        """peer time / axial time t ('*': timed but inaccurate)."""
        if (case, p) in med or (case, p) in py:
            pt = med[(case, p)]["ns"] if (case, p) in med else py[(case, p)]
            return (fmt_ratio(pt / t) + ("*" if (case, p) in py_inacc else "")) if t else "-"
        if (case, p) in skipped or (case, p) in py_skip:
            return "-" if lacks(case, p) else "skip"
        return "-"

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

    def lse_family(case):
        """(op, type, shape family, params): the same log-space case at every size."""
        parts = case.split("/")
        rank = len(parts[2].split("x"))
        fam = "[n]" if rank == 1 else "rows" if parts[3] in ("axis:1", "axes:1") else "columns"
        return parts[0], parts[1], fam, "/".join(parts[3:])

    def ns_per_elem(case, impl):
        a = med.get((case, impl))
        n = case_bytes(case, infos.get(case)) // ITEMSIZE.get(case.split("/")[1], 1)
        return a["ns"] / n if a and n else None

    smallest = {}  # family -> (bytes, case): the cache-resident size
    for c in cases:
        if c.split("/")[0] in LSE_OPS:
            f, b = lse_family(c), case_bytes(c, infos.get(c))
            if f not in smallest or b < smallest[f][0]:
                smallest[f] = (b, c)

    groups = {}  # (bytes, op) -> rows
    lse_groups = {}  # (bytes, op) -> the log-space ops' per-ISA rows
    for case in cases:
        op = case.split("/")[0]
        lse = op in LSE_OPS
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
            t, best = None, None
            row = [case, "skip", "-", "-", "-", "-"]
        if lse:
            ex = med.get((case, f"exp_{best}"))
            row.append(fmt_ratio(ex["ns"] / t if ex and t else None))
        for p in lse_peers if lse else peers:
            row.append(peer_cell(case, p, t))
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
        if lse:  # per ISA: ns per element, x its exp probe, x its cache size, the peers
            small = smallest[lse_family(case)][1]
            for i in isas:
                a, ex = med.get((case, i)), med.get((case, f"exp_{i}"))
                if not a:
                    continue
                e, ec = ns_per_elem(case, i), ns_per_elem(small, i)
                lse_groups.setdefault(key, []).append(
                    [case, i, f"{e:.3g}", fmt_ratio(a["ns"] / ex["ns"] if ex else None),
                     f"{ns_per_elem(case, f'exp_{i}'):.3g}" if ex else "-",
                     fmt_ratio(ec / e) if small != case and ec and e else "-"]
                    + [peer_cell(case, p, a["ns"]) for p in lse_peers])

    allrows = [r for (_, _, op), rows in groups.items() for r in rows if op not in LSE_OPS]
    widths = [max(len(str(r[i])) for r in allrows + [header]) for i in range(len(header))]

    def line(r):
        return "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                         for i, (c, w) in enumerate(zip(r, widths)))

    top = []
    top.append(f"axial benchmark: {ctx.get('date', '')}, {ctx.get('num_cpus', '?')} CPUs at "
               f"{ctx.get('mhz_per_cpu', '?')} MHz {ctx.get('host_name', '')}; medians of "
               f"{args.reps or '?'} repetitions; "
               + ("single-threaded, then the threads tables" if tmed else "single-threaded")
               + "; ratios within one run")
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
    for (c, p), (err, diff) in sorted(py_inacc.items()):
        top.append(f"  '*'    {p} {c}: timed, but inaccurate: largest error "
                   f"{err if err is None else f'{err:.3g}'} ({diff[:160]})")

    text, md = list(top), list(top)
    for (b, _, op), rows in sorted(groups.items()):
        title = f"{op}, {size_label(b)}" if b else op
        if op in LSE_OPS:
            t, m = table(title, lse_header, rows)
            text += t
            md += m
            continue
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
    lse_isa_header = ["case", "isa", "ns/elem", "x exp", "exp ns/elem", "x cache"] + lse_peers
    for (b, _, op), rows in sorted(lse_groups.items()):
        t, m = table(f"{op}, {size_label(b)}, per ISA vs exp probe and peers",
                     lse_isa_header, rows)
        text += t
        md += m
    ptext, pmd = pieces_table(args.bench)
    text += ptext
    md += pmd
    text += ["", LEGEND]
    md += ["", LEGEND]
    ttext, tmd = threads_tables(ctx, med, skipped, tmed, tskipped, py, py_skip, tpy, tpy_skip,
                                tpy_unsup, cases, infos, lacks)
    if ttext:
        text += ttext + ["", THREADS_LEGEND]
        md += tmd + ["", THREADS_LEGEND]
    print("\n".join(text))
    if args.markdown:
        with open(args.markdown, "w") as f:
            # keep the list lines apart in Markdown
            f.write("\n".join(x + "  " if x.startswith("  ") or x == top[0] else x
                              for x in md) + "\n")
    if args.svg:
        paths = write_plots(args.svg, ctx, args.machine, args.reps, med, py, py_inacc, tmed,
                            tpy, cases, infos, isas)
        print(f"plots: {len(paths)} SVG files in {args.svg}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
