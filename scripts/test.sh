#!/usr/bin/env bash
# The whole test suite from a fresh Debian 12 machine (what CI runs):
# installs what is missing (scripts/deps.sh test), then these stages, in order:
#   native    native build (warnings are errors) and `meson test`: criterion
#             suite and TAP driver per ISA, kernel-table test, AXIAL_ISA
#             tests, README example (big tests included: SPEC-size accuracy,
#             > 2^31-element tensors);
#   qemu-x86  the TAP driver under qemu-x86_64 as CPUs without AVX-512
#             (Haswell) and without AVX (Nehalem): dispatch must not leak an
#             ISA (emulation is ~50x slower: big tests report SKIP there,
#             AXIAL_TEST_BIG=0, and random/shape tests run half their cases);
#   aarch64   cross build, whole suite under qemu-aarch64 for the neon and
#             the scalar ISA (neon is required: a missing one fails);
#   asan      the suite built with ASan + UBSan (-fno-sanitize-recover);
#   tsan      the API tests (threads calling every op while one switches
#             the ISA; the pool, the adapters, several threads submitting to
#             one pool) and the parallel tests of every ISA (the _ex forms on
#             the pool and on executors of several threads) under ThreadSanitizer;
#   valgrind  the TAP driver under valgrind memcheck;
#   fuzz      the differential fuzzer (clang, libFuzzer + ASan + UBSan) on
#             its seed corpus for AXIAL_FUZZ_SECONDS (default 90).
# `bash scripts/test.sh STAGE...` runs only the stages named.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh test
jobs=$(nproc)
all_stages=(native qemu-x86 aarch64 asan tsan valgrind fuzz)
stages=("$@")
[ ${#stages[@]} -eq 0 ] && stages=("${all_stages[@]}")
for s in "${stages[@]}"; do
  [[ " ${all_stages[*]} " == *" $s "* ]] || { echo "test.sh: unknown stage $s (${all_stages[*]})" >&2; exit 2; }
done

setup() { # dir, extra meson args...
  local dir=$1; shift
  if [ -f "$dir/build.ninja" ]; then meson setup --reconfigure "$dir" "$@" >/dev/null
  else meson setup "$dir" "$@" >/dev/null; fi
}

stage_native() {
  echo "== native build and suite"
  setup build -Dbenchmarks=false -Dwerror=true
  ninja -C build -j "$jobs"
  meson test -C build --print-errorlogs --num-processes 1
}

stage_qemu-x86() {
  echo "== x86-64 under qemu-user: without AVX-512 (Haswell) and without AVX (Nehalem)"
  setup build -Dbenchmarks=false -Dwerror=true
  ninja -C build -j "$jobs" tests/axial-tap
  for cpu in Haswell Nehalem; do
    echo "-- qemu-x86_64 -cpu $cpu"
    # Haswell runs AVX2 for sure: its tests must run there, not show as skipped
    local require=; [ "$cpu" = Haswell ] && require=avx2
    # qemu's warnings about CPUID features TCG lacks go to the log, not the screen
    AXIAL_TEST_REQUIRE_ISA=$require AXIAL_TEST_BIG=0 AXIAL_TEST_SCALE=0.5 \
      qemu-x86_64 -cpu "$cpu" build/tests/axial-tap > "build/qemu-$cpu.tap" 2> "build/qemu-$cpu.log" \
      || { grep -v '^qemu-x86_64: warning' "build/qemu-$cpu.log" | tail -n 20
           grep -E '^(not ok|Bail out)' "build/qemu-$cpu.tap"; echo "FAILED under -cpu $cpu"; exit 1; }
    grep -E ' # SKIP ' "build/qemu-$cpu.tap" | sed 's/.* # SKIP /  skipped: /' | sort | uniq -c || true
    tail -n 1 "build/qemu-$cpu.tap"
  done
}

stage_aarch64() {
  echo "== aarch64 cross build, whole suite under qemu-aarch64 (neon and scalar)"
  setup build-aarch64 --cross-file cross/aarch64-linux-gnu.txt -Dbenchmarks=false -Dwerror=true
  ninja -C build-aarch64 -j "$jobs"
  AXIAL_TEST_REQUIRE_ISA=neon AXIAL_TEST_BIG=0 AXIAL_TEST_SCALE=0.5 \
    meson test -C build-aarch64 --print-errorlogs --num-processes 1
}

stage_asan() {
  echo "== ASan + UBSan build and suite"
  setup build-asan -Dbenchmarks=false -Db_sanitize=address,undefined \
        -Db_lundef=false -Dc_args=-fno-sanitize-recover=undefined
  ninja -C build-asan -j "$jobs"
  # allocator_may_return_null: the NOMEM test asks for more than RAM + swap
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
    meson test -C build-asan --print-errorlogs --num-processes 1 -t 4
}

stage_tsan() {
  echo "== ThreadSanitizer: the API tests (threads calling every op while one switches the ISA)"
  setup build-tsan -Dbenchmarks=false -Db_sanitize=thread -Db_lundef=false
  ninja -C build-tsan -j "$jobs" tests/axial-tap
  TSAN_OPTIONS=halt_on_error=1:allocator_may_return_null=1 build-tsan/tests/axial-tap --isa=api
  # the split ops on the pool and the test executors, every ISA, a quarter of the cases
  TSAN_OPTIONS=halt_on_error=1 AXIAL_TEST_BIG=0 AXIAL_TEST_SCALE=0.5 \
    build-tsan/tests/axial-tap parallel_
}

stage_valgrind() {
  echo "== valgrind memcheck of the TAP driver"
  # valgrind 3.19 hides AVX-512 from CPUID, so it runs scalar and AVX2 (the
  # AVX-512 tests show as skipped here; ASan covers them).  The long-double
  # tolerance tests are left out (~100x slower under valgrind); big tests too.
  setup build -Dbenchmarks=false -Dwerror=true
  ninja -C build -j "$jobs" tests/axial-tap
  AXIAL_TEST_BIG=0 AXIAL_TEST_SCALE=0.2 AXIAL_TEST_SKIP=cumsum_tolerance,reduce_tolerance \
    valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
    build/tests/axial-tap > build/valgrind.tap 2> build/valgrind.log \
    || { grep -v '^#' build/valgrind.log | tail -n 40; grep -E '^not ok' build/valgrind.tap
         echo "FAILED under valgrind"; exit 1; }
  tail -n 1 build/valgrind.tap
}

stage_fuzz() {
  echo "== differential fuzzer, ${AXIAL_FUZZ_SECONDS:-90} s"
  bash scripts/fuzz.sh "${AXIAL_FUZZ_SECONDS:-90}"
  # the seed replay and the self-tests that inject faults (the checks can fail)
  meson test -C build-fuzz --suite fuzz --no-rebuild --print-errorlogs --num-processes 1
}

for s in "${stages[@]}"; do
  t0=$(date +%s)
  "stage_$s"
  echo "-- stage $s passed in $(( $(date +%s) - t0 )) s"
done
echo "== all tests passed (${stages[*]})"
