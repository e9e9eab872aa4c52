#!/usr/bin/python3
"""attnprof's critical path beside Holistic Trace Analysis's (HTA) on the same regions: HTA's
critical_path_analysis (hta/analyzers/critical_path_analysis.py) and its summary by bound, and
attnprof's length and categories. A comparison for docs/CRITICAL_PATH.md, not a test.

usage: PYTHONPATH=HTA_CHECKOUT /usr/bin/python3 benchmarks/hta_critical_path_side_by_side.py \
           ATTNPROF TRACE[@ANNOTATION[@INSTANCE]]...

ANNOTATION is what HTA matches (a substring: "ProfilerStep" matches every ProfilerStep#N, and
INSTANCE, 0 by default, picks one of them in order; HTA leaves out the trace's last
ProfilerStep); attnprof is given the instance's own name as
--region. An empty ANNOTATION ("TRACE@") is the whole trace for both. Each trace is copied with
a "distributedInfo" rank when it has none, as HTA needs one, and without its GPU user
annotations (gpu_user_annotation), which HTA would take for the region (hta_figures says why). HTA's categories are the sums of
the weights of its path's edges by bound_by: cpu_bound, gpu_compute_bound,
gpu_communication_bound, gpu_kernel_launch_overhead, gpu_kernel_kernel_overhead (dependency
edges weigh 0). HTA needs networkx (Debian's python3-networkx) and pandas.
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


def instance_name(doc, annotation, instance):
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    names = sorted((e["ts"], e["name"]) for e in events
                   if e.get("ph") == "X" and e.get("cat") == "user_annotation" and
                   annotation in e.get("name", ""))
    return names[instance][1]


def hta_figures(trace, annotation, instance):
    doc = load(trace)
    if isinstance(doc, list):
        doc = {"traceEvents": doc}
    doc.setdefault("distributedInfo", {})["rank"] = 0
    # HTA picks its window among every event whose name holds the annotation, by position: the
    # GPU's copy of each ProfilerStep#N (gpu_user_annotation) would take the place of the CPU's
    # (its span is the GPU work's, not the step's). The critical path does not read them.
    doc["traceEvents"] = [e for e in doc["traceEvents"]
                          if not (isinstance(e, dict) and e.get("cat") == "gpu_user_annotation")]
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "rank-0.json"), "w") as f:
            json.dump(doc, f, indent=1)  # HTA looks for '"rank": N' with a space
        a = TraceAnalysis(trace_dir=d)
        graph, ok = a.critical_path_analysis(rank=0, annotation=annotation,
                                             instance_id=None if not annotation else instance)
        if not ok:
            return None
        edges = graph.get_critical_path_breakdown()
        by = edges.groupby("bound_by").duration.sum().to_dict()
        return {"length": float(edges.duration.sum()), **{k: float(v) for k, v in by.items() if k}}


def attnprof_figures(attnprof, trace, region):
    cmd = [attnprof, "analyze", "--format", "json", trace] + (["--region", region] if region else [])
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    regions = json.loads(out.stdout)["traces"][0]["regions"]
    p = regions[0]["critical_path"]
    return {"length": p["length_us"], "wall": regions[0]["wall_us"], **p["categories"],
            "bound_by": p["bound_by"]}


def main():
    attnprof = sys.argv[1]
    for spec in sys.argv[2:]:
        parts = spec.split("@")
        trace = parts[0]
        annotation = parts[1] if len(parts) > 1 else "ProfilerStep"
        instance = int(parts[2]) if len(parts) > 2 else 0
        region = instance_name(load(trace), annotation, instance) if annotation else ""
        hta = hta_figures(trace, annotation, instance)
        ours = attnprof_figures(attnprof, trace, region)
        print(f"{os.path.basename(trace)} [{region or 'whole trace'}]")
        print("  attnprof: " + ", ".join(f"{k} {v:.1f}" if isinstance(v, float) else f"{k} {v}"
                                         for k, v in ours.items() if v))
        print("  HTA:      " + (", ".join(f"{k} {v:.1f}" for k, v in hta.items())
                                if hta else "no path"))


if __name__ == "__main__":
    main()
