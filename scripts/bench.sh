#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's benchmark command, from a fresh Debian 12 machine:
#   bash scripts/bench.sh            quick: 256 KiB and 32 MiB cases, 3 repetitions (~3 min)
#   bash scripts/bench.sh --full     256 KiB and 256 MiB cases, 5 repetitions
#   bash scripts/bench.sh [--full] [Google Benchmark args, e.g. --benchmark_filter=roll]
# Installs what is missing (scripts/deps.sh bench), builds a release build in
# build-rel/, runs axial-bench (axial per ISA, the bandwidth probe and the
# Eigen / oneDNN / plain-loop peers in one binary), then scripts/peers.py
# (numpy from Debian; torch, onnxruntime, openvino and scipy too when
# scripts/peers-venv.sh has made .venv-peers), and prints the table.
# AXIAL_BENCH_BYTES overrides the memory-resident size.  Threads: the f32
# cases also run at threads:T for T = 1 .. nproc (AXIAL_BENCH_THREADS=1,2,4 or
# 1-16 picks; AXIAL_BENCH_THREAD_CASES=all: every case), axial with its pool
# beside the T-thread probe, Eigen, oneDNN and the threaded Python runtimes,
# plus the split sweep and the empty parallel_for (docs/BENCHMARKS.md, Threads).
# Then the Python package (scripts/python-venv.sh) runs python -m axial.bench:
# numpy, a stream, and axial.dask against dask on a LocalCluster of 1 and 2 workers.
# Outputs: build-rel/{cases.json,bench.json,peers.json,report.md}, the plots
# build-rel/plots/{speed,threads}-{op}-{size}.svg (scripts/report.py --svg),
# build-python/python-bench.md.  docs/BENCHMARKS.md says how to read them.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh bench

reps=3 min_time=0.02 bytes=$((32 << 20))
if [ "${1:-}" = --full ]; then
  shift; reps=5 min_time=0.1 bytes=$((256 << 20))
fi
export AXIAL_BENCH_BYTES=${AXIAL_BENCH_BYTES:-$bytes}
export OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1

if [ -f build-rel/build.ninja ]; then meson setup --reconfigure build-rel --buildtype=release -Dtests=false >/dev/null
else meson setup build-rel --buildtype=release -Dtests=false >/dev/null; fi
ninja -C build-rel >/dev/null

echo "== axial-bench: sizes 256 KiB and $((AXIAL_BENCH_BYTES >> 20)) MiB, $reps repetitions (medians), threads ${AXIAL_BENCH_THREADS:-1-$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)}"
build-rel/bench/axial-bench --cases-json=build-rel/cases.json
build-rel/bench/axial-bench --benchmark_repetitions="$reps" \
  --benchmark_report_aggregates_only=true --benchmark_min_time="$min_time" \
  --benchmark_out=build-rel/bench.json --benchmark_out_format=json "$@" \
  > build-rel/bench.txt 2> build-rel/bench.err \
  || { tail -n 20 build-rel/bench.err; exit 1; }

echo "   ${SECONDS}s so far"
py=/usr/bin/python3
.venv-peers/bin/python -c "import numpy" 2>/dev/null && py=.venv-peers/bin/python
echo "== python peers ($py)"
filter=$(printf '%s\n' "$@" | sed -n 's/^--benchmark_filter=//p' | tail -n 1)
"$py" scripts/peers.py --cases build-rel/cases.json --out build-rel/peers.json \
  --reps "$reps" --min-time "$min_time" ${filter:+--filter "$filter"} 2> build-rel/peers.log \
  || { tail -n 20 build-rel/peers.log; exit 1; }

echo "   ${SECONDS}s so far"
echo "== report (also in build-rel/report.md; plots in build-rel/plots/)"
machine=$(awk -F': *' '/^model name/ && !n {n = $2} /^cpu family/ && !f {f = $2}
  /^model[[:space:]]*:/ && !m {m = $2}
  END {printf "%s", n; if (f != "") printf " (family %s model %s)", f, m}' /proc/cpuinfo 2>/dev/null || true)
/usr/bin/python3 scripts/report.py --bench build-rel/bench.json --peers build-rel/peers.json \
  --cases build-rel/cases.json --reps "$reps" --markdown build-rel/report.md \
  --svg build-rel/plots ${machine:+--machine "$machine"}
echo "== the Python package: python -m axial.bench (numpy, streams, axial.dask on a LocalCluster)"
bash scripts/python-venv.sh
( cd build-python && venv/bin/python -m axial.bench $([ "$reps" = 3 ] && echo --quick) --reps $((reps * 3)) \
    2> python-bench.log | tee python-bench.md ) || { tail -n 20 build-python/python-bench.log; exit 1; }
echo "== done in ${SECONDS}s"
