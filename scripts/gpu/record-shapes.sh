#!/usr/bin/env bash
# Records, on the GPU machine, the studies of today's attention shapes (docs/CUSTOM_KERNELS.md) for
# examples/h200-study/{gqa,decode,window}, with the attnprof built in BUILD (build/gpu by default,
# as run-gpu.sh leaves it), into $OUT/shapes.tar (out/gpu-shapes when OUT is unset):
#   gqa/      batch 4, 16 query heads over 4 KV heads, seq 2048, bf16, causal
#   decode/   one query against 16384 keys: batch 8, 32 heads over 8 KV heads, head dim 128
#            (a Llama-like decode step, memory-bound), with --counters: the copy kernel's
#             bandwidth, which % HBM divides by, and each variant's DRAM bytes;
#             decode/default-shape/ the study's default problem with one query
#   window/   seq 4096, sliding window 1024, causal
# Each folder: the traces, summary.json, summary.md and table.txt (stdout); bench.log (stderr).
# Extra flags for every run may come in ATTNPROF_BENCH_ARGS (e.g. --counters).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${ATTNPROF_GPU_BUILD:-$root/build/gpu}
out=${OUT:-$root/out/gpu-shapes}
work=${TMPDIR:-/tmp}/attnprof-shapes
rm -rf "$work"
mkdir -p "$out" "$work"
failed=0

record() {
  local name=$1
  shift
  mkdir -p "$work/$name"
  # shellcheck disable=SC2086  # ATTNPROF_BENCH_ARGS is a list of flags
  "$build/attnprof" bench --out "$work/$name" "$@" ${ATTNPROF_BENCH_ARGS:-} \
    >"$work/$name.table.txt" 2>"$work/$name.bench.log"
  local rc=$?
  mv "$work/$name.table.txt" "$work/$name/table.txt"
  mv "$work/$name.bench.log" "$work/$name/bench.log"
  echo "record-shapes: $name exit $rc"
 ((rc == 0)) || failed=1
}

record gqa --batch 4 --heads 16 --kv-heads 4 --seq 2048
record decode --batch 8 --heads 32 --kv-heads 8 --head-dim 128 --seq 16384 --q-seq 1 --counters
record decode/default-shape --q-seq 1
record window --seq 4096 --window 1024
tar -C "$work" -cf "$out/shapes.tar" gqa decode window
ls -la "$out"
exit "$failed"
