#!/usr/bin/env bash
# Regenerates every shipped study's table.txt, summary.md and report.html (where the folder has
# one) from its summary.json and traces, without a GPU: they are `attnprof report DIR` in text,
# Markdown and HTML, the renderers the bench itself prints and writes them with
# (bench/src/study.cpp). With --check, writes nothing and fails, naming the files, when a shipped
# file differs from what this attnprof renders (a CTest test runs that).
# Usage: scripts/regenerate-examples.sh ATTNPROF [--check]
set -euo pipefail
attnprof=${1:?usage: scripts/regenerate-examples.sh ATTNPROF [--check]}
attnprof=$(cd "$(dirname "$attnprof")" && pwd)/$(basename "$attnprof")
check=${2:-}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"  # the folders are named relative to it, as the shipped files show them
trap 'find examples -name ".*.regenerated" -delete' EXIT
differ=0
while IFS= read -r summary; do
  dir=$(dirname "$summary")
  for pair in text:table.txt md:summary.md html:report.html; do
    format=${pair%%:*} file=${pair#*:}
    [ "$format" = html ] && [ ! -f "$dir/$file" ] && continue
    # Written beside the file it replaces: the page links its traces relative to where it is.
    # --wide: table.txt is what the bench prints, its table whole (report fits 120 columns
    # otherwise).
    out=$dir/.$file.regenerated
    "$attnprof" report "$dir" --format "$format" --wide -o "$out"
    if [ "$check" = --check ]; then
      if ! cmp -s "$out" "$dir/$file"; then
        echo "differs from what attnprof renders: $dir/$file (scripts/regenerate-examples.sh $1)"
        diff "$dir/$file" "$out" | head -5
        differ=1
      fi
      rm -f "$out"
    else
      mv "$out" "$dir/$file"
    fi
  done
done < <(find examples -name summary.json | sort)
exit "$differ"
