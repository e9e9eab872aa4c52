#!/usr/bin/env bash
# The main job's page where there is no GPU (scripts/run-main.sh): the study as recorded on an
# H200, one headline per study, the analysis of one of its traces, on one screenful or a few
# (at most 300 lines: the CTest test main_page); then the full reports, written into OUT_DIR, and
# how to open them.
# Usage: scripts/main-page.sh ATTNPROF OUT_DIR
set -euo pipefail
attnprof=${1:?usage: scripts/main-page.sh ATTNPROF OUT_DIR}
out=${2:?usage: scripts/main-page.sh ATTNPROF OUT_DIR}
shown=$attnprof  # as the user typed it, for the last line
attnprof=$(cd "$(dirname "$attnprof")" && pwd)/$(basename "$attnprof")
cd "$(dirname "$0")/.."
mkdir -p "$out"
study=examples/h200-study
trace=$study/traces/naive.json.gz
models=(examples/models/*)

heading() { printf '\n== %s ==\n\n' "$*"; }

echo "No CUDA GPU with LibTorch here: the attention study as recorded on an H200 ($study),"
echo "then attnprof's analysis of one of its traces."
heading "The study: six attention implementations and SDPA's own choice, on an H200"
# The table in panels of columns that fit 120; its findings are in the full report.
"$attnprof" report "$study" --format text | sed '/^What the traces show/,$d'
heading "Each study's fastest variant, then what each model's attention would save per step"
"$attnprof" report "$study" "${models[@]}" --format headline -o -
heading "One trace: the naive attention ($trace)"
"$attnprof" analyze --explain --top 5 --region forward "$trace"

# The full reports: every finding, table and study, and the timelines, in files.
"$attnprof" report "$study" "${models[@]}" -o "$out/study.html"
"$attnprof" report "$study" "${models[@]}" --format text --wide -o "$out/study.txt"
"$attnprof" analyze --explain --region forward "$study/traces" -o "$out/traces.txt"
heading "The full reports"
printf '  %-28s %s\n' \
  "$out/study.html" "the study's page: table, findings, plots, each variant's timeline; open it" \
  "" "in a browser, offline: xdg-open $out/study.html" \
  "$out/study.txt" "the same as text: every study's table and findings, how each is measured" \
  "$out/traces.txt" "attnprof analyze --explain of the study's 7 traces"
echo "Your own trace: $shown analyze --explain TRACE.json.gz (README.md, \"Analyze your trace\")"
