# Headless Chromium for the browser tests (report_in_chromium.sh, diff_in_chromium.sh): sourced,
# not run. Sets $browser, or fails with the way to get one; the caller has set $out (its output
# folder, made) and $profiles (a scratch folder it removes).

browser=${CHROMIUM:-}
for candidate in chromium chromium-browser google-chrome; do
  [[ -n $browser ]] && break
  command -v "$candidate" >/dev/null && browser=$candidate
done
if [[ -z $browser ]]; then
  echo "FAIL: no Chromium found (chromium, chromium-browser, google-chrome, or \$CHROMIUM); scripts/setup-debian.sh installs Debian's chromium" >&2
  exit 1
fi

# One fresh profile per run; the flags keep the browser's own background traffic down (what is
# left is told apart from the page's by its initiator, in report_in_chromium.sh).
run_chromium() {
  local profile
  profile=$(mktemp -d "$profiles/p.XXXXXX")
  timeout 120 "$browser" --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage \
    --disable-background-networking --disable-component-update --disable-sync --no-first-run \
    --disable-extensions --disable-default-apps --no-pings --hide-scrollbars \
    --user-data-dir="$profile" "$@" 2>>"$out/chromium.log"
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

# screenshot PNG WIDTH HEIGHT PAGE: a screenshot of PAGE's top in a WIDTHxHEIGHT window. A busy
# machine (CI runs the suite two tests at a time) can starve one Chromium past its timeout, so a
# missing image is tried once more; a second miss prints the exit status and the browser's last
# words, and returns 1.
screenshot() {
  local png=$1 width=$2 height=$3 page=$4 try rc=0
  for try in 1 2; do
    rm -f "$png"
    rc=0
    run_chromium --window-size="$width,$height" --screenshot="$png" "file://$page" >/dev/null || rc=$?
    [[ -s $png ]] && return 0
  done
  echo "FAIL: no screenshot $(basename "$png") after 2 tries (Chromium's exit status $rc$( ((rc == 124)) && echo ": timed out after 120 s"); the end of $out/chromium.log:)"
  tail -n 5 "$out/chromium.log" | sed 's/^/  /'
  return 1
}
