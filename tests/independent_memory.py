#!/usr/bin/env python3
"""An independent reading of a trace's [memory] events, to check attnprof's memory figures against
(ctest runs it on every fixture recorded with profile_memory=True).

It shares no code with attnprof: Python's json module reads the whole file, and the rules of
docs/MEMORY.md are written out again by brute force. Regions are the user annotations that match
the glob (default ProfilerStep#*, else the whole trace). A region's events on a device are the
CUDA [memory] events ("Device Type" 1) of the region's process whose time lies in its span, in
time order. The peak is the highest "Total Allocated" and the first event that reached it; its op
is the innermost cpu_op or user annotation (not a ProfilerStep#N) whose span holds the event on
its thread, found by scanning every event of that thread; its module the innermost python_function
"nn.Module: ..." that does. The holders at the peak come from replaying every event of the process
and device from the trace's start up to the peak, allocations and frees paired by "Addr".

usage: independent_memory.py ATTNPROF TRACE [REGION_GLOB]
Exits 1 and prints the differences when attnprof disagrees.
"""
import fnmatch
import json
import subprocess
import sys
from collections import defaultdict

from independent_reading import load, ns  # the trace, read by Python's json module

MODULE_PREFIX = "nn.Module: "
TOP = 10


def regions_of(events, glob):
    annotations = [e for e in events if e.get("ph") == "X" and e.get("cat") == "user_annotation"]
    pattern = glob or "ProfilerStep#*"
    found = [(e["name"], e["pid"], ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]))
             for e in annotations if fnmatch.fnmatchcase(e["name"], pattern)]
    if found or glob:
        return sorted(found, key=lambda r: r[2]), False
    timed = [e for e in events if e.get("ph") in ("X", "i", "I") and "ts" in e]
    start = min(ns(e["ts"]) for e in timed)
    end = max(ns(e["ts"]) + ns(e.get("dur", 0)) for e in timed) + 1
    return [("whole trace", None, start, end)], True


def innermost(spans, ts):
    """The span (start, end, name) that holds ts and starts last (the shorter at a tie)."""
    best = None
    for start, end, name in spans:
        if start <= ts <= end and (best is None or (start, -end) > (best[0], -best[1])):
            best = (start, end, name)
    return best[2] if best else ""


def expected_memory(trace, glob):
    """Per region, (name, its figures per device); the unpaired frees, the negative totals and
    the CUDA events read."""
    events = [e for e in load(trace)["traceEvents"] if isinstance(e, dict)]

    holders = defaultdict(list)  # (pid, tid) -> spans of ops and annotations
    modules = defaultdict(list)
    for e in events:
        if e.get("ph") != "X" or "dur" not in e:
            continue
        span = (ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), e["name"])
        if e.get("cat") == "cpu_op" or (e.get("cat") == "user_annotation" and
                                        not e["name"].startswith("ProfilerStep#")):
            holders[(e["pid"], e["tid"])].append(span)
        elif e.get("cat") == "python_function" and e["name"].startswith(MODULE_PREFIX):
            modules[(e["pid"], e["tid"])].append(span)

    memory = []
    negative = 0
    for e in events:
        if e.get("ph") not in ("i", "I") or e.get("name") != "[memory]":
            continue
        a = e.get("args", {})
        if a.get("Device Type") != 1:
            continue
        if a["Total Allocated"] < 0 or a.get("Total Reserved", 0) < 0:
            negative += 1
            continue
        memory.append({"pid": e["pid"], "tid": e["tid"], "ts": ns(e["ts"]), "device": a["Device Id"],
                       "addr": a.get("Addr", 0), "bytes": a["Bytes"],
                       "allocated": a["Total Allocated"], "reserved": a.get("Total Reserved", 0)})
    streams = defaultdict(list)  # (pid, device) -> events in time order (file order at a tie)
    for m in memory:
        streams[(m["pid"], m["device"])].append(m)
    for s in streams.values():
        s.sort(key=lambda m: m["ts"])

    def op_of(m):
        return innermost(holders[(m["pid"], m["tid"])], m["ts"])

    def module_of(m):
        name = innermost(modules[(m["pid"], m["tid"])], m["ts"])
        return name[len(MODULE_PREFIX):] if name else ""

    # The replay: every stream from its start; the live blocks after each event.
    unpaired = 0
    live_after = {}  # id(event) -> (holders list, live bytes)
    for key, stream in streams.items():
        live = {}
        for m in stream:
            if m["bytes"] > 0:
                live[m["addr"]] = (m["bytes"], op_of(m))
            elif m["bytes"] < 0:
                if m["addr"] in live:
                    del live[m["addr"]]
                else:
                    unpaired += 1
            live_after[id(m)] = dict(live)

    regions, whole = regions_of(events, glob)
    expected = []
    for name, pid, start, end in regions:
        per_device = []
        for (spid, device), stream in sorted(streams.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            if not whole and spid != pid:
                continue
            held = [m for m in stream if start <= m["ts"] <= end]
            if not held:
                continue
            peak = max(m["allocated"] for m in held)
            first = next(m for m in held if m["allocated"] == peak)
            by_op = defaultdict(lambda: [0, 0])
            for size, op in live_after[id(first)].values():
                by_op[op][0] += size
                by_op[op][1] += 1
            top = sorted(((op, b, n) for op, (b, n) in by_op.items() if b > 0),
                         key=lambda t: (-t[1], t[0]))[:TOP]
            live_bytes = sum(size for size, _ in live_after[id(first)].values())
            per_device.append({
                "device": device, "events": len(held), "peak_allocated_bytes": peak,
                "peak_at_us": (first["ts"] - start) / 1000.0, "peak_op": op_of(first) or None,
                "peak_module": module_of(first) or None,
                "at_start_bytes": held[0]["allocated"], "at_end_bytes": held[-1]["allocated"],
                "peak_reserved_bytes": max(m["reserved"] for m in held),
                "allocated_before_trace_bytes": max(0, peak - live_bytes),
                "top_allocators": [{"op": op or None, "bytes": b, "allocations": n}
                                   for op, b, n in top]})
        expected.append((name, per_device))
    return expected, unpaired, negative, memory


def main():
    attnprof, trace = sys.argv[1], sys.argv[2]
    glob = sys.argv[3] if len(sys.argv) > 3 else None
    expected, unpaired, negative, memory = expected_memory(trace, glob)
    command = [attnprof, "analyze", "--format", "json", trace]
    if glob:
        command += ["--region", glob]
    result = json.loads(subprocess.run(command, check=True, capture_output=True).stdout)
    got = result["traces"][0] if "traces" in result else result
    problems = []
    if len(got["regions"]) != len(expected):
        problems.append(f"{len(got['regions'])} regions, expected {len(expected)}")
    for (name, want), region in zip(expected, got["regions"]):
        have = region["memory"]
        if len(have) != len(want):
            problems.append(f"{name}: {len(have)} devices with memory, expected {len(want)}")
            continue
        for w, h in zip(want, have):
            for key, value in w.items():
                if key == "peak_at_us":
                    if abs(h[key] - value) > 1e-6:
                        problems.append(f"{name} device {w['device']}: {key} {h[key]}, expected {value}")
                elif h.get(key) != value:
                    problems.append(f"{name} device {w['device']}: {key} {h.get(key)!r}, expected {value!r}")
    warnings = got["warnings"]["by_kind"]
    if warnings.get("free_without_allocation", 0) != unpaired:
        problems.append(f"free_without_allocation {warnings.get('free_without_allocation', 0)}, "
                        f"expected {unpaired}")
    if warnings.get("negative_memory_total", 0) != negative:
        problems.append(f"negative_memory_total {warnings.get('negative_memory_total', 0)}, "
                        f"expected {negative}")
    if not memory and any(r["memory"] for r in got["regions"]):
        problems.append("memory figures for a trace without CUDA [memory] events")
    if problems:
        print("\n".join(problems[:40]))
        return 1
    devices = sum(len(w) for _, w in expected)
    print(f"{len(expected)} regions, {devices} region-devices, {len(memory)} CUDA [memory] events: "
          "all figures agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
