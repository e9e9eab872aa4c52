#!/usr/bin/env bash
# attnprof beside Holistic Trace Analysis (HTA), the Python tool users know, on the same trace,
# in one run (a benchmark, not a test): wall time and peak RSS of HTA loading the trace (its
# parse and preprocessing, which every HTA analysis starts with), of `attnprof analyze`, and of the
# attnprof Python module (`attnprof.read`, every table as a pandas DataFrame) when it was built:
# Python beside Python, interpreter start and `import pandas` included on both sides.
#
#   benchmarks/hta_side_by_side.sh HTA_SOURCE TRACE.json[.gz] [REPEAT]
#
# HTA_SOURCE: a checkout of github.com/facebookresearch/HolisticTraceAnalysis (its hta/ folder is
# put on PYTHONPATH; nothing of it enters this repo). Its Python dependencies come from Debian:
# python3-pandas python3-plotly python3-pydot python3-networkx python3-psutil (installed here
# with apt when missing), run by Debian's /usr/bin/python3.
# HTA finds a trace's rank in its distributedInfo and skips a trace without one, so a copy of
# TRACE with `"distributedInfo": {"rank": 0, ...}` added is what both tools read.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
hta=${1:?usage: hta_side_by_side.sh HTA_SOURCE TRACE.json[.gz] [REPEAT]}
trace=${2:?usage: hta_side_by_side.sh HTA_SOURCE TRACE.json[.gz] [REPEAT]}
repeat=${3:-1}
[[ -f $hta/hta/trace_analysis.py ]] || { echo "hta_side_by_side: $hta has no hta/trace_analysis.py: give a HolisticTraceAnalysis checkout" >&2; exit 2; }
[[ -r $trace ]] || { echo "hta_side_by_side: cannot read $trace" >&2; exit 2; }

missing=()
for pkg in python3-pandas python3-plotly python3-pydot python3-networkx python3-psutil time; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if ((${#missing[@]})); then
  echo "installing ${missing[*]}" >&2
  apt-get install -y -q "${missing[@]}" >/dev/null
fi
attnprof=$root/build/release/attnprof
[[ -x $attnprof ]] || { echo "hta_side_by_side: build attnprof first (scripts/configure.sh)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/traces"
/usr/bin/python3 - "$trace" "$work/traces/rank0.json" <<'EOF'
import gzip, sys
src, dst = sys.argv[1], sys.argv[2]
opener = gzip.open if open(src, 'rb').read(2) == b'\x1f\x8b' else open
with opener(src, 'rb') as f, open(dst, 'wb') as out:
    head = f.read(1 << 16)
    i = head.index(b'{')
    if b'"distributedInfo"' in head:
        out.write(head)
    else:
        out.write(head[:i + 1] + b'\n  "distributedInfo": {"backend": "nccl", "rank": 0, '
                  b'"world_size": 1},' + head[i + 1:])
    while chunk := f.read(1 << 24):
        out.write(chunk)
EOF
json_bytes=$(stat -c %s "$work/traces/rank0.json")
# Both read the same file; gzip it when the input was (HTA and attnprof both read .json.gz).
if [[ $(head -c2 "$trace" | od -An -tx1 | tr -d ' ') == 1f8b ]]; then
  gzip -1 "$work/traces/rank0.json"
fi
input=$(ls "$work/traces"/rank0.json*)

measure() {  # label, command...: prints "label seconds peak_MB"
  local label=$1; shift
  local best_s="" best_kb=""
  : >"$work/out.all"  # every run's output: the calls' best is taken from it
  for ((i = 0; i < repeat; i++)); do
    /usr/bin/time -f '%e %M' -o "$work/time" "$@" >"$work/out" 2>"$work/err" ||
      { echo "hta_side_by_side: $label failed:" >&2; tail -5 "$work/err" >&2; exit 1; }
    cat "$work/out" >>"$work/out.all"
    read -r s kb <"$work/time"
    if [[ -z $best_s ]] || awk "BEGIN{exit !($s < $best_s)}"; then best_s=$s; best_kb=$kb; fi
  done
  echo "$label $best_s $((best_kb / 1024))"
}

# Each Python run also prints the seconds of the call itself (after the imports, which both pay);
# the best of the repeats is reported, as for the whole runs.
hta_line=$(measure hta env PYTHONPATH="$hta" /usr/bin/python3 -c "
import time
from hta.trace_analysis import TraceAnalysis
start = time.perf_counter()
a = TraceAnalysis(trace_dir='$work/traces')
assert a.t.get_ranks() == [0], 'HTA read no trace'
print(len(a.t.get_trace(0)), 'rows')
print('call', time.perf_counter() - start)")
hta_call=$(sed -n 's/^call //p' "$work/out.all" | sort -g | head -1)
ours_line=$(measure attnprof "$attnprof" analyze "$input")
py_line=""
if [[ -d $root/build/release/python/attnprof ]]; then
  py_line=$(measure attnprof-py env PYTHONPATH="$root/build/release/python" /usr/bin/python3 -c "
import time
import attnprof
start = time.perf_counter()
t = attnprof.read('$input')
print(len(t.regions), 'regions', len(t.activities), 'activities', len(t.findings), 'findings')
print('call', time.perf_counter() - start)")
  py_call=$(sed -n 's/^call //p' "$work/out.all" | sort -g | head -1)
fi

echo "trace: $trace ($((json_bytes / 1000000)) MB of JSON; read as $(basename "$input")), best of $repeat"
printf '%-10s %10s %10s\n' tool seconds "peak MB"
for line in "$hta_line" "$ours_line" ${py_line:+"$py_line"}; do
  read -r label s mb <<<"$line"
  printf '%-10s %10s %10s\n' "$label" "$s" "$mb"
done
read -r _ hs hm <<<"$hta_line"
read -r _ os om <<<"$ours_line"
awk -v hs="$hs" -v os="$os" -v hm="$hm" -v om="$om" -v jb="$json_bytes" 'BEGIN {
  printf "attnprof is %.0fx faster than HTA and uses %.1fx less memory; its peak RSS (the whole process) is %.0f%% of the JSON\n",
         hs / (os > 0 ? os : 0.01), hm / (om > 0 ? om : 1), 100 * om * 1048576 / jb }'
if [[ -n $py_line ]]; then
  read -r _ ps pm <<<"$py_line"
  awk -v hs="$hs" -v ps="$ps" -v hm="$hm" -v pm="$pm" 'BEGIN {
    printf "from Python, attnprof.read is %.0fx faster than HTA and uses %.1fx less memory\n",
           hs / (ps > 0 ? ps : 0.01), hm / (pm > 0 ? pm : 1) }'
  awk -v hc="$hta_call" -v pc="$py_call" 'BEGIN {
    printf "the calls alone, after the imports: HTA TraceAnalysis %.2f s, attnprof.read %.2f s: %.0fx\n",
           hc, pc, hc / (pc > 0 ? pc : 0.001) }'
fi
