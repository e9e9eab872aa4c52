#!/usr/bin/env python3
"""An independent reading of a job's path across ranks, to check attnprof's `job_path` (each
region of analyze's `across_traces`) against (ctest runs it on the ranks in tests/data).

It shares no code with attnprof: Python's json module reads every rank's file, and the rules of
docs/CRITICAL_PATH.md ("Across ranks") are written out again. A region is a ProfilerStep#N
annotation. Its collectives are its communication kernels (a name with nccl, rccl or hccl, whose
runtime call starts inside the region in its process), else its CPU collectives (gloo: and nccl:
events of its process that start inside it). Each rank's collectives are matched with the
others' by process group and name, the n-th with the n-th; the ranks' clocks are aligned on the
end of the matched collective that ends first on the first rank. Walking in time from the
earliest region start: before each collective (in the order the last rank reached them), the
rank that reached it last holds the job; once all have, the collective runs until the median
end; after the last, the rank whose region ends last holds the job.

Times agree within a quarter of a microsecond per time they add: a clock of 1.6e15 µs, as HTA's
traces have, holds about that in a double, which is how attnprof reads it.

usage: independent_job_path.py ATTNPROF RANK_TRACE...
Exits 1 and prints the differences when attnprof disagrees.
"""
import json
import re
import subprocess
import sys
from statistics import median

from independent_reading import load, ns  # the trace, read by Python's json module

COMM = ("nccl", "rccl", "hccl")


def regions_of(path):
    doc = load(path)
    events = [e for e in doc["traceEvents"] if e.get("ph") == "X"]
    steps = [e for e in events if e.get("cat") == "user_annotation" and
             e["name"].startswith("ProfilerStep#")]
    launches = {e["args"]["correlation"]: e for e in events
                if e.get("cat") == "cuda_runtime" and "correlation" in (e.get("args") or {})}
    kernels = [e for e in events if e.get("cat") == "kernel" and
               any(k in e["name"].lower() for k in COMM)]
    cpu = [e for e in events if e.get("cat") in ("cpu_op", "user_annotation") and
           (e["name"].startswith("gloo:") or e["name"].startswith("nccl:"))]
    out = {}
    for s in steps:
        start, end = ns(s["ts"]), ns(s["ts"]) + ns(s["dur"])
        visits = []
        for k in kernels:
            call = launches.get((k.get("args") or {}).get("correlation"))
            if call is None or call["pid"] != s["pid"] or not start <= ns(call["ts"]) < end:
                continue
            args = k.get("args") or {}
            name = args.get("Collective name")
            if not name:
                m = re.match(r"nccl(?:Dev)?Kernel_([^_(<]*)", k["name"])
                name = m.group(1) if m else k["name"]
            visits.append((ns(k["ts"]), ns(k["ts"]) + ns(k["dur"]), name,
                           args.get("Process Group Name", "")))
        if not visits:
            visits = [(ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), e["name"], "") for e in cpu
                      if e["pid"] == s["pid"] and start <= ns(e["ts"]) < end]
        visits.sort(key=lambda v: v[0])
        out[s["name"]] = (start, end, visits)
    return out


def job_path(ranks):
    """ranks: per rank, (start, end, visits). None when no collective is matched."""
    keys, by_key = [], []
    for _, _, visits in ranks:
        mine = {}
        for v in visits:
            key = (v[3], v[2])
            if key not in keys:
                keys.append(key)
            mine.setdefault(key, []).append(v)
        by_key.append(mine)
    matched = []
    for key in keys:
        fewest = min(len(m.get(key, [])) for m in by_key)
        matched += [[m[key][k] for m in by_key] for k in range(fewest)]
    if not matched:
        return None
    anchor = min(matched, key=lambda inst: inst[0][1])
    offset = [anchor[i][1] - anchor[0][1] for i in range(len(ranks))]
    rows = []
    for inst in matched:
        arrivals = [inst[i][0] - offset[i] for i in range(len(ranks))]
        last = max(range(len(ranks)), key=lambda i: (arrivals[i], -i))
        release = arrivals[last]
        leave = max(release, median(inst[i][1] - offset[i] for i in range(len(ranks))))
        rows.append((release, last, leave))
    rows.sort(key=lambda r: r[0])
    start = min(r[0] - offset[i] for i, r in enumerate(ranks))
    ends = [r[1] - offset[i] for i, r in enumerate(ranks)]
    end = max(ends)
    ends_last = ends.index(end)
    held = [0.0] * len(ranks)
    communication = 0.0
    at = start
    for release, last, leave in rows:
        if release > at:
            held[last] += release - at
        if leave > max(at, release):
            communication += leave - max(at, release)
        at = max(at, leave)
    if end > at:
        held[ends_last] += end - at
    return {"collectives": len(matched), "length_us": (end - start) / 1000,
            "communication_us": communication / 1000, "held_us": [h / 1000 for h in held]}


CLOCK_US = 0.25  # a double's step at 1.6e15 µs


def main():
    attnprof, paths = sys.argv[1], sys.argv[2:]
    got = json.loads(subprocess.run([attnprof, "analyze", "--format", "json", *paths],
                                    check=True, capture_output=True, text=True).stdout)
    across = got["across_traces"]
    ranks = [regions_of(p) for p in paths]
    failures, checked = [], 0
    for region in across["regions"]:
        if len(region["traces"]) != len(paths):
            continue
        want = job_path([ranks[t][region["name"]] for t in region["traces"]])
        have = region["job_path"]
        if want is None or have is None:
            if (want is None) != (have is None):
                failures.append(f"{region['name']}: job_path {have} where {want} was expected")
            continue
        checked += 1
        # Each collective adds two times (its release and its leave), and the ends two more.
        tolerance = CLOCK_US * (2 * want["collectives"] + 2)
        for key in ("length_us", "communication_us"):
            if abs(have[key] - want[key]) > tolerance:
                failures.append(f"{region['name']}: {key} {have[key]} != {want[key]}")
        if have["collectives"] != want["collectives"]:
            failures.append(f"{region['name']}: collectives {have['collectives']} != "
                            f"{want['collectives']}")
        for i, (h, w) in enumerate(zip(have["held_us"], want["held_us"])):
            if abs(h - w) > tolerance:
                failures.append(f"{region['name']}: held_us[{i}] {h} != {w}")
        most = max(range(len(want["held_us"])), key=lambda i: (want["held_us"][i], -i))
        if have["held_by"] != region["traces"][most]:
            failures.append(f"{region['name']}: held_by {have['held_by']} != "
                            f"{region['traces'][most]}")
    if checked == 0:
        failures.append("no region with a job's path to check")
    for f in failures:
        print(f)
    print(f"independent_job_path: {checked} region(s) checked, {len(failures)} difference(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
