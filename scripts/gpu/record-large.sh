#!/usr/bin/env bash
# Records, on the GPU machine, the traces that are too large or too slow for record_fixtures.py's
# default set, and leaves them in $OUT (the device tool's folder; out/gpu-large when unset):
#   gpt2_train_${GPT2_STEPS}steps.json.gz   GPT-2 small training, shapes + stacks + memory events,
#                                           ~200 MB of JSON at the default 27 steps (docs/PERFORMANCE.md's
#                                           large real trace; grow it with tools/grow_trace)
#   ranks.tar                               ddp_rank0/1.json.gz: a two-rank data-parallel run
#   record.log                              what the recording printed
# Usage: scripts/gpu/record-large.sh [ranks] [gpt2]  (both by default)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${OUT:-$root/out/gpu-large}
work=${TMPDIR:-/tmp}/attnprof-large
mkdir -p "$out" "$work"
what=("$@")
((${#what[@]})) || what=(ranks gpt2)
export PYTHONUNBUFFERED=1 GPT2_STEPS=${GPT2_STEPS:-27} GPT2_OUT=$out
start=$SECONDS
python3 "$root/scripts/gpu/record_fixtures.py" "$work" "${what[@]}" 2>&1 | tee "$out/record.log"
rc=${PIPESTATUS[0]}
if ls "$work"/ddp_rank*.json.gz >/dev/null 2>&1; then
  tar -C "$work" -cf "$out/ranks.tar" $(cd "$work" && ls ddp_rank*.json.gz)
fi
echo "record-large: exit $rc after $((SECONDS - start)) s"
ls -la "$out"
exit "$rc"
