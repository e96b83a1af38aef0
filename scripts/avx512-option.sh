#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Prints the meson value of -Davx512 for a sanitizer build on this CPU:
# "auto" where it has what dispatch requires (AVX-512 F, DQ, BW, VL;
# scripts/cpu-isas.sh), "disabled" elsewhere (no test could run those kernels
# there).
isas=$(bash "$(dirname "$0")/cpu-isas.sh")
if [[ ",$isas," == *,avx512,* ]]; then echo auto; else echo disabled; fi
