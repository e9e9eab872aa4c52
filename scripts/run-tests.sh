#!/usr/bin/env bash
# The whole CPU test suite (what CI runs): set-up, build, then every test but the GPU ones.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/configure.sh
ctest --preset release -j "$(nproc)"
