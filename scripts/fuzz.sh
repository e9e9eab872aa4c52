#!/usr/bin/env bash
# Fuzzes the whole pipeline (fuzz/trace_fuzzer.cpp) for SECONDS with libFuzzer, ASan and UBSan.
#
#   scripts/fuzz.sh SECONDS [JOBS]      # JOBS fuzzing processes at once, default 1
#
# Installs clang and libFuzzer (Debian's clang, libclang-rt-14-dev) when missing, builds the
# `fuzz` preset, writes the seed corpus from tests/data, then fuzzes with the Kineto dictionary
# (fuzz/kineto.dict), a per-input time limit (a hang is a finding), leak detection and an RSS
# limit. The corpus grows in build/fuzz/corpus across runs; findings are kept in
# build/fuzz/findings. It ends with a summary and exits 1 when something was found.
# docs/FUZZING.md says what to do with a finding.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "usage: scripts/fuzz.sh SECONDS [JOBS]" >&2
  exit 2
}
[[ $# -ge 1 && $# -le 2 ]] || usage
seconds=$1
jobs=${2:-1}
[[ $seconds =~ ^[1-9][0-9]*$ && $jobs =~ ^[1-9][0-9]*$ ]] || usage

# Per-input limits. A hang is an input that takes longer than this: the slowest genuine input, a
# gzip bomb of 900,000 real events stopped at fuzz_limits()' 64 MiB of JSON, takes 8 s of CPU
# under ASan here (12-22 s of wall time while other builds share the cores).
timeout_s=60
rss_limit_mb=2048

scripts/setup-debian.sh
missing=()
for p in clang libclang-rt-14-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} > 0)); then
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  echo "fuzz.sh: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

cmake --preset fuzz >build-fuzz-configure.log 2>&1 || { cat build-fuzz-configure.log >&2; exit 2; }
rm -f build-fuzz-configure.log
cmake --build --preset fuzz

fuzz_dir=build/fuzz
seeds=$fuzz_dir/seeds
corpus=$fuzz_dir/corpus
findings=$fuzz_dir/findings
log=$fuzz_dir/fuzz.log
rm -rf "$seeds"
mkdir -p "$corpus" "$findings"
python3 fuzz/make_seed_corpus.py "$seeds" tests/data/*.json.gz
# Hand-made fixtures in tests/data's folders (odd traces, past findings) are seeds as they are.
find tests/data -mindepth 2 -type f -name '*.json' | while read -r fixture; do
  cp "$fixture" "$seeds/$(basename "$(dirname "$fixture")")-$(basename "$fixture")"
done
list_findings() { find "$findings" -type f -printf '%f\n' | sort; }
findings_before=$(list_findings)

# Fork mode, even for one job: a finding is saved and fuzzing goes on for the whole time, so an
# unattended run reports every problem it met, not only the first.
echo "fuzz.sh: fuzzing for ${seconds}s with $jobs job(s); log in $log" >&2
set +e
ASAN_OPTIONS="detect_leaks=1:print_stacktrace=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
UBSAN_OPTIONS="print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}" \
  "$fuzz_dir/fuzz/trace_fuzzer" -fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
  -max_total_time="$seconds" -timeout="$timeout_s" -rss_limit_mb="$rss_limit_mb" -detect_leaks=1 \
  -dict=fuzz/kineto.dict -artifact_prefix="$findings/" -print_final_stats=1 \
  "$corpus" "$seeds" >"$log" 2>&1
fuzzer_exit=$?
set -e

# The fork mode's progress lines: "#EXECS: cov: C ft: F corp: N exec/s E oom/timeout/crash: ..."
last=$(grep -E '^#[0-9]+: cov:' "$log" | tail -n 1 || true)
executions=$(sed -E 's/^#([0-9]+):.*/\1/' <<<"$last")
elapsed=$(sed -nE 's/.* time: ([0-9]+)s.*/\1/p' <<<"$last")
coverage=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")
executions=${executions:-0}
elapsed=${elapsed:-$seconds}
rate=$((elapsed > 0 ? executions / elapsed : 0))
corpus_files=$(find "$corpus" -type f | wc -l)
corpus_kb=$(du -sk "$corpus" | cut -f1)
kept=$(comm -13 <(echo "$findings_before") <(list_findings) | sed '/^$/d')
new_findings=$(grep -c . <<<"$kept" || true)
kept=$(tr '\n' ' ' <<<"$kept" | sed 's/ $//')

echo
echo "fuzz.sh: fuzzed the whole pipeline for ${elapsed}s with $jobs job(s):" \
  "$executions executions ($rate exec/s), libFuzzer cov ${coverage:-?}, corpus $corpus_files inputs ($corpus_kb KiB in" \
  "$corpus); $new_findings new finding(s) (crashes, leaks, timeouts, out-of-memory) in" \
  "$findings${kept:+: $kept}; libFuzzer exit code $fuzzer_exit, full log in $log."
if ((new_findings > 0 || fuzzer_exit != 0)); then
  echo "fuzz.sh: replay a finding with: $fuzz_dir/fuzz/trace_fuzzer FILE (docs/FUZZING.md)" >&2
  exit 1
fi
