#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ab_cases.py: the cases of the model table (scripts/mca_cases.txt), timed.

    cc -O2 -o /tmp/ab_call scripts/ab_call.c -ldl
    python3 scripts/ab_cases.py --before OLD/libaxial.so --after NEW/libaxial.so \
        [--isa avx512] [--runs 3] [--cases scripts/mca_cases.txt] [--ab /tmp/ab_call] [CASES...]

Each case (op:dtype:shape:axes[:flags or shifts], as mca_case.py takes them)
runs `ab_call` --runs times on the ISA forced by AXIAL_ISA, each run the median
of 15 alternating rounds of both libraries; prints one markdown row per case
with the median new/old ratio and its range, then the cases above 1.05.  The
time the model cannot see (memory, the prefetchers, line splits) shows here;
run it on a quiet machine.
"""
import argparse
import os
import statistics
import subprocess
import sys

DTYPES = {"f32": 1, "f64": 2, "f16": 3, "bf16": 4, "i8": 5, "u8": 6, "i16": 7, "u16": 8,
          "i32": 9, "u32": 10, "i64": 11, "u64": 12}


def ab_args(case):
    op, dt, shape, axes, *extra = case.split(":")
    op = "reduce" if op == "reduce_sum" else op
    return [op, str(DTYPES[dt]), shape, axes] + extra


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", required=True)
    ap.add_argument("--isa", default="avx512")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cases", default=None)
    ap.add_argument("--ab", default="/tmp/ab_call")
    ap.add_argument("case", nargs="*")
    a = ap.parse_args()
    cases = list(a.case)
    if a.cases:
        with open(a.cases) as f:
            cases += [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]
    env = dict(os.environ, AXIAL_ISA=a.isa)
    print(f"| case ({a.isa}) | new/old, median of {a.runs} | range |\n|---|---:|---|")
    slow = []
    for c in cases:
        ratios = []
        for _ in range(a.runs):
            r = subprocess.run([a.ab, a.before, a.after] + ab_args(c), env=env, capture_output=True, text=True)
            if r.returncode:
                print(f"| {c} | failed: {r.stderr.strip()} | |")
                break
            ratios.append(float(r.stdout.split()[-1]))
        if len(ratios) == a.runs:
            m = statistics.median(ratios)
            print(f"| {c} | {m:.3f} | {min(ratios):.3f}-{max(ratios):.3f} |", flush=True)
            if m > 1.05:
                slow.append((m, c))
    print(f"\n{len(slow)} of {len(cases)} cases above 1.05:", ", ".join(f"{c} {m:.2f}" for m, c in sorted(slow, reverse=True)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
