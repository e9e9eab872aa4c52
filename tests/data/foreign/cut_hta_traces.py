#!/usr/bin/env python3
"""Cuts the small foreign fixtures of tests/data/foreign out of Holistic Trace Analysis's test
traces (github.com/facebookresearch/HolisticTraceAnalysis, MIT license, commit f4d0062c, tests/data).

usage: cut_hta_traces.py HTA_TESTS_DATA_DIR
Writes hta_*.json.gz beside this script. Each cut keeps the top-level fields as they are and a
subset of the events, unchanged; README.md says which and why.
"""
import gzip
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load(path):
    with gzip.open(path, "rt") as f:
        return json.load(f)


def write(name, doc):
    with gzip.GzipFile(os.path.join(HERE, name), "wb", compresslevel=9, mtime=0) as f:
        f.write(json.dumps(doc, separators=(",", ":")).encode())


def copy(src, name):
    write(name, load(src))


def cut_window(doc, start, end):
    """The events that start inside [start, end), and every metadata event."""
    keep = [e for e in doc["traceEvents"]
            if e.get("ph") == "M" or (isinstance(e.get("ts"), (int, float)) and start <= e["ts"] < end)]
    return dict(doc, traceEvents=keep)


def cut_steps(doc, first, last):
    """ProfilerStep#first..#last: the host events that start inside their span (ops, runtime
    calls, annotations; not the async_cpu_to_gpu flows, which attnprof does not read), the GPU
    work those runtime calls launched (by correlation id, even where it runs past the span), and
    every metadata event."""
    events = doc["traceEvents"]
    steps = [e for e in events if e.get("name") in (f"ProfilerStep#{first}", f"ProfilerStep#{last}")]
    start = min(e["ts"] for e in steps)
    end = max(e["ts"] + e["dur"] for e in steps)
    gpu = ("kernel", "gpu_memcpy", "gpu_memset")
    host = [e for e in events if e.get("ph") != "M" and e.get("cat") not in gpu + ("async_cpu_to_gpu",)
            and isinstance(e.get("ts"), (int, float)) and start <= e["ts"] < end]
    launched = {e["args"]["correlation"] for e in host
                if e.get("cat") == "cuda_runtime" and "correlation" in e.get("args", {})}
    work = [e for e in events if e.get("cat") in gpu and e.get("args", {}).get("correlation") in launched]
    return dict(doc, traceEvents=[e for e in events if e.get("ph") == "M"] + host + work)


def main():
    data = sys.argv[1]
    # ROCm 6.2 on MI250: whole, 6.8 KB.
    copy(os.path.join(data, "amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz"),
         "hta_rocm_mi250.json.gz")
    # Inductor's Triton launch ("grid": "grid(100,)" on the op); its ProfilerStep#1 comes from
    # another process (pid 3100453) than the one that launched the kernel (1670242): whole.
    copy(os.path.join(data, "triton_example/triton_example.json.gz"), "hta_triton_step_elsewhere.json.gz")
    # cuda_sync events (Event Sync, Stream Sync) and nanosecond-free integer times: whole.
    copy(os.path.join(data, "critical_path/cuda_event_sync/event_sync_trace.json.gz"),
         "hta_cuda_sync.json.gz")
    # MTIA inference: the first 20 ms of the first Stage::PyTorchMRSGIFTask::run, every event
    # that starts in it (mtia_runtime calls, mtia_ccp_events kernels, DMA transfers, event
    # waits and records).
    mtia = load(os.path.join(data, "mtia_inference_trace/mtia_inference_rank_0.json.gz"))
    run = min((e for e in mtia["traceEvents"] if e.get("name") == "Stage::PyTorchMRSGIFTask::run"),
              key=lambda e: e["ts"])
    mtia = cut_window(mtia, run["ts"], run["ts"] + 20000)
    for e in mtia["traceEvents"]:  # the window's annotation, shortened to the window
        if e is not None and e.get("name") == "Stage::PyTorchMRSGIFTask::run" and e["ts"] == run["ts"]:
            e["dur"] = 20000.0
    mtia.pop("INFO", None)
    write("hta_mtia_inference_cut.json.gz", mtia)
    # MTIA training, one rank: its products (fc, batch_matmul) and embedding kernels
    # (fbgemm::split_embedding_*, split_eb_*), whose "fbgemm" is no GEMM. Each such kernel of the
    # trace (fc: the first 3 of its 127) with the runtime call of its correlation id, and their
    # processes' and threads' metadata; the top level without its INFO and ERROR logs.
    mtia = load(os.path.join(data, "mtia_trace_single_rank/mtia_rank_0.json.gz"))
    wanted, fcs = [], 0
    for e in mtia["traceEvents"]:
        if e.get("cat") != "mtia_ccp_events":
            continue
        name = e["name"]
        if name.startswith("fc-") and fcs < 3:
            fcs += 1
            wanted.append(e)
        elif name.startswith(("batch_matmul-", "fbgemm::", "split_eb_")):
            wanted.append(e)
    ids = {e["args"]["correlation"] for e in wanted}
    runtime = [e for e in mtia["traceEvents"]
               if e.get("cat") == "mtia_runtime" and e.get("args", {}).get("correlation") in ids]
    # The metadata of the processes and threads kept, each once (the trace repeats them some
    # 60000 times).
    kept = {(e["pid"], e["tid"]) for e in runtime + wanted}
    meta, seen = [], set()
    for e in mtia["traceEvents"]:
        if e.get("ph") != "M" or e["pid"] not in {p for p, _ in kept}:
            continue
        if e["name"].startswith("thread_") and (e["pid"], e.get("tid")) not in kept:
            continue
        key = (e["name"], e["pid"], e.get("tid"))
        if key not in seen:
            seen.add(key)
            meta.append(e)
    mtia["traceEvents"] = meta + runtime + wanted
    for key in ("INFO", "ERROR"):
        mtia.pop(key, None)
    write("hta_mtia_kernels_cut.json.gz", mtia)
    # CUPTI's range profiler (cuda_profiler_range) and distributedInfo {"rank": 0}: the first
    # 300 events.
    cupti = load(os.path.join(data, "cupti_profiler/benchmark_result_924719_1679055439_trace.json.gz"))
    cupti["traceEvents"] = [e for e in cupti["traceEvents"] if e.get("ph") == "M"] + \
        [e for e in cupti["traceEvents"] if e.get("ph") != "M"][:300]
    write("hta_cupti_range_profiler_cut.json.gz", cupti)
    # distributedInfo {"backend": "nccl"} with no rank: the top level and the first 40 events.
    unranked = load(os.path.join(data, "rank_unavailable/rank_not_found.json.gz"))
    unranked["traceEvents"] = unranked["traceEvents"][:40]
    write("hta_rank_unavailable_cut.json.gz", unranked)
    # Ranks 0 and 1 of a 128-rank NCCL job (2 ProfilerSteps each; 5 ncclKernel_SendRecv a step
    # beside the compute kernels): whole, for the time breakdown's communication.
    for rank in (0, 1):
        copy(os.path.join(data, f"trace_filter/sampled_rank-{rank}.json.gz"),
             f"hta_nccl_rank{rank}.json.gz")
    # profile_memory=True: [memory] events of device 1 (and of the CPU) beside a training step's
    # ops. The first 100 ms of ProfilerStep#3, every event that starts in them but the ac2g flows
    # (the reader does not keep them), and the metadata; that step's `dur` set to the 100 ms.
    memory = load(os.path.join(data, "df_index_resolver/df_index_resolver.json.gz"))
    step = next(e for e in memory["traceEvents"] if e.get("name") == "ProfilerStep#3")
    memory = cut_window(memory, step["ts"], step["ts"] + 100000)
    memory["traceEvents"] = [e for e in memory["traceEvents"] if e.get("cat") != "ac2g"]
    for e in memory["traceEvents"]:
        if e.get("name") == "ProfilerStep#3":
            e["dur"] = 100000
    write("hta_memory_step_cut.json.gz", memory)
    # TraceDiff's pair (HTA's own diff tests): the same training job before and after a change,
    # 6 ProfilerSteps each; the first two steps of each.
    for side in ("control", "test"):
        doc = load(os.path.join(data, f"trace_diff/{side}/{side}.json.gz"))
        write(f"hta_trace_diff_{side}_cut.json.gz", cut_steps(doc, 1009, 1010))
    # Rank 0 of a 2-rank NCCL job on A100s (nccl_parser_config): its all-reduces carry their
    # message sizes and group size, so their bus bandwidth reads against NVLink 3. ProfilerStep#5.
    doc = load(os.path.join(data, "nccl_parser_config/nccl_data.json.gz"))
    write("hta_nccl_allreduce_cut.json.gz", cut_steps(doc, 5, 5))


if __name__ == "__main__":
    main()
