#!/usr/bin/env bash
# Installs the Debian 12 packages axial needs, skipping those already there.
#   scripts/deps.sh test    build + test suite (meson, criterion, qemu-user, cross gcc,
#                           valgrind, clang + its sanitizer/libFuzzer runtimes, cmake)
#   scripts/deps.sh bench   release build + benchmarks (Google Benchmark, Eigen, oneDNN, numpy)
set -euo pipefail

pkgs_test=(meson ninja-build pkg-config gcc libcriterion-dev
           qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross
           valgrind clang libclang-rt-14-dev cmake)
pkgs_bench=(meson ninja-build pkg-config gcc g++ libbenchmark-dev
            libeigen3-dev libdnnl-dev python3 python3-numpy)

case "${1:-test}" in
  test)  want=("${pkgs_test[@]}") ;;
  bench) want=("${pkgs_bench[@]}") ;;
  all)   want=("${pkgs_test[@]}" "${pkgs_bench[@]}") ;;
  *) echo "usage: $0 test|bench|all" >&2; exit 2 ;;
esac

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "deps.sh: need root to install: ${missing[*]}" >&2; exit 1; }
  SUDO=sudo
fi
echo "deps.sh: installing ${missing[*]}"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
