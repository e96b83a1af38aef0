#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Differential fuzzing: every ISA of this CPU against the scalar one
# (tests/fuzz/fuzz_diff.c says what is checked), under ASan + UBSan.
#   bash scripts/fuzz.sh [seconds]     (default 90)
# From a fresh clone on Debian 12, as root: installs what is missing (the
# test packages via scripts/deps.sh, plus clang and libclang-rt-14-dev,
# which holds libFuzzer), configures build-fuzz with CC=clang, builds the
# target, and fuzzes a copy of tests/fuzz/corpus (the repository's seeds
# stay as they are) for the given time.  Exits non-zero on any finding:
# the reproducer is build-fuzz/fuzz-findings/crash-* (kept across runs),
# replayed by
#   build-fuzz/tests/fuzz/axial-fuzz-diff build-fuzz/fuzz-findings/crash-...
# AX_FUZZ_STATS=1 prints how often the documented overflow allowance was used.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-90}
case $secs in ''|*[!0-9]*) echo "usage: $0 [seconds]" >&2; exit 2 ;; esac

bash scripts/deps.sh test # clang and libclang-rt-14-dev (libFuzzer) are among them

# The whole library with ASan + UBSan (aborting) and libFuzzer's coverage
# instrumentation; only the target links libFuzzer itself (-fsanitize=fuzzer).
# UBSan's pointer-overflow check is left out: it is most of the compile time
# of the big kernels under clang 14 (kernels/avx2/reduce.c: 23 s with ASan,
# 48 s with ASan + UBSan, 20 s without pointer-overflow; avx512/reduce.c:
# 1158 s with both sanitizers in full, 396 s without pointer-overflow), and
# ASan reports the out-of-bounds accesses that check would precede.  Debug
# info is line tables only (-g1, as in scripts/test.sh): -g had added ~25 %
# to clang's compile of the kernels (avx512/cumsum.c: 270 s, 212 s).  The
# build still takes ~13 min on 2 shared cores, nearly all of it
# kernels/avx512/{reduce,cumsum}.c.
opts=(-Dbuildtype=debugoptimized -Dbenchmarks=false -Dfuzz=enabled -Db_sanitize=address,undefined -Db_lundef=false
      "-Dc_args=-g1 -fsanitize=fuzzer-no-link -fno-sanitize-recover=all -fno-sanitize=pointer-overflow")
# (meson 1.0's setup --reconfigure keeps the old c_args: configure sets them)
if [ -f build-fuzz/build.ninja ]; then meson configure build-fuzz "${opts[@]}"
else # (test.sh runs this beside other setups: its lock, see there)
  CC=clang flock "${AXIAL_SETUP_LOCK:-${TMPDIR:-/tmp}/axial-meson-setup.$(id -u).lock}" \
    meson setup build-fuzz "${opts[@]}" >/dev/null
fi
ninja -C build-fuzz -j "$(nproc)" tests/fuzz/axial-fuzz-diff

run=build-fuzz/fuzz-run
findings=build-fuzz/fuzz-findings
rm -rf "$run"
mkdir -p "$run/corpus" "$findings"
cp tests/fuzz/corpus/* "$run/corpus/"
echo "== fuzzing for ${secs} s (log: $run/log)"
set +e
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  build-fuzz/tests/fuzz/axial-fuzz-diff "$run/corpus" -max_total_time="$secs" -timeout=10 \
  -print_final_stats=1 -artifact_prefix="$findings/" > "$run/log" 2>&1
rc=$?
set -e
grep -E '^axial-fuzz:|^INFO: Seed|^#[0-9]+[[:space:]]+(INITED|DONE)' "$run/log" || true
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$run/log")
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$run/log")
cov=$(grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED)' "$run/log" | tail -n 1 | grep -oE 'cov: [0-9]+ ft: [0-9]+' || true)
if [ $rc -ne 0 ]; then
  grep -E 'MISMATCH|axial-fuzz: case|ERROR: |SUMMARY: |runtime error' "$run/log" | head -n 20 || true
  grep -o "Test unit written to .*" "$run/log" | sed 's/^Test unit written to /reproducer: /' || true
  echo "fuzz: FAILED (exit $rc) after ${execs:-?} executions; log $run/log"
  exit $rc
fi
echo "fuzz: ${execs:-?} executions in ${secs} s, ${rate:-?} exec/s, ${cov:-cov: ?}; no finding"
