#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian 12 packages axial needs, skipping those already there.
#   scripts/deps.sh test    build + test suite (meson, criterion, qemu-user, cross gcc,
#                           valgrind, clang + its sanitizer/libFuzzer runtimes, cmake,
#                           python3-venv and python3-dev for the Python package)
#   scripts/deps.sh bench   release build + benchmarks (Google Benchmark, Eigen, oneDNN, numpy, SLEEF)
set -euo pipefail

pkgs_test=(meson ninja-build pkg-config gcc libcriterion-dev
           qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross
           valgrind clang libclang-rt-14-dev cmake libpthreadpool-dev libsleef-dev
           dpkg-cross python3 python3-venv python3-dev libsimde-dev)
pkgs_bench=(meson ninja-build pkg-config gcc g++ libbenchmark-dev
            libeigen3-dev libdnnl-dev python3 python3-numpy libpthreadpool-dev
            libsleef-dev python3-venv python3-dev)

case "${1:-test}" in
  test)  want=("${pkgs_test[@]}") ;;
  bench) want=("${pkgs_bench[@]}") ;;
  all)   want=("${pkgs_test[@]}" "${pkgs_bench[@]}") ;;
  *) echo "usage: $0 test|bench|all" >&2; exit 2 ;;
esac

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
missing=()
for p in "${want[@]}"; do installed "$p" || missing+=("$p"); done
# The aarch64 cross build links the arm64 pthreadpool and SLEEF.  Debian's
# libpthreadpool-dev is not Multi-Arch: its arm64 package would replace the
# amd64 one, so it is converted with dpkg-cross into *-arm64-cross packages
# that install under /usr/aarch64-linux-gnu (where aarch64-linux-gnu-gcc and
# `qemu-aarch64 -L /usr/aarch64-linux-gnu` look), beside the amd64 one.
# SLEEF (libsleef3, libsleef-dev) goes the same way, so that everything the
# arm64 tests load sits under that one prefix (no libc6:arm64 multiarch,
# which would hang pthread_create under `qemu-aarch64 -L`).  SLEEF's packages
# are Multi-Arch: same, which dpkg-cross skips unless given -M.
cross=()
if [ "${1:-test}" != bench ]; then
  installed libpthreadpool-dev-arm64-cross || cross+=(libpthreadpool0 libpthreadpool-dev)
  installed libsleef-dev-arm64-cross || cross+=(libsleef3 libsleef-dev)
fi
[ ${#missing[@]} -eq 0 ] && [ ${#cross[@]} -eq 0 ] &&
  { [ "${1:-test}" = bench ] || { [ -e /usr/aarch64-linux-gnu/lib/libpthreadpool.so ] &&
                                  [ -e /usr/aarch64-linux-gnu/lib/libsleef.so ]; }; } && exit 0

SUDO=
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "deps.sh: need root to install: ${missing[*]} ${cross[*]}" >&2; exit 1; }
  SUDO=sudo
fi
if [ ${#cross[@]} -gt 0 ]; then
  dpkg --print-foreign-architectures | grep -qx arm64 || $SUDO dpkg --add-architecture arm64
fi
$SUDO apt-get update -q
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps.sh: installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
if [ ${#cross[@]} -gt 0 ]; then
  echo "deps.sh: installing ${cross[*]} for arm64 (dpkg-cross)"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && chmod 777 . && apt-get download "${cross[@]/%/:arm64}" &&
   dpkg-cross -a arm64 -M -b ./*_arm64.deb && $SUDO dpkg -i ./*-arm64-cross_*_all.deb)
fi
# dpkg-cross 2.6 may drop a dev package's link lib*.so -> .so.N (the linker
# needs it); these links are the only files made here outside a package.
if [ "${1:-test}" != bench ]; then
  for l in libpthreadpool.so:libpthreadpool.so.0 libsleef.so:libsleef.so.3; do
    so=/usr/aarch64-linux-gnu/lib/${l%%:*}
    if [ ! -e "$so" ]; then
      [ -n "${SUDO:-}" ] || [ "$(id -u)" -eq 0 ] || SUDO=sudo
      ${SUDO:-} ln -s "${l##*:}" "$so"
    fi
  done
fi
