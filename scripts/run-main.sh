#!/usr/bin/env bash
# The main job. On a machine with a CUDA GPU and LibTorch: run the attention study (the bench).
# Elsewhere: analyze the real H200 traces that ship with the project.
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

if "$attnprof" bench --help >/dev/null 2>&1 && "$attnprof" bench --help 2>&1 | grep -q -- --variants &&
   command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  status "a CUDA GPU and LibTorch are here: running the study into out/study"
  exec "$attnprof" bench --out out/study "$@"
fi

echo "No CUDA GPU with LibTorch here: the study as recorded on an H200 (examples/h200-study), then" >&2
echo "attnprof's analysis of its traces." >&2
echo
# The bench's table.txt (211 columns wide) rendered again from its summary.json, with the studies
# beside it: each table in panels of columns that fit 120, each finding wrapped.
"$attnprof" report examples/h200-study --format text
echo
# The studies recorded beside it (other shapes, the backward pass, FlexAttention, a custom kernel),
# one headline each; examples/h200-study/report.html has them in full.
echo "Each study's fastest variant: the study above, then those beside it (examples/h200-study/*/,"
echo "in full in its report.html):"
"$attnprof" report examples/h200-study --format headline
echo
echo "Real models, from their traces back to the study (examples/models, docs/MODELS.md): the fastest"
echo "variant for each model's attention calls, and what switching would save per step:"
for study in examples/models/*/; do
  "$attnprof" report "${study%/}" --format headline -o -
done
echo
status "analyzing examples/h200-study/traces"
exec "$attnprof" analyze --explain --region forward examples/h200-study/traces/*.json.gz "$@"
