#!/usr/bin/env python3
"""Records NCCL communication as torch.distributed issues it, on the one GPU lent: a one-rank NCCL
process group (as record_fixtures.py's train step makes), explicit collectives of 8 MiB, without
and with compute overlapping them on another stream.

On one rank NCCL takes its one-rank path for a collective and launches no ring or tree kernel
(no ncclDevKernel_*): an in-place sum does nothing; all-gather, reduce-scatter and all_to_all_single
are device copies (cudaMemcpyAsync); only a scaled sum (ReduceOp.AVG of floats) runs a kernel,
NCCL's oneRankReduce. (Not tried: torch builds all_to_all of lists, and all_to_all_single with
split sizes, from NCCL sends and receives, which NCCL runs as point-to-point work rather than
through its one-rank path, so they may launch its ncclDevKernel_SendRecv even on one rank.)
tests/data/README.md says what each trace holds.

Run on the GPU machine: python3 record_comm.py OUTDIR [--budget SECONDS] [--sync-events]
Traces (OUTDIR/NAME.json.gz; OUTDIR/status.json says what became of each; schedule(wait=1,
warmup=1, active=2), record_shapes):
  comm-serial   each step: all_reduce (SUM, in place), all_reduce (AVG), all_gather_into_tensor,
                reduce_scatter_tensor, all_to_all_single, then a matmul chain on the same stream
  comm-overlap  the same collectives issued with async_op=True, then the matmul chain on a
                second stream; the step waits for both. The collectives, microseconds long, end
                before the matmuls start: to see them overlap, queue the matmuls first
  comm-overlap-sync  (--sync-events, alone) comm-overlap with enable_cuda_sync_events=True: the
                cudaStreamWaitEvent and cudaEventRecord events that tie the two streams together
scripts/gpu/record-models.sh runs this.
"""
import argparse
import os

import torch
import torch.distributed as dist
from torch.profiler import ProfilerActivity, profile, record_function, schedule

from recording_runs import Recordings
from trace_files import save_trace

ELEMENTS = 4 * 1024 * 1024  # bf16: 8 MiB a buffer


def buffers():
    g = torch.Generator(device="cuda").manual_seed(0)
    data = torch.randn(ELEMENTS, device="cuda", dtype=torch.bfloat16, generator=g)
    a = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16, generator=g)
    return {"data": data, "avg": data.clone(), "gathered": torch.empty_like(data),
            "scattered": torch.empty_like(data), "all_to_all": torch.empty_like(data), "a": a}


def collectives(t, async_op):
    world = dist.get_world_size()
    with record_function("communication"):
        works = [
            dist.all_reduce(t["data"], op=dist.ReduceOp.SUM, async_op=async_op),
            dist.all_reduce(t["avg"], op=dist.ReduceOp.AVG, async_op=async_op),
            dist.all_gather_into_tensor(t["gathered"][: ELEMENTS], t["data"][: ELEMENTS // world],
                                        async_op=async_op),
            dist.reduce_scatter_tensor(t["scattered"][: ELEMENTS // world], t["data"],
                                       async_op=async_op),
            dist.all_to_all_single(t["all_to_all"], t["data"], async_op=async_op),
        ]
    return [w for w in works if w is not None]


def compute(t):
    with record_function("compute"):
        x = t["a"]
        for _ in range(4):
            x = torch.matmul(x, t["a"]) * 0.01
    return x


def record(out_dir, overlap, sync_events=False):
    t = buffers()
    side = torch.cuda.Stream()

    def step():
        if not overlap:
            collectives(t, async_op=False)
            compute(t)
            return
        side.wait_stream(torch.cuda.current_stream())
        works = collectives(t, async_op=True)
        with torch.cuda.stream(side):
            compute(t)
        for w in works:
            w.wait()
        torch.cuda.current_stream().wait_stream(side)

    for _ in range(2):
        step()
    torch.cuda.synchronize()
    name = "comm-overlap" if overlap else "comm-serial"
    extra = {}
    if sync_events:
        # The stream waits and event records as their own events, with the ids that match a
        # cudaStreamWaitEvent to its cudaEventRecord: the critical path's cross-stream edges.
        name += "-sync"
        extra["experimental_config"] = torch._C._profiler._ExperimentalConfig(
            enable_cuda_sync_events=True)
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True,
                 **extra,
                 schedule=schedule(wait=1, warmup=1, active=2, repeat=1),
                 on_trace_ready=lambda p: save_trace(p, out_dir, name)) as prof:
        for _ in range(4):
            step()
            torch.cuda.synchronize()
            prof.step()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out_dir")
    parser.add_argument("--budget", type=float, default=45, help="seconds for all recordings")
    parser.add_argument("--sync-events", action="store_true",
                        help="record only comm-overlap-sync: comm-overlap with"
                             " enable_cuda_sync_events=True")
    args = parser.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    print("torch", torch.__version__, "nccl", torch.cuda.nccl.version(),
          torch.cuda.get_device_name(), flush=True)
    runs = Recordings(args.budget)
    runs.run("init", 30, lambda: dist.init_process_group(
        "nccl", init_method="tcp://127.0.0.1:29513", rank=0, world_size=1,
        device_id=torch.device("cuda", 0)))
    if dist.is_initialized() and args.sync_events:
        runs.run("comm-overlap-sync", 20, record, args.out_dir, True, True)
    elif dist.is_initialized():
        runs.run("comm-serial", 20, record, args.out_dir, False)
        runs.run("comm-overlap", 20, record, args.out_dir, True)
        runs.run("destroy", 10, dist.destroy_process_group)
    runs.write(os.path.join(args.out_dir, "status.json"))


if __name__ == "__main__":
    main()
