#!/usr/bin/env bash
# `attnprof bench --from-trace` on the shipped model recordings (tests/data/models), on the GPU
# machine, after run-gpu.sh has built attnprof with the bench (build/gpu): one study folder per
# trace, as examples/models ships them (docs/MODELS.md). Leaves $OUT/models.tar (out/gpu-models
# when OUT is unset) and prints each run's projection.
# Usage: scripts/gpu/record-from-trace.sh [TRACE_NAME...]   (default: every tests/data/models trace)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${ATTNPROF_GPU_BUILD:-$root/build/gpu}
out=${OUT:-$root/out/gpu-models}
work=${TMPDIR:-/tmp}/attnprof-from-trace
rm -rf "$work" && mkdir -p "$work/models" "$out"
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for f in "$root"/tests/data/models/*.json.gz; do names+=("$(basename "$f" .json.gz)"); done
fi
failed=0
for name in "${names[@]}"; do
  echo "== $name"
  # The trace's path as the example names it, relative to the repository.
  (cd "$root" && timeout 240 "$build/attnprof" bench --from-trace "tests/data/models/$name.json.gz" \
    --time-budget 0.5 --trace-regions 2 --quiet --out "$work/models/$name" \
    >"$work/models/$name.txt" 2>"$work/models/$name.log")
  rc=$?
  [ $rc -ne 0 ] && failed=1
  echo "exit $rc"
  sed -n '/What switching attention would save/,/^$/p' "$work/models/$name.txt"
  tail -3 "$work/models/$name.log"
done
tar -C "$work" -cf "$out/models.tar" models
du -sh "$work/models"
exit "$failed"
