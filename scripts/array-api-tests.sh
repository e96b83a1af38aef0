#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The array API test suite's tests of sum, cumulative_sum and roll against
# the package (build-python/venv, scripts/python-venv.sh): numpy's namespace
# with axial's three functions in place of numpy's (tests/array_api/axial_xp.py).
#   bash scripts/array-api-tests.sh DIR [--max-examples=N ...]
# DIR: a checkout of github.com/data-apis/array-api-tests with its array-api
# submodule (`git submodule update --init`); not fetched here (CI reaches PyPI
# and Debian only).  Needs ndindex and pytest-json-report (PyPI), installed
# into the venv.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:?usage: scripts/array-api-tests.sh ARRAY_API_TESTS_DIR [pytest options]}
shift
py=$here/build-python/venv/bin/python
[ -x "$py" ] || bash "$here/scripts/python-venv.sh"
"$py" -m pip install -q ndindex pytest-json-report
cd "$dir"
PYTHONPATH=$here/tests/array_api ARRAY_API_TESTS_MODULE=axial_xp \
  ARRAY_API_TESTS_VERSION=$("$py" -c 'import numpy; print(numpy.__array_api_version__)') \
  "$py" -m pytest -p no:cacheprovider -v "$@" \
  array_api_tests/test_statistical_functions.py::test_sum \
  array_api_tests/test_statistical_functions.py::test_cumulative_sum \
  array_api_tests/test_manipulation_functions.py::test_roll
