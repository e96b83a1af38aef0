#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Python package as its users take it, in build-python/venv: numpy, dask,
# distributed, ml_dtypes, pytest and hypothesis from PyPI, then `pip install .`
# (meson-python, meson and ninja come from PyPI under pip's build isolation).
# Checks that the package installs itself alone: no header, pkg-config file
# or library.  Used by scripts/test.sh (stage python) and scripts/bench.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=build-python/venv
[ -x "$venv/bin/python" ] || { mkdir -p build-python && python3 -m venv "$venv"; }
py=$venv/bin/python
"$py" -m pip install -q --upgrade pip
"$py" -m pip install -q 'numpy>=2' 'dask[array]' distributed ml_dtypes pytest hypothesis
"$py" -m pip install -q --force-reinstall --no-deps .
files=$("$py" -m pip show -f axial | sed -n '/^Files:/,$p' | tail -n +2)
if echo "$files" | grep -Ev '^ *(axial/|axial-[0-9.]+\.dist-info/)' | grep -q .; then
  echo "the package installs more than itself:"; echo "$files"; exit 1
fi
echo "-- axial $("$py" -c 'import axial; print(axial.__version__, axial.isa())') in $venv"
