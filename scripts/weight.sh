#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The kernels' weight, as the kernel design sets its limits (kernels/README.md):
#   bash scripts/weight.sh [TREE]    (TREE: a checkout, default this one)
# prints the lines of kernels/ (scalar included), the machine code of
# libaxial.so (.text) and the compile time of every kernel file at -O3 (a
# release build, one job at a time, so the times do not overlap), from a
# fresh release build in TREE/build-weight/ (libaxial only: no tests or
# benchmarks), and the compile times of the AArch64 kernel files from a cross
# build in TREE/build-weight-a64/ where aarch64-linux-gnu-gcc is installed.
# Run it on a quiet machine: the times are wall-clock.
set -euo pipefail
tree=$(cd "${1:-$(dirname "$0")/..}" && pwd)
cd "$tree"
echo "== $tree ($(git -C "$tree" log -1 --format=%h 2>/dev/null || echo '?'))"
echo "-- lines of kernels/: $(find kernels -name '*.[ch]' -print0 | xargs -0 cat | wc -l)"
rm -rf build-weight
meson setup build-weight --buildtype=release -Dtests=false -Dbenchmarks=false >/dev/null
ninja -C build-weight -j1 >/dev/null
so=$(find build-weight -maxdepth 1 -type f -name 'libaxial.so.*.*' | head -n1)
text=$(size -A "$so" | awk '$1 == ".text" {print $2}')
echo "-- .text of $(basename "$so"): $text bytes ($((text / 1024)) KiB)"
times() {
  awk 'NR > 1 && $4 ~ /kernels/ && $4 ~ /\.o$/ {printf "   %6.1f  %s\n", ($2 - $1) / 1000, $4}' \
    "$1/.ninja_log" | sort -rn
}
echo "-- compile time per kernel file (s, -O3, one job), slowest first:"
times build-weight
if command -v aarch64-linux-gnu-gcc >/dev/null; then
  rm -rf build-weight-a64
  meson setup build-weight-a64 --buildtype=release -Dtests=false -Dbenchmarks=false \
    --cross-file cross/aarch64-linux-gnu.txt >/dev/null
  ninja -C build-weight-a64 -j1 >/dev/null
  echo "-- AArch64 (aarch64-linux-gnu-gcc), the same:"
  times build-weight-a64
fi
