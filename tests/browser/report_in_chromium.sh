#!/usr/bin/env bash
# The report in a real browser: renders `attnprof report` of a bench run (the shipped H200 study)
# in headless Chromium (Debian's `chromium`, installed by scripts/setup-debian.sh), takes a
# screenshot, checks the laid-out DOM (tests/browser/check_report.html: the headline, the table,
# the backward study when the run has one, every timeline,
# the bar chart, the sweep charts, present and not empty; the table of contents, the plots before
# the long tables, those tables folded; every SVG label inside its SVG, clear of the other labels
# and of the plots' points, at 800 and 1400 px) and proves that the page made no
# request: Chromium's net log must hold no URL request that the page started, and the page's
# own resource timing must be empty.
#
# Before trusting a pass, it shows that the checks can fail: a copy of the report that fetches an
# image must fail the request check, and a copy without GPU spans must fail the DOM check.
#
# usage: report_in_chromium.sh ATTNPROF RUN_DIR VARIANTS OUT_DIR [MODEL_DIR...]
#   MODEL_DIR: model studies (bench --from-trace folders) reported beside the run; the page must
#   have a row for each
#   writes OUT_DIR/report.html, OUT_DIR/report.png (the top of the page, for docs/),
#   OUT_DIR/report-full.png (the whole page), and OUT_DIR/report-800.png and report-1400.png (the
#   top of the page in windows 800 and 1400 px wide: docs/report-800px.png and -1400px.png)
set -euo pipefail

attnprof=$1 run_dir=$2 variants=$3 out=$4
shift 4
models=("$@")
# A run with a backward study beside it must show it (tests/report_test.cpp).
backward=0
[[ -f $run_dir/backward/summary.json ]] && backward=1
here=$(cd "$(dirname "$0")" && pwd)


rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
profiles=$(mktemp -d)
trap 'rm -rf "$profiles"' EXIT
# shellcheck source=tests/browser/chromium.sh
source "$here/chromium.sh"


# The DOM check of one report at one width (CSS px); prints check_report.html's lines, returns 0
# when all pass.
dom_check() {
  local report=$1 sweep=$2 width=${3:-1360} dom
  dom=$(run_chromium --allow-file-access-from-files --virtual-time-budget=10000 --dump-dom \
    --window-size="$((width + 100)),1000" \
    "file://$here/check_report.html?report=file://$report&variants=$variants&sweep=$sweep&width=$width&backward=$backward&models=${#models[@]}") || true
  checked_result "$dom"
}

# Loads a report alone with a net log (the arguments after the log must make Chromium exit once
# the page is loaded: --screenshot or --dump-dom); prints the URLs the page requested,
# returns 0 when there are none. A request the browser makes for itself (update checks, account
# lookups) has the initiator "not an origin"; anything the page starts has the page's (a file://
# page's origin is "null").
page_requests() {
  local report=$1 log=$2
  shift 2
  run_chromium --log-net-log="$log" --net-log-capture-mode=Default "$@" "file://$report" >/dev/null || true
  [[ -s $log ]] || { echo "no net log written"; return 1; }
  local urls
  # One event per line; a request's start event carries both its initiator and its URL.
  urls=$(grep '"initiator":"' "$log" | grep -v '"initiator":"not an origin"' |
    grep -o '"url":"[^"]*"' | sort -u || true)
  [[ -z $urls ]] || { echo "$urls"; return 1; }
}

"$attnprof" report "$run_dir" "${models[@]}" -o "$out/report.html"
report="$out/report.html"
echo "report: $report ($(wc -c <"$report") bytes)"

status=0
# Static: nothing in the file that could fetch.
# (url(#id) is a reference inside the page: the timelines' arrowheads.)
if grep -n -o -i -E 'https?://|src=|url\([^#]|@import|<link|<script' "$report" | head -5 | grep .; then
  echo "FAIL: the report's HTML refers to something to fetch (above)"
  status=1
fi

# At a laptop's width and at a narrow window's (tests/report_test.cpp: at 800 px the page was 1107 px wide).
for width in 1400 800; do
  echo "== DOM check at $width px"
  if ! dom_check "$report" 1 "$width" | tee "$out/dom-check-$width.txt"; then status=1; fi
  screenshot "$out/report-$width.png" "$width" 1600 "$report" || status=1
done
cp "$out/dom-check-1400.txt" "$out/dom-check.txt"
height=$(sed -n 's/^HEIGHT \([0-9]*\)$/\1/p' "$out/dom-check.txt")
height=${height:-6000}

echo "== requests and screenshots"
if ! page_requests "$report" "$out/netlog.json" --window-size="1360,$height" \
    --screenshot="$out/report-full.png" >"$out/requests.txt"; then
  echo "FAIL: the page made requests:"; cat "$out/requests.txt"; status=1
else
  echo "PASS the page made no request (net log: $out/netlog.json)"
fi
screenshot "$out/report.png" 1360 2100 "$report" || status=1
if [[ ! -s $out/report-full.png ]]; then echo "FAIL: no screenshot report-full.png"; status=1; fi

echo "== the checks can fail"
# A report that fetches an image must be caught by the request check...
sed 's|<main>|<main><img alt="" src="http://127.0.0.1:9/leak.png">|' "$report" >"$out/leaky.html"
if page_requests "$out/leaky.html" "$out/leaky-netlog.json" --dump-dom >/dev/null; then
  echo "FAIL: a page that fetches an image passed the request check"; status=1
else
  echo "PASS a page that fetches an image fails the request check"
fi
# ...and one whose timelines lost their GPU spans by the DOM check.
sed 's|class="span gpu-span"|class="span"|g' "$report" >"$out/no-gpu-spans.html"
if dom_check "$out/no-gpu-spans.html" 1 >/dev/null; then
  echo "FAIL: a report without GPU spans passed the DOM check"; status=1
else
  echo "PASS a report without GPU spans fails the DOM check"
fi

# ...and one with a line that cannot wrap by the narrow-screen check.
sed 's|<main>|<main><p style="white-space:nowrap">'"$(printf 'wide%.0s' {1..300})"'</p>|' "$report" >"$out/too-wide.html"
if dom_check "$out/too-wide.html" 1 800 >/dev/null; then
  echo "FAIL: a page wider than the window passed the narrow-screen check"; status=1
else
  echo "PASS a page wider than the window fails the narrow-screen check"
fi

# ...and one with a label past its plot's edge by the label check.
sed 's|<svg id="class-bars"\([^>]*\)>|<svg id="class-bars"\1><text x="-40" y="12" font-size="12">clipped label</text>|' "$report" >"$out/clipped-label.html"
if dom_check "$out/clipped-label.html" 1 >/dev/null; then
  echo "FAIL: a report with a label past its plot's edge passed the label check"; status=1
else
  echo "PASS a report with a label past its plot's edge fails the label check"
fi

echo "screenshots: $out/report.png (top), $out/report-full.png (whole page), $out/report-800.png, $out/report-1400.png"
[[ $status == 0 ]] && echo "RESULT: PASS" || echo "RESULT: FAIL"
exit $status
