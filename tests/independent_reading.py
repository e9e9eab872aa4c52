#!/usr/bin/env python3
"""An independent reading of a trace, to check attnprof's numbers against (ctest runs it).

It shares no code with attnprof: Python's json module reads the whole file, and the rules are
written out again from the Kineto format: a GPU activity belongs to a region when the runtime
call with its correlation id starts inside the region's span in the same process. Work whose
correlation id names no call in the trace belongs to no annotation (it was launched before the
profiler's window opened, or its call was cut away), unless its op ("External id") is there;
work without a correlation id at all (MTIA's DMA transfers) is placed by its own time. The whole
trace, as a region, holds all the work, and its wall time is the span of its timed events.

The time breakdown (docs/BREAKDOWN.md) of each region and of the whole trace is worked out here by
another method than attnprof's: a sweep over every start and end that counts, between two of
them, how many compute kernels, communication kernels (a name with nccl, rccl or hccl) and copies
or memsets run; each stretch goes to the first kind running of compute, communication, memory,
or to idle. It must agree within 0.1 % of the span. So must each stream's idle time by cause:
each gap between a stream's activities is the host's when the activity's launch call started after
the stream went idle, a kernel gap when shorter than 30 µs, and other otherwise.

usage: independent_reading.py ATTNPROF TRACE [REGION_GLOB]
Exits 1 and prints the differences when attnprof disagrees.
"""
import fnmatch
import gzip
import json
import subprocess
import sys
from decimal import Decimal


def load(path):
    with open(path, "rb") as f:
        head = f.read(2)
    opener = gzip.open if head == b"\x1f\x8b" else open
    with opener(path, "rt") as f:
        return json.load(f, parse_float=Decimal)


def ns(value):
    return int((Decimal(value) * 1000).to_integral_value())


# Category spellings by what they are, from every Kineto version since PyTorch 1.8 (written out
# here again from the format, not from attnprof's catalog).
GPU_KINDS = {"kernel": "kernels", "Kernel": "kernels", "gpu_memcpy": "memcpy", "Memcpy": "memcpy",
             "gpu_memset": "memset", "Memset": "memset"}
# Host-side calls that put work on a device, by libkineto's ActivityType names (ActivityType.h).
LAUNCHES = {"cuda_runtime", "cuda_driver", "Runtime", "mtia_runtime", "xpu_runtime", "xpu_driver",
            "privateuse1_runtime", "privateuse1_driver", "hpu_op", "glow_runtime"}
LEGACY_OP = "Operator"  # PyTorch 1.8-1.9: every CPU event, ProfilerStep#N included
# Timed events that are not the program's: the profiler's own span, counters and samples.
NOT_EVENTS = {"Trace", "cuda_event", "mtia_insight", "mtia_counters", "hardware_counters",
              "xpu_scope_profiler", "collective_comm", "external_correlation"}


def gpu_kind(event):
    """kernels, memcpy or memset for GPU work; None for anything else. MTIA writes all its device
    events as mtia_ccp_events: its DMA transfers are copies and its event waits and records are
    not work (HTA's grouping, hta/common/types.py)."""
    cat = event.get("cat")
    if cat in GPU_KINDS:
        return GPU_KINDS[cat]
    if cat == "mtia_ccp_events":
        name = event.get("name", "")
        if "dma" in name:
            return "memcpy"
        return None if name in ("event_wait", "event_record") else "kernels"
    return None


def read_regions(doc, pattern):
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    complete = [e for e in events if isinstance(e, dict) and e.get("ph") == "X"]
    annotations = [e for e in complete if e.get("cat") == "user_annotation" or
                  (e.get("cat") == LEGACY_OP and e["name"].startswith("ProfilerStep#"))]
    if pattern is None:
        steps = [a for a in annotations if fnmatch.fnmatchcase(a["name"], "ProfilerStep#*")]
        pattern = "ProfilerStep#*" if steps else ""
    whole = not pattern
    if whole:
        timed = [e for e in complete if e.get("cat") and e.get("cat") not in NOT_EVENTS]
        regions = [("(whole trace)", 0, min(ns(e["ts"]) for e in timed),
                    max(ns(e["ts"]) + ns(e["dur"]) for e in timed))] if timed else []
    else:
        matching = [a for a in annotations if fnmatch.fnmatchcase(a["name"], pattern)]
        if not matching:  # a scope of PyTorch 1.8-1.9 is an "Operator" like the ops
            matching = [e for e in complete
                        if e.get("cat") == LEGACY_OP and fnmatch.fnmatchcase(e["name"], pattern)]
        regions = sorted(((a["name"], a["pid"], ns(a["ts"]), ns(a["ts"]) + ns(a["dur"]))
                          for a in matching), key=lambda r: r[2])
    launches = {}
    for e in complete:
        if e.get("cat") in LAUNCHES and "correlation" in e.get("args", {}):
            launches.setdefault(e["args"]["correlation"], []).append(e)

    def launch_of(activity):
        # Ids repeat across merged ranks or restarted sessions: GPU work follows its launch, so
        # the launch is the last with its id to start at or before it.
        candidates = sorted(launches.get(activity["args"].get("correlation"), []),
                            key=lambda e: ns(e["ts"]))
        before = [c for c in candidates if ns(c["ts"]) <= ns(activity["ts"])]
        return before[-1] if before else (candidates[0] if candidates else None)

    ops = {}
    for e in complete:
        if e.get("cat") in ("cpu_op", LEGACY_OP) and e.get("args", {}).get("External id"):
            ops.setdefault(e["args"]["External id"], e)

    def anchor_of(activity, launch):
        """The host event whose start and process place the activity, None for no region, or
        "time" when only the activity's own time can place it."""
        if launch is not None:
            return launch
        args = activity.get("args", {})
        if "correlation" not in args:
            return "time"
        external = args.get("External id", args.get("external id"))
        if external and external != args["correlation"]:
            return ops.get(external)
        return None

    gpu = [(e, anchor_of(e, launch_of(e))) for e in complete if gpu_kind(e)]
    first_launch = min(launches) if launches else None
    placed = set()
    out = []
    for name, pid, start, end in regions:
        counts = {"kernels": 0, "memcpy": 0, "memset": 0}
        intervals, members = [], []
        for i, (e, anchor) in enumerate(gpu):
            if whole:
                inside = True
            elif anchor is None:
                inside = False
            elif anchor == "time":
                inside = start <= ns(e["ts"]) < end
            else:
                inside = anchor["pid"] == pid and start <= ns(anchor["ts"]) < end
            if not inside:
                continue
            placed.add(i)
            counts[gpu_kind(e)] += 1
            members.append((e, anchor))
            intervals.append((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])))
        # members: the region's GPU work with its launch, for independent_top_tables.py.
        out.append({"name": name, "pid": pid, **counts, "gpu_busy_ns": union(intervals),
                    "wall_ns": end - start, "breakdown": breakdown([e for e, _ in members]),
                    "idle_by_stream": idle_by_stream(members), "start_ns": start, "end_ns": end,
                    "whole": whole, "members": members})
    outside = [e for i, (e, _) in enumerate(gpu) if i not in placed]
    carried = [e for e, anchor in gpu if anchor is None and first_launch is not None and
               e["args"]["correlation"] < first_launch]
    if whole:
        carried = []
    return out, breakdown([e for e, _ in gpu]), {"trace_activities": len(gpu), "activities": len(outside),
                 "gpu_busy_ns": union([(ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])) for e in outside]),
                 "carried_in": len(carried),
                 "carried_in_busy_ns": union([(ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]))
                                              for e in carried])}


def work_kind(event):
    if gpu_kind(event) != "kernels":
        return "memory"
    name = event.get("name", "").lower()
    return "communication" if any(k in name for k in ("nccl", "rccl", "hccl")) else "compute"


def breakdown(events):
    """span, busy, idle, compute, communication, memory (ns) and the communication overlap %."""
    kinds = ("compute", "communication", "memory")
    edges = []
    for e in events:
        s, t = ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])
        edges += [(s, work_kind(e), 1), (t, work_kind(e), -1)]
    edges.sort(key=lambda x: x[0])
    running = dict.fromkeys(kinds, 0)
    out = dict.fromkeys(("span", "busy", "idle", "compute", "communication", "memory"), 0)
    comm_all = comm_with_compute = 0
    for (here, kind, step), (there, _, _) in zip(edges, edges[1:] + [edges[-1]] if edges else []):
        running[kind] += step
        length = there - here
        if length <= 0:
            continue
        first = next((k for k in kinds if running[k] > 0), "idle")
        out[first] += length
        if running["communication"] > 0:
            comm_all += length
            comm_with_compute += length if running["compute"] > 0 else 0
    if edges:
        out["span"] = edges[-1][0] - edges[0][0]
    out["busy"] = out["compute"] + out["communication"] + out["memory"]
    out["overlap_pct"] = 100.0 * comm_with_compute / comm_all if comm_all else None
    return out


def idle_by_stream(work):
    """{stream: (host_wait, kernel_gap, other)} in ns; `work` is (activity, launch or other)."""
    by_stream = {}
    for e, launch in work:
        by_stream.setdefault(e.get("args", {}).get("stream", 0), []).append((e, launch))
    out = {}
    for stream, items in by_stream.items():
        items.sort(key=lambda x: ns(x[0]["ts"]))
        causes = [0, 0, 0]
        idle_from = None
        for e, launch in items:
            start, end = ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])
            if idle_from is not None and start > idle_from:
                called = ns(launch["ts"]) if isinstance(launch, dict) else None
                if called is not None and called > idle_from:
                    causes[0] += start - idle_from
                elif start - idle_from < 30000:
                    causes[1] += start - idle_from
                else:
                    causes[2] += start - idle_from
            idle_from = end if idle_from is None else max(idle_from, end)
        out[stream] = tuple(causes)
    return out


def breakdown_problems(where, theirs, overlap, mine):
    """attnprof's time_breakdown (µs) and communication_overlap_pct against ours."""
    problems = []
    tolerance = max(1, mine["span"] // 1000)  # 0.1 % of the span, in ns
    for key in ("span", "busy", "idle", "compute", "communication", "memory"):
        got = round(theirs[key + "_us"] * 1000)
        if abs(got - mine[key]) > tolerance:
            problems.append(f"{where}: {key} {got} ns != {mine[key]} ns")
    parts = sum(theirs[k + "_us"] for k in ("compute", "communication", "memory"))
    if abs(parts - theirs["busy_us"]) > 1e-6 * max(1.0, theirs["busy_us"]):
        problems.append(f"{where}: compute + communication + memory {parts} != busy")
    if (overlap is None) != (mine["overlap_pct"] is None) or (
            overlap is not None and abs(overlap - mine["overlap_pct"]) > 0.1):
        problems.append(f"{where}: communication overlap {overlap} != {mine['overlap_pct']}")
    return problems


def union(intervals):
    busy, cur_start, cur_end = 0, None, None
    for s, t in sorted(intervals):
        if cur_end is None or s > cur_end:
            if cur_end is not None:
                busy += cur_end - cur_start
            cur_start, cur_end = s, t
        else:
            cur_end = max(cur_end, t)
    if cur_end is not None:
        busy += cur_end - cur_start
    return busy


def main():
    attnprof, trace = sys.argv[1], sys.argv[2]
    pattern = sys.argv[3] if len(sys.argv) > 3 else None
    expected, whole_breakdown, outside = read_regions(load(trace), pattern)
    cmd = [attnprof, "analyze", "--format", "json", trace] + (["--region", pattern] if pattern else [])
    run = subprocess.run(cmd, capture_output=True, text=True)
    if expected == []:
        # A pattern that matches nothing is bad input in every command (docs/SECURITY.md).
        agree = run.returncode == 2 and "no region matches" in run.stderr
        print(f"{trace} [{pattern}]: no region, exit {run.returncode}: "
              f"{'AGREE' if agree else 'DISAGREE'}")
        return 0 if agree else 1
    if run.returncode != 0:
        print(run.stderr)
        return 1
    got = json.loads(run.stdout)
    regions = got["traces"][0]["regions"]
    problems = []
    theirs = got["traces"][0]["outside_regions"]
    mine = {"trace_activities": theirs["trace_activities"], "activities": theirs["activities"],
            "gpu_busy_ns": round(theirs["gpu_busy_us"] * 1000),
            "carried_in": theirs["carried_in"]["activities"],
            "carried_in_busy_ns": round(theirs["carried_in"]["gpu_busy_us"] * 1000)}
    for key, value in outside.items():
        if mine[key] != value:
            problems.append(f"outside regions: {key} {mine[key]} != {value}")
    problems += breakdown_problems("the trace", got["traces"][0]["time_breakdown"],
                                   got["traces"][0]["communication_overlap_pct"], whole_breakdown)
    if len(regions) != len(expected):
        problems.append(f"{len(regions)} regions, expected {len(expected)}")
    for r, e in zip(regions, expected):
        for key in ("name", "pid", "kernels", "memcpy", "memset"):
            if r[key] != e[key]:
                problems.append(f"{e['name']}: {key} {r[key]} != {e[key]}")
        for key in ("gpu_busy", "wall"):
            mine, theirs = round(r[key + "_us"] * 1000), e[key + "_ns"]
            if mine != theirs:
                problems.append(f"{e['name']}: {key} {mine} ns != {theirs} ns")
        problems += breakdown_problems(e["name"], r["time_breakdown"],
                                       r["communication_overlap_pct"], e["breakdown"])
        theirs = {s["stream"]: tuple(round(s[k] * 1000) for k in
                                    ("host_wait_us", "kernel_gap_us", "other_us"))
                  for s in r["idle_by_stream"]}
        if theirs != e["idle_by_stream"]:
            problems.append(f"{e['name']}: idle by stream {theirs} != {e['idle_by_stream']}")
    for p in problems:
        print(p)
    print(f"{trace} [{pattern or 'default'}]: {len(expected)} regions, "
          f"{'AGREE' if not problems else 'DISAGREE'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
