#!/usr/bin/env python3
"""An independent reading of `attnprof diff`'s views (docs/check-and-diff.md), to check them against.

Each side's regions, their GPU work and their top tables come from independent_reading.py and
independent_top_tables.py (Python's json module, the rules written out from the Kineto format).
Summed here again per region and averaged over the regions:
- by kernel: each row's full names' time and count (the rows' full names cover every kernel once);
- by op: the time of the work whose innermost op has the name (self GPU time), and the work
  launched by no op as "(no op)"; calls;
- by nn.Module class: the work launched inside a module of the class ("Linear" for "Linear_3"),
  counted once per class however deep it nests;
- the rows of by kernel and of by op add up to every GPU activity's time, whose change is the
  kernel classes' total change;
- explained_by covers at least 80 % of the GPU busy change (the mean over the regions of the union
  of each region's work), and no fewer rows of the view it chose would;
- the default text fits 120 lines of at most 120 columns.
Times within 0.1 % (or 2 ns per region).

usage: independent_diff.py ATTNPROF TRACE_A TRACE_B [REGION_GLOB]
"""
import json
import re
import subprocess
import sys
from collections import defaultdict

import independent_reading as ir
import independent_top_tables as itt


def side(trace, pattern):
    """Per region: {view: {key: (ns, count)}}, the region's activity time and GPU busy time."""
    doc = ir.load(trace)
    regions, _, _ = ir.read_regions(doc, pattern)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    complete = [e for e in events if isinstance(e, dict) and e.get("ph") == "X" and "dur" in e]
    ops = [e for e in complete if e.get("cat") == "cpu_op"]
    modules = [e for e in complete if e.get("cat") == "python_function" and
               e["name"].startswith(itt.MODULE)]
    op_parent, op_threads = itt.by_thread(ops)
    mod_parent, mod_threads = itt.by_thread(modules)
    ext_ops = {}
    for e in ops:
        if e.get("args", {}).get("External id"):
            ext_ops.setdefault(e["args"]["External id"], e)
    out = []
    for region in regions:
        kernels, op_rows, _ = itt.expected_tables(doc, region, ops, op_parent, op_threads, ext_ops,
                                                  modules, mod_parent, mod_threads)
        activity = sum(k["total"] for k in kernels.values())
        by_op = {name: (o["self_gpu"], o["calls"]) for name, o in op_rows.items() if o["self_gpu"]}
        launched = sum(ns for ns, _ in by_op.values())
        if activity > launched:
            by_op["(no op)"] = (activity - launched, 0)
        inside = lambda m: (region["whole"] or m["pid"] == region["pid"]) and \
            region["start_ns"] <= ir.ns(m["ts"]) < region["end_ns"]  # noqa: E731
        by_module = defaultdict(lambda: [0, 0])
        for m in modules:
            if inside(m):
                by_module[re.sub(r"_[0-9]+$", "", m["name"][len(itt.MODULE):])][1] += 1
        for e, anchor in region["members"]:
            launch = anchor if isinstance(anchor, dict) and anchor.get("cat") in ir.LAUNCHES else None
            m = itt.innermost(mod_threads, launch) if launch else None
            seen = set()
            while m is not None:
                name = re.sub(r"_[0-9]+$", "", m["name"][len(itt.MODULE):])
                if inside(m) and name not in seen:
                    seen.add(name)
                    by_module[name][0] += ir.ns(e["dur"])
                m = mod_parent[id(m)]
        out.append({"kernels": {n: (k["total"], k["count"]) for n, k in kernels.items()},
                    "by_op": by_op, "by_module": {n: tuple(v) for n, v in by_module.items()},
                    "activity": activity, "busy": region["gpu_busy_ns"]})
    return out


def mean(regions, view, keys):
    """The mean over the regions of the summed time and count of `keys` in `view`."""
    ns = sum(regions[r][view].get(k, (0, 0))[0] for r in range(len(regions)) for k in keys)
    count = sum(regions[r][view].get(k, (0, 0))[1] for r in range(len(regions)) for k in keys)
    return ns / len(regions), count / len(regions)


def close(got_us, want_ns, regions):
    return abs(got_us * 1000 - want_ns) <= max(2 * regions, abs(want_ns) * 0.001)


def main():
    attnprof, trace_a, trace_b = sys.argv[1:4]
    pattern = sys.argv[4] if len(sys.argv) > 4 else None
    region_args = ["--region", pattern] if pattern else []
    run = subprocess.run([attnprof, "diff", "--format", "json", trace_a, trace_b] + region_args,
                         capture_output=True, text=True)
    if run.returncode != 0:
        print(run.stderr)
        return 1
    got = json.loads(run.stdout)
    sides = {"a": side(trace_a, pattern), "b": side(trace_b, pattern)}
    problems = []
    for s, regions in sides.items():
        if not regions:
            problems.append(f"{s}: no region")
            continue
        n = len(regions)
        # By kernel: every full name in exactly one row.
        names = [name for row in got["by_kernel"] for name in row["full_names"]]
        all_names = set().union(*(r["kernels"] for r in regions))
        if len(names) != len(set(names)) or not all_names <= set(names):
            problems.append(f"{s}: by_kernel's full names do not cover each kernel once")
        for row in got["by_kernel"]:
            ns, count = mean(regions, "kernels", row["full_names"])
            if not close(row[f"{s}_us"], ns, n) or abs(row[f"{s}_count"] - count) > 1e-9:
                problems.append(f"{s}: kernel {row['name'][:50]}: {row[f'{s}_us']} us "
                                f"{row[f'{s}_count']} != {ns} ns {count}")
        for view in ("by_op", "by_module"):
            keys = set().union(*(r[view] for r in regions))
            rows = {row["name"]: row for row in got[view]}
            if not keys <= set(rows):
                problems.append(f"{s}: {view}: missing {sorted(keys - set(rows))[:5]}")
            for name, row in rows.items():
                ns, count = mean(regions, view, [name])
                if not close(row[f"{s}_us"], ns, n) or abs(row[f"{s}_count"] - count) > 1e-9:
                    problems.append(f"{s}: {view} {name[:50]}: {row[f'{s}_us']} us "
                                    f"{row[f'{s}_count']} != {ns} ns {count}")
        activity = sum(r["activity"] for r in regions) / n
        for view in ("by_kernel", "by_op"):
            total = sum(row[f"{s}_us"] for row in got[view])
            if not close(total, activity, n):
                problems.append(f"{s}: {view} adds up to {total} us, not {activity} ns")
    # The kernel classes' total: with one region on each side each class's delta is a delta of
    # sums, so the classes' deltas add up as the rows' do.
    delta = sum(row["delta_us"] for row in got["by_kernel"])
    if got["a"]["regions"] == 1 and got["b"]["regions"] == 1:
        classes = sum(c["gpu_time_us"]["delta"] for c in got["kernel_classes"])
        if abs(delta - classes) > max(0.01, abs(classes) * 1e-6):
            problems.append(f"by_kernel's deltas add up to {delta} us, the classes' to {classes}")
    # explained_by: at least 80 % of the GPU busy change, with the fewest rows of its view.
    e = got["explained_by"]["gpu_busy"]
    busy = {s: sum(r["busy"] for r in regions) / len(regions) for s, regions in sides.items()}
    change = busy["b"] - busy["a"]
    if not close(e["delta_us"], change, 2):
        problems.append(f"explained_by: GPU busy change {e['delta_us']} us, not {change} ns")
    covered = sum(r["delta_us"] for r in e["rows"]) * 1000
    if change and covered / change < 0.8:
        problems.append(f"explained_by covers {100 * covered / change:.1f} % of the change")
    if change and e["rows"]:
        view = sorted((row["delta_us"] * 1000 for row in got[e["view"]]),
                      key=lambda d: -d if change > 0 else d)
        fewest = next((k for k in range(1, len(view) + 1)
                       if sum(view[:k]) / change >= 0.8), None)
        if fewest is not None and fewest != len(e["rows"]):
            problems.append(f"explained_by names {len(e['rows'])} rows, {fewest} would do")
    text = subprocess.run([attnprof, "diff", trace_a, trace_b] + region_args,
                          capture_output=True, text=True).stdout.splitlines()
    if len(text) > 120 or max(len(line) for line in text) > 120:
        problems.append(f"the default text has {len(text)} lines, "
                        f"the longest {max(len(line) for line in text)} columns")
    for p in problems[:40]:
        print(p)
    print(f"{trace_a} -> {trace_b} [{pattern or 'default'}]: views "
          f"{'AGREE' if not problems else 'DISAGREE'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
