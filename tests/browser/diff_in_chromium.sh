#!/usr/bin/env bash
# `attnprof diff --format html` in a real browser: the page of a pair of traces laid out in
# headless Chromium at 800 and 1400 px, its DOM checked (tests/browser/check_diff.html: the
# sections in the text's order, the headline's words, each view's rows, each view's table readable
# without scrolling, the page no wider than the window, nothing fetched), and a screenshot at
# each width. Before trusting a pass, it shows that the check can fail: a copy of the page with a
# line that cannot wrap must fail at 800 px.
#
# usage: diff_in_chromium.sh ATTNPROF TRACE_A TRACE_B OUT_DIR
#   writes OUT_DIR/diff.html, OUT_DIR/diff-800.png and OUT_DIR/diff-1400.png
set -euo pipefail

attnprof=$1 trace_a=$2 trace_b=$3 out=$4
here=$(cd "$(dirname "$0")" && pwd)

browser=${CHROMIUM:-}
for candidate in chromium chromium-browser google-chrome; do
  [[ -n $browser ]] && break
  command -v "$candidate" >/dev/null && browser=$candidate
done
if [[ -z $browser ]]; then
  echo "FAIL: no Chromium found (chromium, chromium-browser, google-chrome, or \$CHROMIUM); scripts/setup-debian.sh installs Debian's chromium" >&2
  exit 1
fi

rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
profiles=$(mktemp -d)
trap 'rm -rf "$profiles"' EXIT

run_chromium() {
  local profile
  profile=$(mktemp -d "$profiles/p.XXXXXX")
  timeout 120 "$browser" --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage \
    --disable-background-networking --disable-component-update --disable-sync --no-first-run \
    --disable-extensions --disable-default-apps --no-pings --hide-scrollbars \
    --user-data-dir="$profile" "$@" 2>>"$out/chromium.log"
}

# Prints check_diff.html's lines for PAGE at WIDTH px; returns 0 when all pass.
dom_check() {
  local page=$1 width=$2 dom result
  dom=$(run_chromium --allow-file-access-from-files --virtual-time-budget=10000 --dump-dom \
    --window-size="$((width + 100)),1000" \
    "file://$here/check_diff.html?page=file://$page&width=$width") || true
  result=$(sed -n '/<pre id="result">/,/<\/pre>/p' <<<"$dom" | sed -e 's/<[^>]*>//g' \
    -e 's/&quot;/"/g' -e 's/&gt;/>/g' -e 's/&lt;/</g' -e 's/&amp;/\&/g')
  echo "$result"
  grep -qx "RESULT: PASS" <<<"$result"
}

"$attnprof" diff --format html "$trace_a" "$trace_b" -o "$out/diff.html"
page="$out/diff.html"
echo "page: $page ($(wc -c <"$page") bytes)"

status=0
if grep -n -o -i -E 'https?://|src=|url\(|@import|<link|<script' "$page" | head -5 | grep .; then
  echo "FAIL: the page refers to something to fetch (above)"
  status=1
fi
for width in 1400 800; do
  echo "== DOM check at $width px"
  if ! dom_check "$page" "$width" | tee "$out/dom-check-$width.txt"; then status=1; fi
  run_chromium --window-size="$width,1600" --screenshot="$out/diff-$width.png" "file://$page" \
    >/dev/null || true
  [[ -s $out/diff-$width.png ]] || { echo "FAIL: no screenshot diff-$width.png"; status=1; }
done

echo "== the check can fail"
sed 's|<main>|<main><p style="white-space:nowrap">'"$(printf 'wide%.0s' {1..300})"'</p>|' "$page" >"$out/too-wide.html"
if dom_check "$out/too-wide.html" 800 >/dev/null; then
  echo "FAIL: a page wider than the window passed the check"; status=1
else
  echo "PASS a page wider than the window fails the check"
fi

[[ $status == 0 ]] && echo "RESULT: PASS" || echo "RESULT: FAIL"
exit $status
