#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Differential fuzzing: every ISA of this CPU against the scalar one
# (tests/fuzz/fuzz_diff.c says what is checked), under ASan + UBSan.
#   bash scripts/fuzz.sh [seconds]     (default 90)
# From a fresh clone on Debian 12, as root: installs what is missing (the
# test packages via scripts/deps.sh, plus clang and libclang-rt-14-dev,
# which holds libFuzzer), configures build-asan with CC=clang, builds the
# target, and fuzzes a copy of tests/fuzz/corpus (the repository's seeds
# stay as they are) for the given time.  Exits non-zero on any finding:
# the reproducer is build-asan/fuzz-findings/crash-* (kept across runs),
# replayed by
#   build-asan/tests/fuzz/axial-fuzz-diff build-asan/fuzz-findings/crash-...
# AX_FUZZ_STATS=1 prints how often the documented overflow allowance was used.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-90}
case $secs in ''|*[!0-9]*) echo "usage: $0 [seconds]" >&2; exit 2 ;; esac

bash scripts/deps.sh test # clang and libclang-rt-14-dev (libFuzzer) are among them

# build-asan/: the whole library with ASan + UBSan (aborting) and libFuzzer's
# coverage instrumentation; only the target links libFuzzer itself
# (-fsanitize=fuzzer).  scripts/test.sh's asan stage runs the whole suite from
# the same build (AXIAL_FUZZ_SETUP_ONLY=1: configure it and stop).  The SIMD
# kernel files leave out UBSan's pointer-overflow check (kernels/meson.build):
# clang's instrumentation of their large inlined loops takes most of the
# build's time, and ASan checks every access those pointers make.  Debug info
# is line tables only (-g1, as in scripts/test.sh).
# The AVX-512 kernels are built here only where this CPU runs them (the
# flags dispatch requires): elsewhere no test could run them under ASan, and
# clang's ASan build of them is the longest part of the suite.  The other
# builds (native, Python, consumers) always compile them.
avx512=$(bash scripts/avx512-option.sh)
[ "$avx512" = auto ] || echo "fuzz.sh: build-asan without the AVX-512 kernels (this CPU cannot run them)"
opts=(-Dbuildtype=debugoptimized "-Davx512=$avx512" -Dbenchmarks=false -Dfuzz=enabled -Db_sanitize=address,undefined -Db_lundef=false
      "-Dc_args=-g1 -fsanitize=fuzzer-no-link -fno-sanitize-recover=all")
# (meson 1.0's setup --reconfigure keeps the old c_args: configure sets them)
if [ -f build-asan/build.ninja ]; then meson configure build-asan "${opts[@]}"
else # (test.sh runs this beside other setups: its lock, see there)
  CC=clang flock "${AXIAL_SETUP_LOCK:-${TMPDIR:-/tmp}/axial-meson-setup.$(id -u).lock}" \
    meson setup build-asan "${opts[@]}" >/dev/null
fi
[ -n "${AXIAL_FUZZ_SETUP_ONLY:-}" ] && exit 0
ninja -C build-asan -j "$(nproc)" tests/fuzz/axial-fuzz-diff

run=build-asan/fuzz-run
findings=build-asan/fuzz-findings
rm -rf "$run"
mkdir -p "$run/corpus" "$findings"
cp tests/fuzz/corpus/* "$run/corpus/"
echo "== fuzzing for ${secs} s (log: $run/log)"
set +e
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  build-asan/tests/fuzz/axial-fuzz-diff "$run/corpus" -max_total_time="$secs" -timeout=10 \
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
