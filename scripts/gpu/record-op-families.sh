#!/usr/bin/env bash
# Records the op-family traces of tests/data/op_families on the GPU machine (record_op_families.py
# says what each holds and how its FLOPs were counted by brute force).
# Leaves in $OUT (the device tool's folder; out/gpu-op-families when unset): op_families.tar and
# record.log.
# Usage: scripts/gpu/record-op-families.sh
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-$here/../../out/gpu-op-families}
work=${TMPDIR:-/tmp}/attnprof-op-families
mkdir -p "$out"
rm -rf "$work" && mkdir -p "$work"
export PYTHONUNBUFFERED=1
timeout 240 python3 "$here/record_op_families.py" "$work/op_families" --budget 210 \
  >"$out/record.log" 2>&1
status=$?
tar -C "$work" -cf "$out/op_families.tar" . 2>>"$out/record.log"
tail -40 "$out/record.log"
du -sh "$work"/op_families/* 2>/dev/null
exit "$status"
