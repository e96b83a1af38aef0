#!/usr/bin/env bash
# The test suite from a fresh Debian 12 machine: installs what is missing
# (scripts/deps.sh test), then
#   1. native build (warnings are errors) and `meson test`: criterion suite,
#      TAP driver, environment-variable tests, README example;
#   2. the same TAP driver under qemu-x86_64 (emulation is ~50x slower: the
#      SPEC-size accuracy tests report SKIP there (AXIAL_TEST_BIG=0) and the
#      random/shape tests run at half their case count; the native run has all) as CPUs without AVX-512
#      (Haswell) and without AVX (Nehalem): dispatch must not leak an ISA;
#   3. an aarch64 cross build whose TAP driver runs under qemu-aarch64.
# With --sanitize: only a build with -Db_sanitize=address,undefined and its suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh test
jobs=$(nproc)

setup() { # dir, extra meson args...
  local dir=$1; shift
  if [ -f "$dir/build.ninja" ]; then meson setup --reconfigure "$dir" "$@" >/dev/null
  else meson setup "$dir" "$@" >/dev/null; fi
}

if [ "${1:-}" = --sanitize ]; then
  setup build-asan -Dbenchmarks=false -Db_sanitize=address,undefined \
        -Db_lundef=false -Dc_args=-fno-sanitize-recover=undefined
  ninja -C build-asan -j "$jobs"
  # allocator_may_return_null: the NOMEM test asks for more than RAM + swap
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 meson test -C build-asan --print-errorlogs --num-processes 1 -t 4
  exit 0
fi

echo "== native build and suite"
setup build -Dbenchmarks=false -Dwerror=true
ninja -C build -j "$jobs"
meson test -C build --print-errorlogs --num-processes 1

echo "== x86-64 under qemu-user: without AVX-512 (Haswell) and without AVX (Nehalem)"
for cpu in Haswell Nehalem; do
  echo "-- qemu-x86_64 -cpu $cpu"
  # Haswell runs AVX2 for sure: its tests must run there, not show as skipped
  require=; [ "$cpu" = Haswell ] && require=avx2
  # qemu's warnings about CPUID features TCG lacks go to the log, not the screen
  AXIAL_TEST_REQUIRE_ISA=$require AXIAL_TEST_BIG=0 AXIAL_TEST_SCALE=0.5 qemu-x86_64 -cpu "$cpu" build/tests/axial-tap > "build/qemu-$cpu.tap" 2> "build/qemu-$cpu.log" \
    || { grep -v '^qemu-x86_64: warning' "build/qemu-$cpu.log" | tail -n 20
         grep -E '^not ok' "build/qemu-$cpu.tap"; echo "FAILED under -cpu $cpu"; exit 1; }
  grep -E ' # SKIP ' "build/qemu-$cpu.tap" | sed 's/.* # SKIP /  skipped: /' | sort | uniq -c || true
  tail -n 1 "build/qemu-$cpu.tap"
done

echo "== aarch64 cross build under qemu-aarch64"
setup build-aarch64 --cross-file cross/aarch64-linux-gnu.txt -Dbenchmarks=false -Dwerror=true
ninja -C build-aarch64 -j "$jobs"
AXIAL_TEST_BIG=0 AXIAL_TEST_SCALE=0.5 meson test -C build-aarch64 --print-errorlogs --num-processes 1
echo "== all tests passed"
