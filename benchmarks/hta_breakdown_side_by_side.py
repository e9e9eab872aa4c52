#!/usr/bin/python3
"""attnprof's time breakdown beside Holistic Trace Analysis's (HTA) on the same traces: HTA's
temporal breakdown (idle, compute, non-compute), its communication/computation overlap, and
attnprof's figures over the same window. A comparison for docs/BREAKDOWN.md, not a test.

usage: PYTHONPATH=HTA_CHECKOUT /usr/bin/python3 benchmarks/hta_breakdown_side_by_side.py ATTNPROF TRACE...

HTA keeps the GPU work whose launch starts before the last ProfilerStep (it drops the last step,
whose work may be cut off) and treats it as one window; with fewer than two steps it keeps all.
attnprof's figures here are over the same window: the sums of its per-step breakdowns for every
step but the last (a step's parts are disjoint in time from another step's unless their GPU work
overlaps), the span from the first kept activity's start to the last one's end; with fewer than
two steps, the whole trace's breakdown. Each trace is copied with a "distributedInfo" rank when
it has none, as HTA needs one (benchmarks/hta_side_by_side.sh does the same).
"""
import gzip
import json
import logging
import os
import subprocess
import sys
import tempfile

logging.disable(logging.WARNING)
from hta.trace_analysis import TraceAnalysis  # noqa: E402  (PYTHONPATH=HTA checkout)


def load(path):
    opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    with opener(path, "rt") as f:
        return json.load(f)


def hta_figures(trace):
    doc = load(trace)
    doc.setdefault("distributedInfo", {})["rank"] = 0
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "rank-0.json"), "w") as f:
            json.dump(doc, f, indent=1)  # HTA looks for '"rank": N' with a space
        a = TraceAnalysis(trace_dir=d)
        t = a.get_temporal_breakdown(visualize=False).iloc[0]
        try:
            o = a.get_comm_comp_overlap(visualize=False).iloc[0]["comp_comm_overlap_pctg"]
        except Exception:  # HTA divides by a zero communication time
            o = None
        return {"span": t["kernel_time(us)"], "idle": t["idle_time(us)"],
                "compute": t["compute_time(us)"], "non_compute": t["non_compute_time(us)"],
                "overlap": None if o is None or o != o else float(o)}


def attnprof_figures(attnprof, trace):
    out = subprocess.run([attnprof, "analyze", "--format", "json", trace], capture_output=True,
                         text=True, check=True)
    t = json.loads(out.stdout)["traces"][0]
    steps = [r for r in t["regions"] if r["name"].startswith("ProfilerStep")]
    if len(steps) < 2:
        b = t["time_breakdown"]
        return {"span": b["span_us"], "idle": b["idle_us"], "compute": b["compute_us"],
                "non_compute": b["communication_us"] + b["memory_us"],
                "overlap": t["communication_overlap_pct"], "window": "whole trace"}
    kept = steps[:-1]
    starts = [r["start_us"] + a["start_us"] for r in kept for a in r["activities"]]
    ends = [r["start_us"] + a["start_us"] + a["duration_us"] for r in kept for a in r["activities"]]
    span = max(ends) - min(starts)
    busy = sum(r["time_breakdown"]["busy_us"] for r in kept)
    comm = [r for r in kept if r["communication_overlap_pct"] is not None]
    comm_union = sum(r["time_breakdown"]["communication_us"] / (1 - r["communication_overlap_pct"] / 100)
                     if r["communication_overlap_pct"] < 100 else 0 for r in comm)
    overlap_us = sum(r["time_breakdown"]["communication_us"] * (r["communication_overlap_pct"] / 100) /
                     (1 - r["communication_overlap_pct"] / 100)
                     if r["communication_overlap_pct"] < 100 else 0 for r in comm)
    return {"span": span, "idle": span - busy,
            "compute": sum(r["time_breakdown"]["compute_us"] for r in kept),
            "non_compute": sum(r["time_breakdown"]["communication_us"] +
                               r["time_breakdown"]["memory_us"] for r in kept),
            "overlap": 100 * overlap_us / comm_union if comm_union else None,
            "window": f"{len(kept)} of {len(steps)} steps"}


def main():
    attnprof = sys.argv[1]
    print("| trace | window | | span µs | idle µs | compute µs | non-compute µs | overlap % |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for trace in sys.argv[2:]:
        h, a = hta_figures(trace), attnprof_figures(attnprof, trace)
        fmt = lambda v: "-" if v is None else f"{v:.2f}" if isinstance(v, float) and v != int(v) else f"{v:.0f}"
        for who, f in (("HTA", h), ("attnprof", a)):
            print(f"| {os.path.basename(trace)} | {a['window']} | {who} | {fmt(f['span'])} | "
                  f"{fmt(f['idle'])} | {fmt(f['compute'])} | {fmt(f['non_compute'])} | "
                  f"{fmt(f['overlap'])} |")


if __name__ == "__main__":
    main()
