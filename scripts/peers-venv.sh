#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Optional: the Python runtimes users run, as benchmark peers, in .venv-peers
# (never in the default path: large downloads).  From PyPI: numpy, torch (the
# PyPI wheel; it brings CUDA libraries it does not use here), onnx,
# onnxruntime, openvino, scipy (logsumexp).  scripts/bench.sh uses the venv
# when it exists.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! /usr/bin/python3 -m venv --help >/dev/null 2>&1 || ! /usr/bin/python3 -c 'import ensurepip' 2>/dev/null; then
  SUDO=; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q python3-venv
fi
[ -x .venv-peers/bin/python ] || /usr/bin/python3 -m venv .venv-peers
.venv-peers/bin/pip install -q --upgrade pip
.venv-peers/bin/pip install -q numpy torch onnx onnxruntime openvino scipy
.venv-peers/bin/python -c 'import numpy, torch, onnx, onnxruntime, openvino, scipy; print("peers:", "numpy", numpy.__version__, "torch", torch.__version__, "onnxruntime", onnxruntime.__version__, "openvino", openvino.__version__, "scipy", scipy.__version__)'
