#!/usr/bin/env python3
"""Checks attnprof's op costs on traces recorded for the purpose (tests/data/op_families), against
counts made without attnprof's formulas: op_families.json, written by
scripts/gpu/record_op_families.py beside the traces, gives each case's FLOPs (2 x the
multiply-adds of a product) and, for attention, the query-key pairs its mask lets through counted
element by element.

Usage: op_families_check.py ATTNPROF FAMILY   (FAMILY: gemm, conv, memory, sdpa-math, ...)

For each case the trace ran, `attnprof analyze TRACE --region 'case: NAME' --format json` must give:
- GEMM and convolution: the FLOPs of the region's ops, each counted once (never also through a
  parent op), equal to the case's;
- memory-bound ops: their bytes (each input read once, the output written once);
- attention: the attention call's FLOPs equal to 2 x (head dim + value dim) x batch x query heads x
  the visible pairs, for a backward 2.5 x that more; where the mask is a tensor (or a flex block
  mask), whose pattern the trace does not record, every pair (docs/OP_COSTS.md says why).
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data", "op_families")


def analyze(attnprof, trace):
    out = subprocess.run([attnprof, "analyze", trace, "--region", "case: *", "--format", "json"],
                         capture_output=True, text=True, check=True).stdout
    return {r["name"]: r for r in json.loads(out)["traces"][0]["regions"]}


def close(a, b):
    return a is not None and abs(a - b) <= 1e-9 * max(abs(b), 1)


def main():
    attnprof, family = sys.argv[1], sys.argv[2]
    manifest = json.load(open(os.path.join(DATA, "op_families.json")))
    cases = [c for c in manifest["cases"] if c.get("trace") == family + ".json.gz"]
    if not cases:
        print(f"no case of {family} in op_families.json")
        return 1
    regions = analyze(attnprof, os.path.join(DATA, family + ".json.gz"))
    failures = 0
    for case in cases:
        region = regions.get("case: " + case["case"])
        if region is None:
            print(f"FAIL {case['case']}: no region 'case: {case['case']}'")
            failures += 1
            continue
        flops = sum(op["flops"] or 0 for op in region["ops"])
        byts = sum(op["bytes"] or 0 for op in region["ops"])
        if "visible_pairs" in case:
            pairs = case["visible_pairs"]
            kernel_causal = case["case"].startswith("lower_right") and family in (
                "sdpa-efficient", "sdpa-flash")
            if kernel_causal:
                pass  # causal_lower_right runs as their causal kernels, aligned bottom right
            elif case.get("explicit_mask") or case["op"] == "flex_attention":
                pairs = case["all_pairs"]  # a mask's pattern is not recorded: every pair
            d = case["head_dim"]
            expected = 2 * (d + d) * case["batch"] * case["heads"] * pairs
            calls = region["attention_calls"]
            got = sum(c["flops"] or 0 for c in calls)
            if case.get("backward"):
                expected *= 3.5  # the forward, then its backward at 2.5 x
            what = f"attention FLOPs {got:.6g} (calls: {len(calls)}), expected {expected:.6g}"
            ok = close(got, expected)
            if case.get("backward") and family == "sdpa-math":
                # Math's backward runs as autograd's GEMMs over every pair (4 products where the
                # forward made 2): the ops table counts what they ran, the backward's attention
                # call the 2.5 x convention over its forward's visible pairs, found through the
                # trace's fwdbwd flows (docs/OP_COSTS.md).
                every = 2 * (d + d) * case["batch"] * case["heads"] * case["all_pairs"]
                backward = [c for c in calls if c["backward"]]
                what += (f"; backward call: {len(backward)} ({backward[0]['backend'] if backward else None}); "
                         f"ops FLOPs {flops:.6g}, expected 3 x {every:.6g}")
                ok = ok and close(flops, 3 * every) and len(backward) == 1 and \
                    backward[0]["backend"] == "math"
        elif "bytes" in case:
            expected = case["bytes"]
            what = f"bytes {byts:.6g}, expected {expected:.6g}"
            ok = close(byts, expected)
        else:
            expected = case["flops"] * (2 if case["case"] == "mm_backward" else 1)
            what = f"FLOPs {flops:.6g}, expected {expected:.6g}"
            ok = close(flops, expected)
        print(f"{'ok  ' if ok else 'FAIL'} {case['case']}: {what}")
        failures += not ok
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
