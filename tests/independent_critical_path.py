#!/usr/bin/env python3
"""An independent reading of each region's critical path, to check attnprof's against (ctest runs
it on real traces).

It shares no code with attnprof: the regions and their GPU work come from independent_reading.py,
and the graph of docs/CRITICAL_PATH.md is written out again here from its rules, as a dict of
named nodes. Its times are found by another method than attnprof's topological order: the nodes
are relaxed in the order of their recorded times, again and again until no time changes. The
path is then walked back from the region's end through the dependency that arrived last.

Its length must equal attnprof's to the nanosecond; each category may differ by 0.5 % of the
length at most, where two dependencies arrive at the same nanosecond and the two readings pick
different ones.

usage: independent_critical_path.py ATTNPROF TRACE [REGION_GLOB]
Exits 1 and prints the differences when attnprof disagrees.
"""
import subprocess
import sys
import json
from collections import defaultdict

from independent_reading import load, ns, read_regions

BLOCKING = {"cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventSynchronize", "cudaMemcpy",
            "cudaMemcpy2D", "cuCtxSynchronize", "cuStreamSynchronize", "cuEventSynchronize",
            "hipDeviceSynchronize", "hipStreamSynchronize", "hipEventSynchronize", "hipMemcpy"}
CALLS = {"cuda_runtime", "cuda_driver"}
HOST = {"cpu_op", "user_annotation"} | CALLS
GPU = {"kernel": "kernel", "gpu_memcpy": "memcpy", "gpu_memset": "memset"}
CATEGORIES = ["cpu_us", "launch_overhead_us", "sync_us", "compute_us", "communication_us",
              "memory_us", "kernel_gap_us"]


def start(e):
    return ns(e["ts"])


def end(e):
    return ns(e["ts"]) + ns(e["dur"])


def work_category(e):
    if e["cat"] != "kernel":
        return "memory_us"
    name = e["name"].lower()
    return "communication_us" if any(k in name for k in ("nccl", "rccl", "hccl")) else "compute_us"


def critical_path(doc, region):
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    complete = [e for e in events if isinstance(e, dict) and e.get("ph") == "X" and "dur" in e]
    rs, re_ = region["start_ns"], region["end_ns"]
    nodes = {"start": rs, "end": re_}
    edges = []  # (from, to, weight, category)

    def edge(a, b, w, category):
        edges.append((a, b, w, category))

    members = [e for e, _ in region["members"]]
    launch_of = {}
    for e, anchor in region["members"]:
        if isinstance(anchor, dict) and anchor.get("cat") in CALLS:  # not an op (External id)
            launch_of[id(e)] = anchor
    # Blocking calls: by name, or a call whose own copy to the host ends inside it.
    waits = []  # (gpu event, call)
    blocking = set()
    for e in members:
        call = launch_of.get(id(e))
        if (call is not None and e["cat"] == "gpu_memcpy" and "DtoH" in e["name"] and
                start(call) < end(e) <= end(call)):
            blocking.add(id(call))
            waits.append((e, call))
    launched = sorted((start(launch_of[id(e)]), i, e) for i, e in enumerate(members)
                      if id(e) in launch_of)
    threads = defaultdict(list)
    for e in complete:
        if e.get("cat") in HOST and (region["whole"] or e["pid"] == region["pid"]) and \
                rs <= start(e) < re_:
            threads[(e["pid"], e["tid"])].append(e)
    for key, evs in threads.items():
        evs.sort(key=lambda e: (start(e), -ns(e["dur"])))
        for e in evs:
            if e["cat"] in CALLS and e["name"] in BLOCKING and id(e) not in blocking:
                blocking.add(id(e))
                before = [x for t, _, x in launched if t < start(e)]
                if before:
                    waits.append((max(before, key=end), e))
        prev, stack = "start", []

        def step(name, t, waited):
            nonlocal prev
            nodes[name] = t
            top = stack[-1] if stack else None
            category = "cpu_us"
            if top is not None and top["cat"] in CALLS:
                category = "sync_us" if id(top) in blocking else "launch_overhead_us"
            edge(prev, name, 0 if waited else max(t - nodes[prev], 0), category)
            prev = name

        def close():
            e = stack[-1]
            step(("he", id(e)), min(end(e), re_), id(e) in blocking)
            stack.pop()

        for e in evs:
            while stack and min(end(stack[-1]), re_) <= start(e):
                close()
            step(("hs", id(e)), start(e), False)
            stack.append(e)
        while stack:
            close()
        edge(prev, "end", 0, "cpu_us")
    # GPU work, stream by stream in start order.
    by_stream = defaultdict(list)
    everything = [e for e in complete if e.get("cat") in GPU]
    for e in everything:
        by_stream[(e["args"].get("device"), e["args"].get("stream"))].append(e)
    member_ids = {id(e) for e in members}
    for key, evs in by_stream.items():
        evs.sort(key=start)
        previous = None
        for e in evs:
            if id(e) in member_ids:
                s, t = ("gs", id(e)), ("ge", id(e))
                nodes[s], nodes[t] = start(e), end(e)
                edge(s, t, ns(e["dur"]), work_category(e))
                preceded = False
                call = launch_of.get(id(e))
                if call is not None and ("hs", id(call)) in nodes:
                    edge(("hs", id(call)), s, 0, "launch_overhead_us")
                    preceded = True
                if previous is not None:
                    if ("ge", id(previous)) not in nodes and end(previous) > rs:
                        nodes[("ge", id(previous))] = end(previous)
                        edge("start", ("ge", id(previous)), end(previous) - rs,
                             work_category(previous))
                    if ("ge", id(previous)) in nodes:
                        edge(("ge", id(previous)), s, 0, "kernel_gap_us")
                        preceded = True
                if not preceded:
                    edge("start", s, 0, "kernel_gap_us")
            previous = e
        last = [e for e in evs if id(e) in member_ids]
        if last and end(last[-1]) <= re_:
            edge(("ge", id(last[-1])), "end", 0, "kernel_gap_us")
    for e, call in waits:
        if ("ge", id(e)) in nodes and ("he", id(call)) in nodes:
            edge(("ge", id(e)), ("he", id(call)), 0, "sync_us")

    # Times: relax every node's incoming edges in recorded-time order until nothing changes.
    incoming = defaultdict(list)
    for a, b, w, c in edges:
        incoming[b].append((a, w, c))
    order = sorted(nodes, key=lambda n: nodes[n])
    time = dict(nodes)
    for _ in range(len(order) + 1):
        changed = False
        for n in order:
            arrivals = [time[a] + w for a, w, _ in incoming[n]]
            t = max([nodes[n]] + arrivals)
            if t != time[n]:
                time[n], changed = t, True
        if not changed:
            break
    categories = dict.fromkeys(CATEGORIES, 0)
    n = "end"
    while n != "start":
        if not incoming[n]:
            categories["cpu_us"] += time[n] - rs
            break
        a, w, c = max(incoming[n], key=lambda x: time[x[0]] + x[1])
        frm = max(time[a], time["start"])
        categories[c] += max(time[n] - frm, 0)
        if time[a] <= time["start"]:
            break
        n = a
    return time["end"] - time["start"], categories


def main():
    attnprof, trace = sys.argv[1], sys.argv[2]
    pattern = sys.argv[3] if len(sys.argv) > 3 else None
    doc = load(trace)
    regions, _, _ = read_regions(doc, pattern)
    cmd = [attnprof, "analyze", "--format", "json", trace] + (["--region", pattern] if pattern else [])
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        print(run.stderr)
        return 1
    got = json.loads(run.stdout)["traces"][0]["regions"]
    problems = []
    if len(got) != len(regions):
        problems.append(f"{len(got)} regions, expected {len(regions)}")
    for r, e in zip(got, regions):
        length, categories = critical_path(doc, e)
        path = r["critical_path"]
        mine = round(path["length_us"] * 1000)
        if mine != length:
            problems.append(f"{e['name']}: length {mine} ns != {length} ns")
        for c in CATEGORIES:
            theirs = round(path["categories"][c] * 1000)
            if abs(theirs - categories[c]) > 0.005 * max(length, 1):
                problems.append(f"{e['name']}: {c} {theirs} ns != {categories[c]} ns")
        # Each category is printed to the nanosecond: the seven add up to the length exactly.
        if sum(round(path["categories"][c] * 1000) for c in CATEGORIES) != mine:
            problems.append(f"{e['name']}: categories do not add up to the length")
    for p in problems:
        print(p)
    print(f"{trace} [{pattern or 'default'}]: {len(regions)} regions, "
          f"{'AGREE' if not problems else 'DISAGREE'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
