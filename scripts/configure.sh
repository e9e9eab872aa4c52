#!/usr/bin/env bash
# Installs the Debian dependencies (idempotent), then configures and builds the release preset.
# LibTorch is used for the GPU bench when the machine's python3 has torch; otherwise the bench
# is left out and `attnprof bench` says how to get it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-debian.sh

prefix=""
if torch_prefix=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)' 2>/dev/null); then
  prefix="$torch_prefix"
fi
cmake --preset release ${prefix:+-DCMAKE_PREFIX_PATH="$prefix${CMAKE_PREFIX_PATH:+;$CMAKE_PREFIX_PATH}"} >build-configure.log 2>&1 \
  || { cat build-configure.log >&2; exit 2; }
rm -f build-configure.log
cmake --build --preset release "$@"
