#!/usr/bin/env bash
# Records the pairs of traces that `diff` and the memory analysis are tested on, in one GPU call:
#   - llama prefill, eager and sdpa, with profile_memory=True: their difference in peak memory is
#     the S x S score matrix that the eager path writes (models/llama-prefill-*-memory.json.gz)
#   - llama prefill through sdpa in float32, beside the shipped bfloat16 one: one model in two
#     dtypes (models/llama-prefill-sdpa-fp32.json.gz), and the bfloat16 one again in the same call
#     (bf16/), so that the pair comes from one card even where the call got another kind
#   - comm-overlap with CUDA sync events (record_comm.py --sync-events): the cross-stream waits
#     that the critical path follows (comm/comm-overlap-sync.json.gz)
# Leaves $OUT/pairs.tar (the traces, status.json and step_times.json of each run) and
# $OUT/record.log. Usage: scripts/gpu/record-pairs.sh
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-$here/../../out/gpu-pairs}
work=${TMPDIR:-/tmp}/attnprof-pairs
mkdir -p "$out"
rm -rf "$work" && mkdir -p "$work/memory" "$work/fp32" "$work/bf16" "$work/comm"
export PYTHONUNBUFFERED=1
failed=0
log=$out/record.log
timeout 200 python3 "$here/record_models.py" "$work/memory" --budget 170 --active 1 \
  --profile-memory --only llama-prefill-eager llama-prefill-sdpa >>"$log" 2>&1 || failed=1
timeout 120 python3 "$here/record_models.py" "$work/fp32" --budget 100 --dtype float32 \
  --only llama-prefill-sdpa llama-prefill-eager >>"$log" 2>&1 || failed=1
timeout 80 python3 "$here/record_models.py" "$work/bf16" --budget 60 \
  --only llama-prefill-sdpa >>"$log" 2>&1 || failed=1
timeout 90 python3 "$here/record_comm.py" "$work/comm" --budget 60 --sync-events \
  >>"$log" 2>&1 || failed=1
tar -C "$work" -cf "$out/pairs.tar" . 2>>"$log" || failed=1
grep -E "^(torch|llama|comm) " "$log"
ls -la "$work"/*
exit "$failed"
