#!/usr/bin/env python3
"""An independent reading of the top tables (docs/top-tables.md), to check attnprof's against.

Regions and their GPU work come from independent_reading.py (Python's json module, the rules
written out from the Kineto format). The rest is worked out here again from the raw events: kernels
grouped by their full name; ops nested by time on their thread (an op's parent is the innermost op
whose span holds it), self CPU time its duration less its direct children's, and the GPU time of
the work whose launch the op holds, counted once per op name along the nest; nn.Modules from the
python_function events "nn.Module: X_N", nested the same way, each holding the work launched inside
it on its thread. Counts must be equal, times within 0.1 % (or 2 ns).

usage: independent_top_tables.py ATTNPROF TRACE [REGION_GLOB]
"""
import bisect
import json
import re
import subprocess
import sys
from collections import defaultdict

import independent_reading as ir

MODULE = "nn.Module: "


def by_thread(events):
    """Each event's parent among `events` on its thread: the innermost whose span holds it."""
    parent = {}
    threads = defaultdict(list)
    for e in events:
        threads[(e["pid"], e["tid"])].append(e)
    for list_ in threads.values():
        list_.sort(key=lambda e: (ir.ns(e["ts"]), -ir.ns(e["dur"])))
        stack = []
        for e in list_:
            start, end = ir.ns(e["ts"]), ir.ns(e["ts"]) + ir.ns(e["dur"])
            while stack and not (start >= stack[-1][1] and end <= stack[-1][2]):
                stack.pop()
            parent[id(e)] = stack[-1][0] if stack else None
            stack.append((e, start, end))
    return parent, threads


# Per `threads` (by_thread's, each thread's list sorted by start, then longest first): each
# thread's starts, ends and events, in nanoseconds once.
_SPANS = {}


def _spans(threads, key):
    cached = _SPANS.setdefault(id(threads), (threads, {}))[1]
    if key not in cached:
        events = threads.get(key, [])
        starts = [ir.ns(e["ts"]) for e in events]
        cached[key] = (starts, [s + ir.ns(e["dur"]) for s, e in zip(starts, events)], events)
    return cached[key]


def innermost(threads, event):
    """The innermost of `threads`' events on `event`'s thread whose span holds `event`'s: of those,
    the latest to start, and of those starting together the shortest (the last in by_thread's
    order). Walks back from the last event that starts by `event`'s start."""
    starts, ends, events = _spans(threads, (event["pid"], event["tid"]))
    t = ir.ns(event["ts"])
    end = t + ir.ns(event["dur"])
    for i in range(bisect.bisect_right(starts, t) - 1, -1, -1):
        if end <= ends[i]:
            return events[i]
    return None


def expected_tables(doc, region, ops, op_parent, op_threads, ext_ops, modules, mod_parent,
                    mod_threads):
    kernels = {}
    for e, _ in region["members"]:
        k = kernels.setdefault(e["name"], {"count": 0, "total": 0, "min": None, "max": None})
        d = ir.ns(e["dur"])
        k["count"] += 1
        k["total"] += d
        k["min"] = d if k["min"] is None else min(k["min"], d)
        k["max"] = d if k["max"] is None else max(k["max"], d)

    def top(e):
        while op_parent[id(e)] is not None:
            e = op_parent[id(e)]
        return e

    def inside(e):
        return (region["whole"] or e["pid"] == region["pid"]) and \
            region["start_ns"] <= ir.ns(e["ts"]) < region["end_ns"]

    op_rows = defaultdict(lambda: {"calls": 0, "cpu": 0, "self_cpu": 0, "gpu": 0, "self_gpu": 0})
    for e in ops:
        if not inside(top(e)):
            continue
        row = op_rows[e["name"]]
        row["calls"] += 1
        row["cpu"] += ir.ns(e["dur"])
        row["self_cpu"] += ir.ns(e["dur"])
        if op_parent[id(e)] is not None:
            op_rows[op_parent[id(e)]["name"]]["self_cpu"] -= ir.ns(e["dur"])
    mod_rows = defaultdict(lambda: {"calls": 0, "cpu": 0, "gpu": 0, "work": 0})
    for m in modules:
        if inside(m):
            row = mod_rows[m["name"][len(MODULE):]]
            row["calls"] += 1
            row["cpu"] += ir.ns(m["dur"])
    for e, anchor in region["members"]:
        d = ir.ns(e["dur"])
        launch = anchor if isinstance(anchor, dict) and anchor.get("cat") in ir.LAUNCHES else None
        op = innermost(op_threads, launch) if launch else None
        if op is None and not launch:
            op = ext_ops.get(e.get("args", {}).get("External id"))
        if op is not None:
            op_rows[op["name"]]["self_gpu"] += d
            seen = set()
            while op is not None:
                if op["name"] not in seen:
                    seen.add(op["name"])
                    op_rows[op["name"]]["gpu"] += d
                op = op_parent[id(op)]
        m = innermost(mod_threads, launch) if launch else None
        seen = set()
        while m is not None:
            name = m["name"][len(MODULE):]
            if inside(m) and name not in seen:
                seen.add(name)
                mod_rows[name]["gpu"] += d
                mod_rows[name]["work"] += 1
            m = mod_parent[id(m)]
    return kernels, op_rows, mod_rows


def close(a, b):
    return abs(a - b) <= max(2, abs(b) * 0.001)


def main():
    attnprof, trace = sys.argv[1], sys.argv[2]
    pattern = sys.argv[3] if len(sys.argv) > 3 else None
    doc = ir.load(trace)
    regions, _, _ = ir.read_regions(doc, pattern)
    if not regions:
        print(f"{trace} [{pattern}]: no region: nothing to compare")
        return 0
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    complete = [e for e in events if isinstance(e, dict) and e.get("ph") == "X" and "dur" in e]
    legacy = any(e.get("cat") == ir.LEGACY_OP for e in complete)
    if legacy:
        print(f"{trace}: PyTorch 1.8-1.9 scopes are ops there: not compared")
        return 0
    ops = [e for e in complete if e.get("cat") == "cpu_op"]
    modules = [e for e in complete if e.get("cat") == "python_function" and
               e["name"].startswith(MODULE)]
    op_parent, op_threads = by_thread(ops)
    mod_parent, mod_threads = by_thread(modules)
    ext_ops = {}
    for e in ops:
        if e.get("args", {}).get("External id"):
            ext_ops.setdefault(e["args"]["External id"], e)
    cmd = [attnprof, "analyze", "--format", "json", trace] + (["--region", pattern] if pattern else [])
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        print(run.stderr)
        return 1
    got = json.loads(run.stdout)["traces"][0]["regions"]
    problems = []
    us = lambda v: round(v * 1000)  # noqa: E731
    for region, theirs in zip(regions, got):
        kernels, op_rows, mod_rows = expected_tables(doc, region, ops, op_parent, op_threads,
                                                     ext_ops, modules, mod_parent, mod_threads)
        where = region["name"]
        tk = {k["name"]: k for k in theirs["top_kernels"]}
        if set(tk) != set(kernels):
            problems.append(f"{where}: kernel names differ: {set(tk) ^ set(kernels)}")
        for name, k in kernels.items():
            t = tk.get(name)
            if t is None:
                continue
            if t["count"] != k["count"]:
                problems.append(f"{where}: {name[:60]}: count {t['count']} != {k['count']}")
            for key in ("total", "min", "max"):
                if not close(us(t[key + "_us"]), k[key]):
                    problems.append(f"{where}: {name[:60]}: {key} {t[key + '_us']} != {k[key]} ns")
        # A GEMM, convolution or attention op whose calls ran in several types is a row per type
        # (docs/OP_COSTS.md): summed by name here, as key_averages groups them.
        to = {}
        for o in theirs["ops"]:
            if o["name"] in to:
                t = to[o["name"]] = dict(to[o["name"]])
                for key in ("calls", "cpu_us", "self_cpu_us", "gpu_us", "self_gpu_us"):
                    t[key] += o[key]
            else:
                to[o["name"]] = o
        if set(to) != set(op_rows):
            problems.append(f"{where}: op names differ: {sorted(set(to) ^ set(op_rows))[:5]}")
        for name, o in op_rows.items():
            t = to.get(name)
            if t is None:
                continue
            if t["calls"] != o["calls"]:
                problems.append(f"{where}: {name}: calls {t['calls']} != {o['calls']}")
            for key in ("cpu", "self_cpu", "gpu", "self_gpu"):
                if not close(us(t[key + "_us"]), o[key]):
                    problems.append(f"{where}: {name}: {key} {t[key + '_us']} us != {o[key]} ns")
        tm = {m["name"]: m for m in theirs["modules"]}
        if set(tm) != set(mod_rows):
            problems.append(f"{where}: modules differ: {sorted(set(tm) ^ set(mod_rows))[:5]}")
        for name, m in mod_rows.items():
            t = tm.get(name)
            if t is None:
                continue
            if t["calls"] != m["calls"] or t["gpu_activities"] != m["work"]:
                problems.append(f"{where}: module {name}: calls/work {t['calls']}/"
                                f"{t['gpu_activities']} != {m['calls']}/{m['work']}")
            for key in ("cpu", "gpu"):
                if not close(us(t[key + "_us"]), m[key]):
                    problems.append(f"{where}: module {name}: {key} {t[key + '_us']} != {m[key]}")
        # Per class: the instances' calls add up (a class row holds every call of its instances).
        classes = defaultdict(int)
        for name, m in mod_rows.items():
            classes[re.sub(r"_[0-9]+$", "", name)] += m["calls"]
        for c in theirs["module_classes"]:
            if classes.get(c["name"]) != c["calls"]:
                problems.append(f"{where}: module class {c['name']}: calls {c['calls']} != "
                                f"{classes.get(c['name'])}")
    for p in problems[:40]:
        print(p)
    print(f"{trace} [{pattern or 'default'}]: {len(regions)} regions' top tables, "
          f"{'AGREE' if not problems else 'DISAGREE'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
