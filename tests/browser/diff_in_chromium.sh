#!/usr/bin/env bash
# `attnprof diff --format html` in a real browser: the page of each pair of traces laid out in
# headless Chromium at 800 and 1400 px, its DOM checked (tests/browser/check_diff.html: the
# sections in the text's order, the headline's words, each view's rows, each view's table readable
# without scrolling, the page no wider than the window, nothing fetched), and a screenshot at
# each width. Before trusting a pass, it shows that the check can fail: a copy of the first page
# with a line that cannot wrap must fail at 800 px.
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
profiles=$(mktemp -d)
trap 'rm -rf "$profiles"' EXIT
# shellcheck source=tests/browser/chromium.sh
source "$here/chromium.sh"


# Prints check_diff.html's lines for PAGE at WIDTH px; returns 0 when all pass.
dom_check() {
  local page=$1 width=$2 dom
  dom=$(run_chromium --allow-file-access-from-files --virtual-time-budget=10000 --dump-dom \
    --window-size="$((width + 100)),1000" \
    "file://$here/check_diff.html?page=file://$page&width=$width") || true
  checked_result "$dom"
}

status=0
first_page=
while (($#)); do
  name=$1 trace_a=$2 trace_b=$3
  shift 3
  page="$out/$name.html"
  "$attnprof" diff --format html "$trace_a" "$trace_b" -o "$page"
  first_page=${first_page:-$page}
  echo "== $name: $page ($(wc -c <"$page") bytes)"
  if grep -n -o -i -E 'https?://|src=|url\(|@import|<link|<script' "$page" | head -5 | grep .; then
    echo "FAIL: the page refers to something to fetch (above)"
    status=1
  fi
  for width in 1400 800; do
    echo "== $name: DOM check at $width px"
    if ! dom_check "$page" "$width" | tee "$out/$name-dom-check-$width.txt"; then status=1; fi
    screenshot "$out/$name-$width.png" "$width" 1600 "$page" || status=1
  done
done

echo "== the check can fail"
sed 's|<main>|<main><p style="white-space:nowrap">'"$(printf 'wide%.0s' {1..300})"'</p>|' "$first_page" >"$out/too-wide.html"
if dom_check "$out/too-wide.html" 800 >/dev/null; then
  echo "FAIL: a page wider than the window passed the check"; status=1
else
  echo "PASS a page wider than the window fails the check"
fi

[[ $status == 0 ]] && echo "RESULT: PASS" || echo "RESULT: FAIL"
exit $status
