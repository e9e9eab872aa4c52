# Headless Chromium for the browser tests (report_in_chromium.sh, diff_in_chromium.sh): sourced,
# not run. Sets $browser, or fails with the way to get one; the caller has set $out (its output
# folder, made).

browser=${CHROMIUM:-}
for candidate in chromium chromium-browser google-chrome; do
  [[ -n $browser ]] && break
  command -v "$candidate" >/dev/null && browser=$candidate
done
if [[ -z $browser ]]; then
  echo "FAIL: no Chromium found (chromium, chromium-browser, google-chrome, or \$CHROMIUM); scripts/setup-debian.sh installs Debian's chromium" >&2
  exit 1
fi

# run_session JOBS: every page job in the file JOBS (tests/browser/chromium_session.py: lay out
# and dump the DOM, take a screenshot, record the page's requests) in one Chromium, with a fresh
# profile; the browser's own messages go to $out/chromium.log. Prints a FAIL line per job that
# could not run and returns 1 then, or when the browser could not be driven at all.
run_session() {
  local here_session
  here_session=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  timeout 300 python3 "$here_session/chromium_session.py" "$browser" "$out/chromium.log" "$1" || {
    local rc=$?
    echo "FAIL: the Chromium session stopped (exit status $rc$( ((rc == 124)) && echo ": timed out after 300 s"); the end of $out/chromium.log:)"
    tail -n 5 "$out/chromium.log" | sed 's/^/  /'
    return 1
  }
}

# The <pre id="result"> block of a checking page's dumped DOM (not its script, which spells out
# its verdicts too), tags removed and entities decoded; returns 0 when it says RESULT: PASS.
checked_result() {
  local result
  result=$(sed -n '/<pre id="result">/,/<\/pre>/p' <<<"$1" | sed -e 's/<[^>]*>//g' \
    -e 's/&quot;/"/g' -e 's/&gt;/>/g' -e 's/&lt;/</g' -e 's/&amp;/\&/g')
  echo "$result"
  grep -qx "RESULT: PASS" <<<"$result"
}
