#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Prints the ISAs of axial that this CPU and its OS report, comma-separated
# (e.g. "scalar,avx2,avx512"), read from /proc/cpuinfo's flags -- the
# kernel's view, which already leaves out what the OS does not save (XCR0) --
# and not from axial's own detection, which is what the tests check:
#   avx2    avx, avx2, fma and f16c;
#   avx512  avx512f, avx512dq, avx512bw and avx512vl (and avx2's);
#   neon    aarch64 (Advanced SIMD is part of the architecture; "asimd").
# scripts/test.sh sets AXIAL_TEST_REQUIRE_ISA to it in every stage that runs
# natively, so an ISA the CPU has cannot go untested behind a skip.
set -euo pipefail
flags=$(grep -m1 -E '^(flags|Features)[[:space:]]*:' /proc/cpuinfo 2>/dev/null | cut -d: -f2 || true)
has() { local f; for f in "$@"; do [[ " $flags " == *" $f "* ]] || return 1; done; }
isas=scalar
case $(uname -m) in
  x86_64)
    if has avx avx2 fma f16c; then
      isas+=,avx2
      has avx512f avx512dq avx512bw avx512vl && isas+=,avx512
    fi ;;
  aarch64) has asimd && isas+=,neon ;;
esac
echo "$isas"
