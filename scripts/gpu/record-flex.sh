#!/usr/bin/env bash
# Records the FlexAttention study (examples/h200-study/flex) on the GPU machine in one call, and
# runs the recorder's GPU test. Only attnprof's core is built (no LibTorch): the recorder measures
# in Python (scripts/gpu/record_flex.py), attnprof reads its traces.
#   1. the dependencies (deps-env.sh, from the carried .debs/)
#   2. the study: record_flex.py on the default problem (or the options given), alone on the
#      machine so that no build competes with its timing; its trace facts wait for step 4
#   3. attnprof and flex_recorder_gpu_test built (ATTNPROF_BENCH=OFF), while the GPU records the
#      small problems whose traces are fixtures (flex only: causal, and one query for decoding)
#   4. the study's trace facts, summary.md and table.txt (record_flex.py --facts-only)
#   5. the GPU test (ctest -L gpu -R FlexRecorder)
# Leaves in $OUT (the device tool's folder; out/gpu-flex when unset): flex.tar (the study's
# folder), fixtures.tar (the small problems' folders), record.log, build.log, ctest.log.
# Usage: scripts/gpu/record-flex.sh [record_flex.py options for the study...]
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${OUT:-$root/out/gpu-flex}
build=${ATTNPROF_GPU_BUILD:-$root/build/gpu-core}
work=${TMPDIR:-/tmp}/attnprof-flex
recorder=$root/scripts/gpu/record_flex.py
mkdir -p "$out"
rm -rf "$work" && mkdir -p "$work/fixtures"
export PYTHONUNBUFFERED=1
start=$SECONDS
failed=0
step() { echo "== $* ($((SECONDS - start)) s)" | tee -a "$out/record.log"; }

step deps
# shellcheck source=scripts/gpu/deps-env.sh
source "$root/scripts/gpu/deps-env.sh" "$root/.debs" >>"$out/record.log" 2>&1 || failed=1

step study
python3 "$recorder" "$work/flex" "$@" >>"$out/record.log" 2>&1 || failed=1

step build and fixtures
generator=Ninja
command -v ninja >/dev/null || generator="Unix Makefiles"
(cmake -S "$root" -B "$build" -G "$generator" -DCMAKE_BUILD_TYPE=Release -DATTNPROF_BENCH=OFF \
   -DATTNPROF_PYTHON=OFF -DATTNPROF_BUILD_BENCHMARKS=OFF -DCMAKE_POLICY_VERSION_MINIMUM=3.5 \
   -DPython3_EXECUTABLE="$(command -v python3)" &&
 cmake --build "$build" -j "$(nproc)" --target attnprof flex_recorder_gpu_test &&
 echo "BUILD OK") >"$out/build.log" 2>&1 &
build_pid=$!
for fixture in "causal --seq 512" "decode --seq 1024 --q-seq 1"; do
  read -r name options <<<"$fixture"
  # shellcheck disable=SC2086  # options is a list of flags
  python3 "$recorder" "$work/fixtures/$name" --batch 1 --heads 4 --head-dim 64 $options \
    --variants flex --time-budget 0.1 --trace-regions 3 >>"$out/record.log" 2>&1 || failed=1
done
wait "$build_pid" || failed=1
grep -q '^BUILD OK' "$out/build.log" || { tail -30 "$out/build.log"; failed=1; }

step facts
if [[ -x $build/attnprof ]]; then
  for folder in "$work/flex" "$work"/fixtures/*; do
    python3 "$recorder" --facts-only "$folder" --attnprof "$build/attnprof" >>"$out/record.log" \
      2>&1 || failed=1
  done
  cat "$work/flex/table.txt" 2>/dev/null
fi

step test
if [[ -x $build/attnprof ]]; then
  ctest --test-dir "$build" -L gpu -R FlexRecorder --output-on-failure --timeout 300 \
    >"$out/ctest.log" 2>&1 || failed=1
  tail -5 "$out/ctest.log"
fi

tar -C "$work" -cf "$out/flex.tar" flex
tar -C "$work" -cf "$out/fixtures.tar" fixtures
step "done, exit $failed"
ls -la "$out"
exit "$failed"
