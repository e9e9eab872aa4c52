#!/usr/bin/env python3
"""Records the real PyTorch profiler traces that attnprof's tests read.

Run on a CUDA machine (the project's GPU machine): python3 record_fixtures.py OUTDIR [WHAT...]
WHAT: variants train graph cpu cold small (the default set), ranks (a two-rank data-parallel run,
one trace per rank), gpt2 (a large GPT-2 training trace for throughput: GPT2_STEPS profiled steps,
default 4, ~7.5 MB of JSON each; written to GPT2_OUT, default OUTDIR). scripts/gpu/record-large.sh
records the ranks and a ~200 MB GPT-2 trace in one device call.
Each trace is written by torch.profiler's export_chrome_trace as .json.gz.
tests/data/README.md says what each trace holds and what the tests check in it.
"""
import json
import os
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
from torch.profiler import ProfilerActivity, profile, record_function, schedule

from trace_files import save_trace

OUT = sys.argv[1] if len(sys.argv) > 1 else "fixtures"
os.makedirs(OUT, exist_ok=True)

# The study's default problem: bf16, batch 4, 16 heads, sequence 2048, head dim 64, causal.
B, H, S, D = 4, 16, 2048, 64
DTYPE = torch.bfloat16
SCALE = 1.0 / (D ** 0.5)


def naive(q, k, v, mask):
    s = torch.matmul(q, k.transpose(-2, -1))
    s = s * SCALE
    s = s.masked_fill(mask, float("-inf"))  # out of place: clones s first
    p = torch.softmax(s, dim=-1)
    return torch.matmul(p, v)


def inplace(q, k, v, mask):
    s = torch.matmul(q, k.transpose(-2, -1))
    torch.mul(s, SCALE, out=s)
    s.masked_fill_(mask, float("-inf"))
    p = torch.softmax(s, dim=-1)
    return torch.matmul(p, v)


def sdpa(backend):
    def run(q, k, v, mask):
        with sdpa_kernel(backend):
            return F.scaled_dot_product_attention(q, k, v, is_causal=True)
    return run


VARIANTS = {
    "naive": naive,
    "inplace": inplace,
    "sdpa-math": sdpa(SDPBackend.MATH),
    "sdpa-efficient": sdpa(SDPBackend.EFFICIENT_ATTENTION),
    "sdpa-flash": sdpa(SDPBackend.FLASH_ATTENTION),
    "sdpa-cudnn": sdpa(SDPBackend.CUDNN_ATTENTION),
}


def save(prof, name):
    save_trace(prof, OUT, name)


def inputs(device="cuda", dtype=DTYPE, b=B, h=H, s=S, d=D):
    g = torch.Generator(device=device).manual_seed(0)
    q, k, v = (torch.randn(b, h, s, d, device=device, dtype=dtype, generator=g) for _ in range(3))
    mask = torch.triu(torch.ones(s, s, dtype=torch.bool, device=device), diagonal=1)
    return q, k, v, mask


def record_variants():
    q, k, v, mask = inputs()
    for name, fn in VARIANTS.items():
        with torch.no_grad():
            for _ in range(3):
                fn(q, k, v, mask)
            torch.cuda.synchronize()
            # wait 1, warmup 1, active 3: three ProfilerStep#N regions, each holding one `forward`.
            with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                         schedule=schedule(wait=1, warmup=1, active=3, repeat=1),
                         record_shapes=True, profile_memory=(name == "naive")) as prof:
                for _ in range(5):
                    with record_function("forward"):
                        fn(q, k, v, mask)
                    torch.cuda.synchronize()
                    prof.step()
        save(prof, f"study_{name}")


class Attention(torch.nn.Module):
    def __init__(self, dim=1024, heads=16):
        super().__init__()
        self.heads = heads
        self.qkv = torch.nn.Linear(dim, 3 * dim)
        self.out = torch.nn.Linear(dim, dim)

    def forward(self, x):
        b, s, d = x.shape
        q, k, v = self.qkv(x).view(b, s, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        mask = torch.triu(torch.ones(s, s, dtype=torch.bool, device=x.device), diagonal=1)
        y = naive(q, k, v, mask)
        return self.out(y.transpose(1, 2).reshape(b, s, d))


def record_train_step():
    """Forward and backward: backward kernels are launched from the autograd thread."""
    dist_ok = False
    try:
        import torch.distributed as dist
        dist.init_process_group("nccl", init_method="tcp://127.0.0.1:29512", rank=0, world_size=1)
        dist_ok = True
    except Exception as e:  # distributedInfo is a bonus, not the point of this trace
        print("no process group:", e, flush=True)
    torch.manual_seed(0)
    model = Attention().cuda().to(DTYPE)
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    x = torch.randn(2, 512, 1024, device="cuda", dtype=DTYPE)
    for _ in range(2):
        model(x).float().pow(2).mean().backward()
        opt.step(); opt.zero_grad()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                 schedule=schedule(wait=0, warmup=1, active=2, repeat=1),
                 record_shapes=True, with_stack=True) as prof:
        for _ in range(3):
            with record_function("forward"):
                loss = model(x).float().pow(2).mean()
            with record_function("backward"):
                loss.backward()
            with record_function("optimizer"):
                opt.step(); opt.zero_grad()
            torch.cuda.synchronize()
            prof.step()
    save(prof, "train_step")
    if dist_ok:
        torch.distributed.destroy_process_group()


def record_cuda_graph():
    """The naive forward captured in a CUDA graph and replayed: its kernels share the replay's correlation."""
    q, k, v, mask = inputs(b=2, h=8, s=1024)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s), torch.no_grad():
        for _ in range(3):
            out = naive(q, k, v, mask)
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.no_grad(), torch.cuda.graph(g):
        out = naive(q, k, v, mask)
    g.replay(); torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                 schedule=schedule(wait=0, warmup=1, active=3, repeat=1)) as prof:
        for _ in range(4):
            with record_function("forward"):
                g.replay()
            torch.cuda.synchronize()
            prof.step()
    save(prof, "cuda_graph")


def record_cpu_only():
    q, k, v, mask = inputs(device="cpu", dtype=torch.float32, b=1, h=4, s=256, d=64)
    with torch.no_grad(), profile(activities=[ProfilerActivity.CPU],
                                  schedule=schedule(wait=0, warmup=1, active=2, repeat=1),
                                  record_shapes=True) as prof:
        for _ in range(3):
            with record_function("forward"):
                naive(q, k, v, mask)
                F.scaled_dot_product_attention(q, k, v, is_causal=True)
            prof.step()
    save(prof, "cpu_only")


def record_cudnn_cold():
    """cuDNN SDPA profiled from its very first call on a new shape: the plan is built on the CPU
    inside the first forward, before its kernel is launched; the later forwards reuse it."""
    q, k, v, _ = inputs(b=2, h=8, s=1536, d=64)
    with torch.no_grad(), profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                                  record_shapes=True) as prof:
        for _ in range(4):
            with record_function("forward"):
                with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                    F.scaled_dot_product_attention(q, k, v, is_causal=True)
            torch.cuda.synchronize()
    save(prof, "cudnn_cold_start")


def record_small_launch_bound():
    """The naive forward on a tiny problem: the GPU waits for the CPU between kernels, and a
    .item() inside the forward copies to the host and synchronizes."""
    q, k, v, mask = inputs(b=1, h=2, s=64, d=32)
    with torch.no_grad():
        for _ in range(3):
            naive(q, k, v, mask)
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                     schedule=schedule(wait=1, warmup=1, active=3, repeat=1),
                     record_shapes=True) as prof:
            for _ in range(5):
                with record_function("forward"):
                    out = naive(q, k, v, mask)
                    out.sum().item()
                prof.step()
    save(prof, "small_launch_bound")


def record_gpt2(out_dir, steps):
    """A large real training trace (GPT-2 small, random weights) for throughput measurements:
    `steps` profiled steps with shapes, stacks and memory events, ~7.5 MB of JSON a step (27 steps
    make ~200 MB)."""
    from transformers import GPT2Config, GPT2LMHeadModel
    torch.manual_seed(0)
    model = GPT2LMHeadModel(GPT2Config()).cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    ids = torch.randint(0, 50257, (8, 1024), device="cuda")
    def step():
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = model(ids, labels=ids).loss
        loss.backward(); opt.step(); opt.zero_grad()
    for _ in range(3):
        step()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                 schedule=schedule(wait=0, warmup=1, active=steps, repeat=1),
                 record_shapes=True, profile_memory=True, with_stack=True) as prof:
        for _ in range(steps + 1):
            step(); torch.cuda.synchronize(); prof.step()
    global OUT
    OUT, saved = out_dir, OUT
    save(prof, f"gpt2_train_{steps}steps")
    OUT = saved


def record_rank(rank, world_size, out_dir, init_file):
    """One rank of a data-parallel run (DDP over gloo: two ranks may share the one GPU, which
    NCCL refuses). Rank r trains on a sequence (1 + r/2) times as long, so the ranks are
    unbalanced the way real ones are: the short rank waits in the gradient all-reduce."""
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel as DDP
    dist.init_process_group("gloo", init_method=f"file://{init_file}", rank=rank,
                            world_size=world_size)
    torch.manual_seed(0)
    model = DDP(Attention(dim=512, heads=8).cuda())
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    x = torch.randn(2, 512 + 256 * rank, 512, device="cuda")
    def step():
        with record_function("forward"):
            loss = model(x).pow(2).mean()
        with record_function("backward"):
            loss.backward()
        with record_function("optimizer"):
            opt.step(); opt.zero_grad()
        torch.cuda.synchronize()
    for _ in range(2):
        step()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                 schedule=schedule(wait=0, warmup=1, active=3, repeat=1),
                 record_shapes=True) as prof:
        for _ in range(4):
            step(); prof.step()
    global OUT
    OUT = out_dir
    save(prof, f"ddp_rank{rank}")
    dist.barrier()
    dist.destroy_process_group()


def record_ranks(world_size=2):
    """A two-rank data-parallel run, one trace per rank (distributedInfo in each)."""
    import tempfile
    import torch.multiprocessing as mp
    init_file = os.path.join(tempfile.mkdtemp(), "pg")
    mp.spawn(record_rank, args=(world_size, OUT, init_file), nprocs=world_size)


if __name__ == "__main__":
    print(torch.__version__, torch.version.cuda, torch.cuda.get_device_name(), flush=True)
    what = sys.argv[2:] or ["variants", "train", "graph", "cpu", "cold", "small"]
    if "variants" in what: record_variants()
    if "train" in what: record_train_step()
    if "graph" in what: record_cuda_graph()
    if "cpu" in what: record_cpu_only()
    if "cold" in what: record_cudnn_cold()
    if "small" in what: record_small_launch_bound()
    if "ranks" in what: record_ranks()
    if "gpt2" in what: record_gpt2(os.environ.get("GPT2_OUT", OUT), int(os.environ.get("GPT2_STEPS", "4")))
