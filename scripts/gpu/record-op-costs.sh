#!/usr/bin/env bash
# Records the op cost model's traces (scripts/gpu/record_op_costs.py) on the GPU machine and
# leaves in $OUT (out/gpu-op-costs when unset): opcosts.tar (opcost-*.json.gz, status.json) and
# record.log. The lead commits the traces under tests/data/opcost/.
# Usage: scripts/gpu/record-op-costs.sh
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-$here/../../out/gpu-op-costs}
work=${TMPDIR:-/tmp}/attnprof-opcost
mkdir -p "$out"
rm -rf "$work" && mkdir -p "$work"
export PYTHONUNBUFFERED=1
timeout 170 python3 "$here/record_op_costs.py" "$work" --budget 150 >"$out/record.log" 2>&1
status=$?
tar -C "$work" -cf "$out/opcosts.tar" . 2>>"$out/record.log"
du -sh "$work"/* >>"$out/record.log" 2>&1
tail -20 "$out/record.log"
exit "$status"
