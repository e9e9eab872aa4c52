#!/usr/bin/env python3
"""Writes the fixtures of tests/data/odd from the real H200 traces in tests/data.

Each fixture imitates one older Kineto version or one oddity of real traces, on events cut from
study_naive.json.gz so that their structure (ops, launches, kernels, copies, flows, nesting) is
real; tests/data/README.md says which version or case each imitates and where the format was
learned (pytorch/kineto's libkineto/src/output_json.cpp and ActivityType.cpp, by commit date).
Deterministic: running it again writes the same bytes.

usage: make_odd_fixtures.py   (writes next to itself)
"""
import copy
import gzip
import json
import math
import pathlib
import random
import re
from decimal import Decimal

HERE = pathlib.Path(__file__).resolve().parent
DATA = HERE.parent

GPU_CATS = ("kernel", "gpu_memcpy", "gpu_memset")
LAUNCH_CATS = ("cuda_runtime", "cuda_driver")
# Args of cpu_op events that the fixtures drop to stay small (attnprof reads none of them).
HEAVY_ARGS = ("Concrete Inputs", "Input Strides", "Input type", "Record function id", "Ev Idx")


def load(name):
    with gzip.open(DATA / name, "rt") as f:
        return json.load(f, parse_float=Decimal)


def steps(doc, names):
    """The events of the named ProfilerSteps: CPU events of the main process inside their spans,
    the GPU work those launches started, its flows and GPU annotations, and the metadata."""
    events = doc["traceEvents"]
    spans = [(e["ts"], e["ts"] + e["dur"]) for e in events
             if e.get("cat") == "user_annotation" and e["name"] in names]
    pid = next(e["pid"] for e in events if e.get("cat") == "user_annotation")

    def inside(e):
        return e.get("pid") == pid and any(a <= e["ts"] < b for a, b in spans)

    cpu = [e for e in events if e.get("ph") == "X" and e.get("cat") in
           ("cpu_op", "user_annotation") + LAUNCH_CATS and inside(e)]
    correlations = {e["args"]["correlation"] for e in cpu if e["cat"] in LAUNCH_CATS}
    annotations = {e["args"]["External id"] for e in cpu if e["cat"] == "user_annotation"}
    out = []
    for e in events:
        cat, args = e.get("cat"), e.get("args", {})
        keep = (e in cpu
                or (cat in GPU_CATS and args.get("correlation") in correlations)
                or (cat == "gpu_user_annotation" and args.get("External id") in annotations)
                or (cat == "ac2g" and e["id"] in correlations)
                or (e.get("ph") == "M" and e["name"] in ("process_name", "thread_name")
                    and e["pid"] in (pid, 0))
                or cat == "Trace")
        if keep:
            e = copy.deepcopy(e)
            for key in HEAVY_ARGS:
                e.get("args", {}).pop(key, None)
            out.append(e)
    return out


def dumps(value):
    """JSON with each number as the trace wrote it (Decimals keep their digits)."""
    def mark(v):
        if isinstance(v, Decimal):
            return f"@@{v}@@"
        if isinstance(v, list):
            return [mark(x) for x in v]
        if isinstance(v, dict):
            return {k: mark(x) for k, x in v.items()}
        return v
    return re.sub(r'"@@([^"@]*)@@"', r"\1", json.dumps(mark(value)))


def write(name, head, events, tail=None):
    """Kineto's layout: one event per line. `head`/`tail`: top-level members before and after
    traceEvents; head None writes a bare array."""
    body = ",\n".join(dumps(e) for e in events)
    if head is None:
        text = "[\n" + body + "\n]\n"
    else:
        members = [f'"{k}": {dumps(v)}' for k, v in head.items()]
        members.append('"traceEvents": [\n' + body + "\n]")
        members += [f'"{k}": {dumps(v)}' for k, v in (tail or {}).items()]
        text = "{\n" + ",\n".join(members) + "\n}\n"
    (HERE / name).write_text(text)


def whole_microseconds(events, base_ns):
    """Before 2024-03 Kineto wrote ts as whole microseconds of the absolute clock: each event's
    start and end are cut to the microsecond, so nesting stays as it was."""
    base_us = Decimal(base_ns) / 1000
    for e in events:
        if "ts" not in e:
            continue
        start = base_us + Decimal(e["ts"])
        e["ts"] = math.floor(start)
        if "dur" in e:
            e["dur"] = math.floor(start + Decimal(e["dur"])) - e["ts"]


# --- PyTorch 1.8 (libkineto 2020-12 to 2021-04) -------------------------------------------------

def pytorch_1_8(doc):
    """A bare array; every CPU event is "Operator" (steps and record_function scopes too); runtime
    calls "Runtime", GPU work "Kernel"/"Memcpy"/"Memset" on tid "stream N"; CPU tids as strings;
    the External id of runtime calls and GPU work written "external id"; launch flows "async"
    named "launch"; no deviceProperties, no GPU annotations, whole microseconds."""
    events = steps(doc, ["ProfilerStep#3"])
    whole_microseconds(events, doc["baseTimeNanoseconds"])
    out = []
    for e in events:
        cat, args = e.get("cat"), e.get("args", {})
        if cat in ("cpu_op", "user_annotation"):
            e["cat"] = "Operator"
            e["tid"] = str(e["tid"])
            e["args"] = {"Input dims": args.get("Input Dims", []), "Device": 0,
                         "External id": args["External id"], "Trace name": "PyTorch Profiler",
                         "Trace iteration": 0}
        elif cat in LAUNCH_CATS:
            e["cat"] = "Runtime"  # no driver API yet: cuLaunchKernelEx shows as a runtime call
            e["tid"] = str(e["tid"])
            e["args"] = {"cbid": args["cbid"], "correlation": args["correlation"],
                         "external id": args.get("External id", 0), "external ts": e["ts"]}
        elif cat in GPU_CATS:
            e["cat"] = {"kernel": "Kernel", "gpu_memcpy": "Memcpy", "gpu_memset": "Memset"}[cat]
            e["tid"] = f"stream {e['tid']}"
            kept = {"queued": 0, "device": args["device"], "context": args["context"],
                    "stream": args["stream"], "correlation": args["correlation"],
                    "external id": args["External id"]}
            for key in ("registers per thread", "shared memory", "warps per SM", "grid", "block",
                        "bytes", "memory bandwidth (GB/s)"):
                if key in args:
                    kept[key] = args[key]
            e["args"] = kept
        elif cat == "ac2g":
            e["cat"], e["name"] = "async", "launch"
            if e["ph"] == "f":
                e["tid"] = f"stream {e['tid']}"
        elif cat == "gpu_user_annotation":
            continue  # GPU annotations came in 2021-04
        elif e.get("ph") == "M" and e["name"] == "thread_name":
            e["tid"] = str(e["tid"])
        out.append(e)
    write("pytorch_1_8.json", None, out)


# --- PyTorch 1.11 (libkineto 2021-11 to 2022-04) ------------------------------------------------

def pytorch_1_11(doc):
    """cpu_op, user_annotation, cuda_runtime; GPU work still "Kernel"/"Memcpy"/"Memset", without
    any External id; GPU annotations "gpu_user_Annotation"; launch flows "async_cpu_to_gpu" named
    "async_gpu", both ends with "bp"; whole microseconds; deviceProperties before traceEvents."""
    events = steps(doc, ["ProfilerStep#3"])
    whole_microseconds(events, doc["baseTimeNanoseconds"])
    for e in events:
        cat, args = e.get("cat"), e.get("args", {})
        if cat in GPU_CATS:
            e["cat"] = {"kernel": "Kernel", "gpu_memcpy": "Memcpy", "gpu_memset": "Memset"}[cat]
            args.pop("External id", None)
        elif cat == "cuda_driver":
            e["cat"] = "cuda_runtime"
        elif cat == "gpu_user_annotation":
            e["cat"] = "gpu_user_Annotation"
        elif cat == "ac2g":
            e["cat"], e["name"], e["bp"] = "async_cpu_to_gpu", "async_gpu", "e"
    write("pytorch_1_11.json",
          {"schemaVersion": 1, "deviceProperties": doc["deviceProperties"]}, events)


# --- PyTorch 1.12 to 2.2 (libkineto 2022-10 to 2024-02) -----------------------------------------

def pytorch_2_1(doc):
    """Today's spellings and ac2g flows, whole microseconds, no baseTimeNanoseconds; runtime calls
    and GPU work carry their own correlation id as "External id" (kineto#843, fixed by #873 in
    2024-02). One copy's runtime call is left out (as when CUPTI's buffer drops it): an op whose
    External id equals that copy's correlation id sits in the other step."""
    events = steps(doc, ["ProfilerStep#2", "ProfilerStep#4"])
    whole_microseconds(events, doc["baseTimeNanoseconds"])
    dropped = 117  # the DtoD copy of ProfilerStep#2: cudaMemcpyAsync
    assert any(e.get("cat") == "cpu_op" and e["args"].get("External id") == dropped
               for e in events), "the stranger op must exist for the case to mean anything"
    out = []
    for e in events:
        cat, args = e.get("cat"), e.get("args", {})
        if cat in LAUNCH_CATS + GPU_CATS:
            args["External id"] = args["correlation"]
            if cat in LAUNCH_CATS and args["correlation"] == dropped:
                continue
        if cat == "ac2g" and e["id"] == dropped and e["ph"] == "s":
            continue
        out.append(e)
    write("pytorch_2_1.json",
          {"schemaVersion": 1, "deviceProperties": doc["deviceProperties"]}, out,
          {"traceName": "pytorch_2_1.json"})


# --- Two ranks in one file ----------------------------------------------------------------------

def two_ranks(doc):
    """The traces of ranks 0 and 1 merged into one file, as users do to view ranks side by side:
    rank 1 is rank 0's ProfilerStep#3 and #4 in process 5207, on GPU 1, 41.7 us later. CUPTI
    numbers each process's calls from 1: rank 1's correlation ids run 80 ahead, so its step 3
    uses exactly the ids of rank 0's step 4."""
    rank0 = steps(doc, ["ProfilerStep#3", "ProfilerStep#4"])
    rank1 = []
    shift = Decimal("41.700")
    for e in copy.deepcopy(rank0):
        cat, args = e.get("cat"), e.get("args", {})
        if e.get("ph") == "M" and e["pid"] == 0 or cat in GPU_CATS + ("gpu_user_annotation",):
            e["pid"] = 1
            if "device" in args:
                args["device"] = 1
        elif e.get("pid") == 469:
            e["pid"] = 5207
            if e.get("tid") == 469:
                e["tid"] = 5207
        if cat == "ac2g":
            e["id"] += 80
            e["pid"] = 1 if e["ph"] == "f" else 5207
        if "correlation" in args:
            args["correlation"] += 80
        if cat == "Trace":
            continue
        if "ts" in e and e.get("ph") != "M":
            e["ts"] = Decimal(e["ts"]) + shift
        rank1.append(e)
    devices = doc["deviceProperties"]
    second = copy.deepcopy(devices[0])
    second["id"] = 1
    write("two_ranks.json",
          {"schemaVersion": 1, "deviceProperties": devices + [second],
           "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 2}},
          rank0 + rank1, {"baseTimeNanoseconds": doc["baseTimeNanoseconds"]})


# --- Events out of time order -------------------------------------------------------------------

def unsorted(doc):
    """Two steps with the events in a shuffled order (a file rewritten by a tool, or concatenated
    from several buffers): nothing in the Trace Event Format asks for sorted events."""
    events = steps(doc, ["ProfilerStep#2", "ProfilerStep#3"])
    random.Random(6).shuffle(events)
    write("unsorted.json", {"schemaVersion": 1, "deviceProperties": doc["deviceProperties"]},
          events, {"baseTimeNanoseconds": doc["baseTimeNanoseconds"]})


# --- Correlation ids that restart ---------------------------------------------------------------

def restarted_ids(doc):
    """Two profiling sessions of one process in one file, each numbering its correlation and
    External ids afresh: ProfilerStep#3, then the same step again 50 ms later with the same ids."""
    first = steps(doc, ["ProfilerStep#3"])
    second = []
    for e in copy.deepcopy(first):
        if e.get("ph") == "M" or e.get("cat") == "Trace":
            continue
        e["ts"] = Decimal(e["ts"]) + Decimal("50000.000")
        second.append(e)
    write("restarted_ids.json",
          {"schemaVersion": 1, "deviceProperties": doc["deviceProperties"]},
          first + second, {"baseTimeNanoseconds": doc["baseTimeNanoseconds"]})


# --- GPU clock behind the CPU clock -------------------------------------------------------------

def clock_skew(doc):
    """A step whose GPU timeline (kernels, copies, memsets, GPU annotations, the flows' GPU ends)
    is 3 ms early against the CPU's, as when CUPTI's clock is converted badly: every GPU activity
    starts before the call that launched it."""
    events = steps(doc, ["ProfilerStep#3"])
    for e in events:
        if e.get("cat") in GPU_CATS + ("gpu_user_annotation",) or (
                e.get("cat") == "ac2g" and e["ph"] == "f"):
            e["ts"] = Decimal(e["ts"]) - Decimal("3000.000")
    write("clock_skew.json",
          {"schemaVersion": 1, "deviceProperties": doc["deviceProperties"]},
          events, {"baseTimeNanoseconds": doc["baseTimeNanoseconds"]})


# --- [memory] events that do not add up ----------------------------------------------------------

def memory_oddities(doc):
    """ProfilerStep#3 with its [memory] events (profile_memory=True), three of them spoilt: the
    first CUDA allocation is dropped (its free is then a free without allocation), the second has
    a negative "Total Allocated" (as a broken writer might give), and the step's memset runs on
    device 1, which has no [memory] event. The peak, read from the totals of the rest, stays the
    step's."""
    events = steps(doc, ["ProfilerStep#3"])
    step = next(e for e in events if e.get("name") == "ProfilerStep#3")
    start, end = Decimal(step["ts"]), Decimal(step["ts"]) + Decimal(step["dur"])
    memory = [copy.deepcopy(e) for e in doc["traceEvents"]
              if e.get("name") == "[memory]" and start <= Decimal(e["ts"]) <= end]
    cuda = [e for e in memory if e["args"]["Device Type"] == 1]
    allocations = [e for e in cuda if e["args"]["Bytes"] > 0]
    memory.remove(allocations[0])
    allocations[1]["args"]["Total Allocated"] = -8
    for e in memory:
        e["args"].pop("Ev Idx", None)
    for e in events:
        if e.get("cat") == "gpu_memset":
            e["pid"] = 1
            e["args"]["device"] = 1
    write("memory_oddities.json",
          {"schemaVersion": 1, "deviceProperties": doc["deviceProperties"]},
          events + memory, {"baseTimeNanoseconds": doc["baseTimeNanoseconds"]})


def main():
    doc = load("study_naive.json.gz")
    for make in (pytorch_1_8, pytorch_1_11, pytorch_2_1, two_ranks, unsorted, restarted_ids,
                 clock_skew, memory_oddities):
        make(copy.deepcopy(doc))


if __name__ == "__main__":
    main()
