#!/usr/bin/env bash
# `attnprof diff --format html` in a real browser: the page of each pair of traces laid out in
# headless Chromium at 800 and 1400 px, its DOM checked (tests/browser/check_diff.html: the
# sections in the text's order, the headline's words, each view's rows, each view's table readable
# without scrolling, the page no wider than the window, nothing fetched), and a screenshot at
# each width, every page in one Chromium (tests/browser/chromium_session.py). Before trusting a
# pass, it shows that the check can fail: a copy of the first page with a line that cannot wrap
# must fail at 800 px.
#
# usage: diff_in_chromium.sh ATTNPROF OUT_DIR NAME TRACE_A TRACE_B [NAME TRACE_A TRACE_B ...]
#   writes OUT_DIR/NAME.html, OUT_DIR/NAME-800.png and OUT_DIR/NAME-1400.png for each pair
set -euo pipefail

attnprof=$1 out=$2
shift 2
if (($# == 0 || $# % 3 != 0)); then
  echo "usage: diff_in_chromium.sh ATTNPROF OUT_DIR NAME TRACE_A TRACE_B [NAME TRACE_A TRACE_B ...]" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)


rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
# shellcheck source=tests/browser/chromium.sh
source "$here/chromium.sh"

# Every page is a job for one Chromium (tests/browser/chromium_session.py), run once below: a
# browser start costs seconds whatever the page.
jobs="$out/jobs.tsv"
: >"$jobs"
# dom_job PAGE NAME WIDTH: check_diff.html's check of PAGE at WIDTH px, its dumped DOM written to
# $out/NAME.dom.html.
dom_job() {
  printf 'dom\t%s\t1000\tfile://%s\t%s\n' "$(($3 + 100))" \
    "$here/check_diff.html?page=file://$1&width=$3" "$out/$2.dom.html" >>"$jobs"
}
# Prints check_diff.html's lines of a DOM check; returns 0 when all pass.
dom_result() {
  [[ -s $out/$1.dom.html ]] || { echo "FAIL: no DOM dumped for $1"; return 1; }
  checked_result "$(<"$out/$1.dom.html")"
}

status=0
names=()
while (($#)); do
  name=$1 trace_a=$2 trace_b=$3
  shift 3
  names+=("$name")
  page="$out/$name.html"
  "$attnprof" diff --format html "$trace_a" "$trace_b" -o "$page"
  echo "== $name: $page ($(wc -c <"$page") bytes)"
  if grep -n -o -i -E 'https?://|src=|url\(|@import|<link|<script' "$page" | head -5 | grep .; then
    echo "FAIL: the page refers to something to fetch (above)"
    status=1
  fi
  for width in 1400 800; do
    dom_job "$page" "$name-dom-check-$width" "$width"
    printf 'screenshot\t%s\t1600\tfile://%s\t%s\n' "$width" "$page" "$out/$name-$width.png" >>"$jobs"
  done
done
# The check can fail: a copy of the first page with a line that cannot wrap, at 800 px.
sed 's|<main>|<main><p style="white-space:nowrap">'"$(printf 'wide%.0s' {1..300})"'</p>|' "$out/${names[0]}.html" >"$out/too-wide.html"
dom_job "$out/too-wide.html" too-wide 800
run_session "$jobs" || status=1

for name in "${names[@]}"; do
  for width in 1400 800; do
    echo "== $name: DOM check at $width px"
    if ! dom_result "$name-dom-check-$width" | tee "$out/$name-dom-check-$width.txt"; then status=1; fi
    [[ -s $out/$name-$width.png ]] || { echo "FAIL: no screenshot $name-$width.png"; status=1; }
  done
done

echo "== the check can fail"
if dom_result too-wide >/dev/null; then
  echo "FAIL: a page wider than the window passed the check"; status=1
else
  echo "PASS a page wider than the window fails the check"
fi

[[ $status == 0 ]] && echo "RESULT: PASS" || echo "RESULT: FAIL"
exit $status
