#!/usr/bin/env bash
# The report in a real browser: renders `attnprof report` of a bench run (the shipped H200 study)
# in headless Chromium (Debian's `chromium`, installed by scripts/setup-debian.sh), takes a
# screenshot, checks the laid-out DOM (tests/browser/check_report.html: the headline, the table,
# the backward study when the run has one, every timeline,
# the bar chart, the sweep charts, present and not empty; the table of contents, the plots before
# the long tables, those tables folded; every SVG label inside its SVG, clear of the other labels
# and of the plots' points, at 800 and 1400 px) and proves that the page made no
# request: loaded alone, it must start no request that the browser reports over the DevTools
# protocol, and the page's own resource timing must be empty. One Chromium lays out every page
# (tests/browser/chromium_session.py).
#
# Before trusting a pass, it shows that the checks can fail: a copy of the report that fetches an
# image must fail the request check, one without GPU spans the DOM check, one with a line that
# cannot wrap the narrow-screen check, and one with a label past its plot's edge the label check.
#
# usage: report_in_chromium.sh ATTNPROF RUN_DIR VARIANTS OUT_DIR [MODEL_DIR...]
#   MODEL_DIR: model studies (bench --from-trace folders) reported beside the run; the page must
#   have a row for each
#   writes OUT_DIR/report.html, OUT_DIR/report.png (the top of the page, for docs/), and
#   OUT_DIR/report-800.png and report-1400.png (the top of the page in windows 800 and 1400 px
#   wide: docs/report-800px.png and -1400px.png)
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
# shellcheck source=tests/browser/chromium.sh
source "$here/chromium.sh"


# Every page this test lays out is a job for one Chromium (tests/browser/chromium_session.py),
# run once below: a browser start costs seconds whatever the page.
jobs="$out/jobs.tsv"
: >"$jobs"
# dom_job REPORT NAME [WIDTH]: the DOM check of one report at one width (CSS px), its dumped DOM
# written to $out/NAME.dom.html.
dom_job() {
  local report=$1 name=$2 width=${3:-1360}
  printf 'dom\t%s\t1000\tfile://%s\t%s\n' "$((width + 100))" \
    "$here/check_report.html?report=file://$report&variants=$variants&sweep=1&width=$width&backward=$backward&models=${#models[@]}" \
    "$out/$name.dom.html" >>"$jobs"
}
# Prints the check lines of a DOM check's result (check_report.html's), returns 0 when all pass.
dom_result() {
  [[ -s $out/$1.dom.html ]] || { echo "FAIL: no DOM dumped for $1"; return 1; }
  checked_result "$(<"$out/$1.dom.html")"
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

# The copies that must fail a check, to show that the checks can fail: one that fetches an
# image (the request check), one whose timelines lost their GPU spans (the DOM check), one with a
# line that cannot wrap (the narrow-screen check), one with a label past its plot's edge (the
# label check).
sed 's|<main>|<main><img alt="" src="http://127.0.0.1:9/leak.png">|' "$report" >"$out/leaky.html"
sed 's|class="span gpu-span"|class="span"|g' "$report" >"$out/no-gpu-spans.html"
sed 's|<main>|<main><p style="white-space:nowrap">'"$(printf 'wide%.0s' {1..300})"'</p>|' "$report" >"$out/too-wide.html"
sed 's|<svg id="class-bars"\([^>]*\)>|<svg id="class-bars"\1><text x="-40" y="12" font-size="12">clipped label</text>|' "$report" >"$out/clipped-label.html"

# At a laptop's width and at a narrow window's (tests/report_test.cpp: at 800 px the page was 1107 px wide).
for width in 1400 800; do
  dom_job "$report" "dom-check-$width" "$width"
  printf 'screenshot\t%s\t1600\tfile://%s\t%s\n' "$width" "$report" "$out/report-$width.png" >>"$jobs"
done
printf 'requests\t1360\t2100\tfile://%s\t%s\t%s\n' "$report" "$out/requests.txt" "$out/report.png" \
  >>"$jobs"
printf 'requests\t1360\t1000\tfile://%s\t%s\n' "$out/leaky.html" "$out/leaky-requests.txt" >>"$jobs"
dom_job "$out/no-gpu-spans.html" no-gpu-spans
dom_job "$out/too-wide.html" too-wide 800
dom_job "$out/clipped-label.html" clipped-label
run_session "$jobs" || status=1

for width in 1400 800; do
  echo "== DOM check at $width px"
  if ! dom_result "dom-check-$width" | tee "$out/dom-check-$width.txt"; then status=1; fi
  [[ -s $out/report-$width.png ]] || { echo "FAIL: no screenshot report-$width.png"; status=1; }
done
cp "$out/dom-check-1400.txt" "$out/dom-check.txt"

echo "== requests and screenshots"
if [[ ! -f $out/requests.txt ]]; then
  echo "FAIL: the page's requests were not recorded"; status=1
elif [[ -s $out/requests.txt ]]; then
  echo "FAIL: the page made requests:"; cat "$out/requests.txt"; status=1
else
  echo "PASS the page made no request"
fi
[[ -s $out/report.png ]] || { echo "FAIL: no screenshot report.png"; status=1; }

echo "== the checks can fail"
if [[ ! -s $out/leaky-requests.txt ]]; then
  echo "FAIL: a page that fetches an image passed the request check"; status=1
else
  echo "PASS a page that fetches an image fails the request check"
fi
if dom_result no-gpu-spans >/dev/null; then
  echo "FAIL: a report without GPU spans passed the DOM check"; status=1
else
  echo "PASS a report without GPU spans fails the DOM check"
fi
if dom_result too-wide >/dev/null; then
  echo "FAIL: a page wider than the window passed the narrow-screen check"; status=1
else
  echo "PASS a page wider than the window fails the narrow-screen check"
fi
if dom_result clipped-label >/dev/null; then
  echo "FAIL: a report with a label past its plot's edge passed the label check"; status=1
else
  echo "PASS a report with a label past its plot's edge fails the label check"
fi

echo "screenshots: $out/report.png (top), $out/report-800.png, $out/report-1400.png"
[[ $status == 0 ]] && echo "RESULT: PASS" || echo "RESULT: FAIL"
exit $status
