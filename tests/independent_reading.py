#!/usr/bin/env python3
"""An independent reading of a trace, to check attnprof's numbers against (ctest runs it).

It shares no code with attnprof: Python's json module reads the whole file, and the rules are
written out again from the Kineto format: a GPU activity belongs to a region when the runtime
call with its correlation id starts inside the region's span in the same process.

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
LAUNCHES = {"cuda_runtime", "cuda_driver", "Runtime"}
LEGACY_OP = "Operator"  # PyTorch 1.8-1.9: every CPU event, ProfilerStep#N included


def read_regions(doc, pattern):
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    complete = [e for e in events if isinstance(e, dict) and e.get("ph") == "X"]
    annotations = [e for e in complete if e.get("cat") == "user_annotation" or
                   (e.get("cat") == LEGACY_OP and e["name"].startswith("ProfilerStep#"))]
    if pattern is None:
        steps = [a for a in annotations if fnmatch.fnmatchcase(a["name"], "ProfilerStep#*")]
        pattern = "ProfilerStep#*" if steps else ""
    if not pattern:
        return None
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

    gpu = [(e, launch_of(e)) for e in complete if e.get("cat") in GPU_KINDS]
    out = []
    for name, pid, start, end in regions:
        counts = {"kernels": 0, "memcpy": 0, "memset": 0}
        intervals = []
        for e, launch in gpu:
            if launch is not None:
                inside = launch["pid"] == pid and start <= ns(launch["ts"]) < end
            else:  # no launch in the trace: the activity's own time places it
                inside = start <= ns(e["ts"]) < end
            if not inside:
                continue
            counts[GPU_KINDS[e["cat"]]] += 1
            intervals.append((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])))
        intervals.sort()
        busy, cur_start, cur_end = 0, None, None
        for s, t in intervals:
            if cur_end is None or s > cur_end:
                if cur_end is not None:
                    busy += cur_end - cur_start
                cur_start, cur_end = s, t
            else:
                cur_end = max(cur_end, t)
        if cur_end is not None:
            busy += cur_end - cur_start
        out.append({"name": name, "pid": pid, **counts, "gpu_busy_ns": busy,
                    "wall_ns": end - start})
    return out


def main():
    attnprof, trace = sys.argv[1], sys.argv[2]
    pattern = sys.argv[3] if len(sys.argv) > 3 else None
    expected = read_regions(load(trace), pattern)
    cmd = [attnprof, "analyze", "--format", "json", trace] + (["--region", pattern] if pattern else [])
    run = subprocess.run(cmd, capture_output=True, text=True)
    if expected == []:
        # A pattern that matches nothing is bad input in every command (issue 12).
        agree = run.returncode == 2 and "no region matches" in run.stderr
        print(f"{trace} [{pattern}]: no region, exit {run.returncode}: "
              f"{'AGREE' if agree else 'DISAGREE'}")
        return 0 if agree else 1
    if run.returncode != 0:
        print(run.stderr)
        return 1
    got = json.loads(run.stdout)
    regions = got["traces"][0]["regions"]
    if expected is None:
        print(f"{trace}: whole-trace region, nothing to compare")
        return 0
    problems = []
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
    for p in problems:
        print(p)
    print(f"{trace} [{pattern or 'default'}]: {len(expected)} regions, "
          f"{'AGREE' if not problems else 'DISAGREE'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
