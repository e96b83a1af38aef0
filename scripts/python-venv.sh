#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Python package as its users take it, in build-python/venv: numpy, dask,
# distributed, ml_dtypes, pytest and hypothesis from PyPI, then `pip wheel .`
# (meson-python, meson and ninja come from PyPI under pip's build isolation;
# `pip install .` builds the same wheel) and the wheel installed.  Checks
# that the wheel holds the package alone: no header, pkg-config file or
# library.  Used by scripts/test.sh (stage python) and scripts/bench.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=build-python/venv
[ -x "$venv/bin/python" ] || { mkdir -p build-python && python3 -m venv "$venv"; }
py=$venv/bin/python
"$py" -m pip install -q --upgrade pip
"$py" -m pip install -q 'numpy>=2' 'dask[array]' distributed ml_dtypes pytest hypothesis
rm -rf build-python/wheel
"$py" -m pip wheel -q --no-deps -w build-python/wheel .
wheel=$(ls build-python/wheel/axial-*.whl)
files=$("$py" -c 'import sys, zipfile; print("\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))' "$wheel")
if echo "$files" | grep -Ev '^(axial/|axial-[0-9.]+\.dist-info/)' | grep -q .; then
  echo "the wheel holds more than the package:"; echo "$files"; exit 1
fi
"$py" -m pip install -q --force-reinstall --no-deps "$wheel"
echo "-- axial $("$py" -c 'import axial; print(axial.__version__, axial.isa())') in $venv"
