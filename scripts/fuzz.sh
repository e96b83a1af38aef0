#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Differential fuzzing: every ISA of this CPU, the scalar one included, against
# an oracle that shares no code with the library
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
# AXIAL_TEST_SEED (the test programs' soak seed, README; decimal or 0x hex, up
# to 64 bits) sets libFuzzer's -seed, reduced to a non-zero 31-bit number
# (the value modulo 2^31 - 1, 0 read as 2^31 - 1); the seed a run used is
# printed either way, and `AXIAL_TEST_SEED=N bash scripts/fuzz.sh` with that
# N repeats a run's choices as far as libFuzzer's timing allows.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-90}
case $secs in ''|*[!0-9]*) echo "usage: $0 [seconds]" >&2; exit 2 ;; esac

seed_args=()
if [ -n "${AXIAL_TEST_SEED:-}" ]; then
  base=10 digits=$AXIAL_TEST_SEED
  case $digits in 0[xX]*) base=16 digits=${digits:2} ;; esac
  bad=
  case $base:$digits in 10:*[!0-9]*|16:*[!0-9a-fA-F]*|*:) bad=1 ;; esac
  while [ "${digits:0:1}" = 0 ]; do digits=${digits:1}; done # leading zeros
  if [ $base = 16 ] && [ ${#digits} -gt 16 ]; then bad=1; fi
  if [ $base = 10 ] && { [ ${#digits} -gt 20 ] ||
       { [ ${#digits} -eq 20 ] && [[ $digits > 18446744073709551615 ]]; }; }; then bad=1; fi
  if [ -n "$bad" ]; then
    echo "fuzz.sh: AXIAL_TEST_SEED=$AXIAL_TEST_SEED is not a decimal or 0x hex number of at most 64 bits" >&2
    exit 2
  fi
  seed=0 # the value modulo 2^31 - 1, a digit at a time (no 64-bit overflow)
  for ((i = 0; i < ${#digits}; i++)); do seed=$(( (seed * base + 16#${digits:i:1}) % 2147483647 )); done
  [ $seed -ne 0 ] || seed=2147483647
  seed_args=("-seed=$seed")
  echo "fuzz.sh: AXIAL_TEST_SEED=$AXIAL_TEST_SEED: libFuzzer -seed=$seed"
fi

bash scripts/deps.sh test # clang and libclang-rt-14-dev (libFuzzer) are among them

# build-asan/: the whole library with ASan + UBSan (aborting) and libFuzzer's
# coverage instrumentation; only the target links libFuzzer itself
# (-fsanitize=fuzzer).  scripts/test.sh's asan stage runs the whole suite from
# the same build (AXIAL_FUZZ_SETUP_ONLY=1: configure it and stop).  The SIMD
# kernel files leave out UBSan's pointer checks and are compiled at -O1
# (kernels/meson.build): clang's instrumentation and optimisation of their
# large inlined loops take most of the build's time, and ASan checks every
# access those pointers make.  Debug info
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
  ${seed_args[@]+"${seed_args[@]}"} -print_final_stats=1 -artifact_prefix="$findings/" > "$run/log" 2>&1
rc=$?
set -e
grep -E '^axial-fuzz:|^INFO: Seed|^#[0-9]+[[:space:]]+(INITED|DONE)' "$run/log" || true
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$run/log")
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$run/log")
used=$(sed -n 's/^INFO: Seed: *//p' "$run/log" | head -n 1)
cov=$(grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED)' "$run/log" | tail -n 1 | grep -oE 'cov: [0-9]+ ft: [0-9]+' || true)
if [ $rc -ne 0 ]; then
  grep -E 'MISMATCH|axial-fuzz: case|ERROR: |SUMMARY: |runtime error' "$run/log" | head -n 20 || true
  grep -o "Test unit written to .*" "$run/log" | sed 's/^Test unit written to /reproducer: /' || true
  echo "fuzz: FAILED (exit $rc) after ${execs:-?} executions, seed ${used:-?}; log $run/log"
  exit $rc
fi
echo "fuzz: ${execs:-?} executions in ${secs} s, ${rate:-?} exec/s, ${cov:-cov: ?}, seed ${used:-?}; no finding"
