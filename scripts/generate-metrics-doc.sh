#!/usr/bin/env bash
# Writes docs/METRICS.md's generated tables (region facts, findings) from the catalogs: builds
# the metrics_doc tool in BUILD_DIR (default build/release) and runs it on the doc. Run it after
# changing a catalog; tests/metric_names_test.cpp fails until the doc matches.
# Usage: scripts/generate-metrics-doc.sh [BUILD_DIR] [--check]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build/release}
cmake --build "$build" --target metrics_doc
if [ "${2:-}" = --check ]; then
  exec "$build/metrics_doc" --check "$root/docs/METRICS.md"
fi
exec "$build/metrics_doc" "$root/docs/METRICS.md"
