#!/usr/bin/env python3
"""An independent reading of a trace's collectives, to check attnprof's `collectives` (the whole
trace's rows of analyze's JSON) against (ctest runs it on every trace with collectives).

It shares no code with attnprof: Python's json module reads the whole file, and the rules of
docs/BREAKDOWN.md ("Collectives: bytes and bandwidth") are written out again. A collective's
kernel is a kernel whose name holds "nccl", "rccl" or "hccl", or whose args hold
"Collective name" or "In msg nelems". Its row is keyed by its "Collective name" (else the word
after ncclKernel_ / ncclDevKernel_ in its name), "dtype" and "Group size". Bytes are
max(In msg nelems, Out msg nelems) x the dtype's size; algbw is bytes over the sized kernels'
time; busbw is algbw x nccl-tests' factor.

usage: independent_collectives.py ATTNPROF TRACE...
Exits 1 and prints the differences when attnprof disagrees.
"""
import json
import re
import subprocess
import sys
from collections import defaultdict

from independent_reading import load, ns  # the trace, read by Python's json module

SIZES = {"BFloat16": 2, "Half": 2, "Float": 4, "Double": 8, "Int": 4, "Long": 8, "Byte": 1,
         "Char": 1, "Bool": 1, "Float8_e4m3fn": 1, "Float8_e5m2": 1, "float32": 4,
         "bfloat16": 2, "float16": 2}


def factor(name, n):
    folded = name.lower().replace("_", "")
    if "allreduce" in folded:
        return None if n is None else 2 * (n - 1) / n
    if any(k in folded for k in ("reducescatter", "allgather", "alltoall")):
        return None if n is None else (n - 1) / n
    return 1.0


def expected(path):
    rows = defaultdict(lambda: {"count": 0, "gpu_ns": 0, "sized": 0, "bytes": 0, "sized_ns": 0})
    for e in load(path)["traceEvents"]:
        if e.get("ph") != "X" or e.get("cat") != "kernel":
            continue
        args = e.get("args") or {}
        lowered = e["name"].lower()
        if not (any(k in lowered for k in ("nccl", "rccl", "hccl")) or
                "Collective name" in args or "In msg nelems" in args):
            continue
        name = args.get("Collective name")
        if not name:
            m = re.match(r"nccl(?:Dev)?Kernel_([^_(<]*)", e["name"])
            name = m.group(1) if m else e["name"]
        n = args.get("Group size")
        row = rows[(name, args.get("dtype", ""), n)]
        row["count"] += 1
        row["gpu_ns"] += ns(e["dur"])
        nelems = max(args.get("In msg nelems", -1), args.get("Out msg nelems", -1))
        size = SIZES.get(args.get("dtype", ""))
        if size and nelems >= 0:
            row["sized"] += 1
            row["bytes"] += nelems * size
            row["sized_ns"] += ns(e["dur"])
    return rows


def main():
    attnprof, traces = sys.argv[1], sys.argv[2:]
    failures = 0
    for path in traces:
        out = subprocess.run([attnprof, "analyze", "--format", "json", path], check=True,
                             capture_output=True, text=True).stdout
        got = json.loads(out)["traces"][0]["collectives"]
        want = expected(path)
        problems = []
        if len(got) != len(want):
            problems.append(f"{len(got)} rows, expected {len(want)}: {sorted(want)}")
        for g in got:
            key = (g["name"], g["dtype"], g["group_size"])
            w = want.get(key)
            if w is None:
                problems.append(f"row {key} is not in the trace")
                continue
            algbw = w["bytes"] / w["sized_ns"] if w["sized_ns"] else None
            f = factor(g["name"], g["group_size"])
            busbw = None if algbw is None or f is None else algbw * f
            checks = [("count", g["count"], w["count"]),
                      ("gpu_us", round(g["gpu_us"] * 1000), w["gpu_ns"]),
                      ("sized", g["sized"], w["sized"]), ("bytes", g["bytes"], w["bytes"]),
                      ("sized_gpu_us", round(g["sized_gpu_us"] * 1000), w["sized_ns"])]
            for what, a, b in checks:
                if a != b:
                    problems.append(f"{key} {what}: attnprof {a}, expected {b}")
            for what, a, b in (("algbw_gbps", g["algbw_gbps"], algbw),
                               ("busbw_gbps", g["busbw_gbps"], busbw)):
                if (a is None) != (b is None) or (a is not None and abs(a - b) > 1e-6 * max(1, b)):
                    problems.append(f"{key} {what}: attnprof {a}, expected {b}")
        print(f"{'FAIL' if problems else 'PASS'} {path}: {len(got)} collective rows")
        for p in problems:
            print("  " + p)
        failures += bool(problems)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
