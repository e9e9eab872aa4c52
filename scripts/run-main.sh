#!/usr/bin/env bash
# The main job. On a machine with a CUDA GPU and LibTorch: run the attention study (the bench).
# Elsewhere: analyze the real H200 traces that ship with the project.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/configure.sh --target attnprof >/dev/null
attnprof=build/release/attnprof

if "$attnprof" bench --help >/dev/null 2>&1 && "$attnprof" bench --help 2>&1 | grep -q -- --variants &&
   command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  exec "$attnprof" bench --out out/study "$@"
fi

echo "No CUDA GPU with LibTorch here: the study as recorded on an H200 (examples/h200-study), then" >&2
echo "attnprof's analysis of its traces." >&2
echo
cat examples/h200-study/table.txt
echo
exec "$attnprof" analyze --explain --region forward examples/h200-study/traces/*.json.gz "$@"
