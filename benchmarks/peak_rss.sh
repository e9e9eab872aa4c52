#!/bin/bash
# Peak memory of `attnprof analyze` by output format, for one or more builds side by side.
#
#   benchmarks/peak_rss.sh TRACE BINARY [BINARY...]
#
# For each binary, runs `analyze TRACE` with --format text, json and md (output to /dev/null)
# and prints the peak resident set size (/usr/bin/time -v), the output's size and the wall time,
# then JSON's peak against text's. Each binary runs the same trace in turn, so a figure of one
# build is next to the other's from the same minute of the same machine. JSON's peak
# should be within 10 % of text's. Traces to try: tools/grow_trace (a ~200 MB GPT-2 step) and
# tools/many_regions_trace.py (a million small regions).
set -euo pipefail

if [[ $# -lt 2 ]]; then
  echo "usage: $0 TRACE BINARY [BINARY...]" >&2
  exit 2
fi
trace=$1
shift
[[ -r $trace ]] || { echo "$0: cannot read $trace" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "$0: needs /usr/bin/time (Debian package time)" >&2; exit 2; }

printf '%-40s %-5s %12s %12s %9s\n' binary format "peak RSS MB" "output MB" "wall s"
for binary in "$@"; do
  declare -A peak=()
  for format in text json md; do
    log=$(mktemp)
    out=$(mktemp)
    /usr/bin/time -v "$binary" analyze "$trace" --format "$format" >"$out" 2>"$log" || true
    kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")
    wall=$(awk '/Elapsed \(wall clock\)/ {print $NF}' "$log")
    bytes=$(stat -c %s "$out")
    peak[$format]=$kb
    printf '%-40s %-5s %12.1f %12.1f %9s\n' "$binary" "$format" "$(echo "$kb / 1024" | bc -l)" \
      "$(echo "$bytes / 1048576" | bc -l)" "$wall"
    rm -f "$log" "$out"
  done
  printf '%-40s json/text peak: %.2f\n' "$binary" "$(echo "${peak[json]} / ${peak[text]}" | bc -l)"
  unset peak
done
