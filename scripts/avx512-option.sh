#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Prints the meson value of -Davx512 for a sanitizer build on this CPU:
# "auto" where it has what dispatch requires (AVX-512 F, DQ, BW, VL),
# "disabled" elsewhere (no test could run those kernels there).
for f in avx512f avx512dq avx512bw avx512vl; do
  grep -qw "$f" /proc/cpuinfo 2>/dev/null || { echo disabled; exit 0; }
done
echo auto
