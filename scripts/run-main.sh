#!/usr/bin/env bash
# The main job. On a machine with a CUDA GPU and LibTorch: run the attention study (the bench).
# Elsewhere: the study as recorded on an H200 and one of its traces analyzed (scripts/main-page.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
# Installing and building take minutes on a fresh machine: say what is happening, on stderr, so
# that stdout stays the study's output (docs/SECURITY.md).
status() { echo "run-main: $*" >&2; }
status "checking the Debian packages, then configuring and building attnprof (minutes the first time)..."
started=$SECONDS
# ninja's count ("[12/97]") on stderr as it builds: the build was silent for minutes.
NINJA_STATUS="run-main: building [%f/%t] " scripts/configure.sh --target main_job >&2
status "built in $((SECONDS - started)) s"
attnprof=build/release/attnprof

# A build with the bench names LibTorch in its --version.
if "$attnprof" --version 2>/dev/null | grep -q '^LibTorch ' &&
   command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  status "a CUDA GPU and LibTorch are here: running the study into out/study"
  exec "$attnprof" bench --out out/study "$@"
fi

# Elsewhere: the shipped study and one trace's analysis on a page, the full reports in out/main.
exec scripts/main-page.sh "$attnprof" out/main
