#!/usr/bin/env python3
"""Records the real traces of tests/data/foreign: the kinds of trace that users bring and that
the study's own recordings do not cover.

Run on a CUDA machine (the project's GPU machine): python3 record_foreign.py OUTDIR [WHAT...]
WHAT: cnn (a small ResNet-like CNN's training steps, no attention anywhere), inflight (a profiler
whose active window opens while kernels queued before it still run), compiled (a torch.compile'd
transformer block: Triton kernels, Inductor's annotations), all three by default.
Each trace is written by torch.profiler's export_chrome_trace as .json.gz;
tests/data/foreign/README.md says what each holds and what the tests check in it.
"""
import os
import sys

import torch
import torch.nn.functional as F
from torch.profiler import ProfilerActivity, profile, record_function, schedule

from trace_files import save_trace

OUT = sys.argv[1] if len(sys.argv) > 1 else "foreign"
os.makedirs(OUT, exist_ok=True)
ACTIVITIES = [ProfilerActivity.CPU, ProfilerActivity.CUDA]


def save(prof, name):
    save_trace(prof, OUT, name)


class Block(torch.nn.Module):
    """A ResNet basic block: conv-bn-relu-conv-bn plus the shortcut."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.c1 = torch.nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.b1 = torch.nn.BatchNorm2d(cout)
        self.c2 = torch.nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.b2 = torch.nn.BatchNorm2d(cout)
        self.short = (torch.nn.Sequential(torch.nn.Conv2d(cin, cout, 1, stride, bias=False),
                                          torch.nn.BatchNorm2d(cout))
                      if stride != 1 or cin != cout else torch.nn.Identity())

    def forward(self, x):
        y = F.relu(self.b1(self.c1(x)))
        return F.relu(self.b2(self.c2(y)) + self.short(x))


class SmallResNet(torch.nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.stem = torch.nn.Sequential(torch.nn.Conv2d(3, 32, 3, 1, 1, bias=False),
                                        torch.nn.BatchNorm2d(32), torch.nn.ReLU())
        self.blocks = torch.nn.Sequential(Block(32, 32, 1), Block(32, 64, 2), Block(64, 128, 2))
        self.head = torch.nn.Linear(128, classes)

    def forward(self, x):
        y = self.blocks(self.stem(x))
        return self.head(F.adaptive_avg_pool2d(y, 1).flatten(1))


def record_cnn():
    """Three profiled training steps of a CNN (ProfilerStep#N from the schedule): convolutions,
    batch norm, an optimizer; no attention anywhere."""
    torch.manual_seed(0)
    model = SmallResNet().cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    x = torch.randn(32, 3, 32, 32, device="cuda")
    y = torch.randint(0, 10, (32,), device="cuda")
    def step():
        loss = F.cross_entropy(model(x), y)
        loss.backward(); opt.step(); opt.zero_grad()
    for _ in range(3):
        step()
    torch.cuda.synchronize()
    with profile(activities=ACTIVITIES, schedule=schedule(wait=1, warmup=1, active=2, repeat=1),
                 record_shapes=True) as prof:
        for _ in range(4):
            step(); torch.cuda.synchronize(); prof.step()
    save(prof, "cnn_train")


def record_inflight():
    """The active window opens while work queued in the warmup step still runs: Kineto keeps the
    GPU activities that run inside the window but drops the launches made before it, so the first
    step holds kernels, copies and memsets whose correlation ids have no launch."""
    torch.manual_seed(0)
    a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    host = torch.randn(64 << 20, pin_memory=True)
    dev = torch.empty(64 << 20, device="cuda")
    w = torch.randn(1024, 1024, device="cuda")
    x = torch.randn(256, 1024, device="cuda")
    def small_step():
        with record_function("forward"):
            h = torch.relu(x @ w)
            return (h @ w).sum()
    for _ in range(2):
        small_step()
    torch.cuda.synchronize()
    with profile(activities=ACTIVITIES, schedule=schedule(wait=1, warmup=1, active=2, repeat=1),
                 record_shapes=True) as prof:
        for i in range(4):
            if i == 1:  # the warmup step queues ~40 ms of GPU work and does not wait for it
                for _ in range(30):
                    a = a @ a
                    a = a / a.norm()
                for _ in range(4):
                    dev.copy_(host, non_blocking=True)
                    dev.zero_()
            small_step()
            if i != 1:
                torch.cuda.synchronize()
            prof.step()
    save(prof, "inflight_window")


class TinyTransformer(torch.nn.Module):
    def __init__(self, dim=256, heads=4):
        super().__init__()
        self.heads = heads
        self.norm1 = torch.nn.LayerNorm(dim)
        self.qkv = torch.nn.Linear(dim, 3 * dim)
        self.proj = torch.nn.Linear(dim, dim)
        self.norm2 = torch.nn.LayerNorm(dim)
        self.mlp = torch.nn.Sequential(torch.nn.Linear(dim, 4 * dim), torch.nn.GELU(),
                                       torch.nn.Linear(4 * dim, dim))

    def forward(self, x):
        b, s, d = x.shape
        q, k, v = self.qkv(self.norm1(x)).view(b, s, 3, self.heads, d // self.heads).permute(
            2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(y.transpose(1, 2).reshape(b, s, d))
        return x + self.mlp(self.norm2(x))


def record_compiled():
    """A torch.compile'd transformer block's training steps: Inductor's Triton kernels, its
    annotations of each launch (grid written as a string), SDPA as an extern kernel."""
    torch.manual_seed(0)
    model = TinyTransformer().cuda().to(torch.bfloat16)
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    compiled = torch.compile(model)
    x = torch.randn(4, 256, 256, device="cuda", dtype=torch.bfloat16)
    def step():
        compiled(x).float().pow(2).mean().backward()
        opt.step(); opt.zero_grad()
    for _ in range(3):
        step()
    torch.cuda.synchronize()
    with profile(activities=ACTIVITIES, schedule=schedule(wait=0, warmup=1, active=2, repeat=1),
                 record_shapes=True) as prof:
        for _ in range(3):
            step(); torch.cuda.synchronize(); prof.step()
    save(prof, "compiled_transformer")


if __name__ == "__main__":
    print(torch.__version__, torch.version.cuda, torch.cuda.get_device_name(), flush=True)
    what = sys.argv[2:] or ["cnn", "inflight", "compiled"]
    for name, fn in (("cnn", record_cnn), ("inflight", record_inflight),
                     ("compiled", record_compiled)):
        if name in what:
            try:
                fn()
            except Exception as e:  # one failed recording must not lose the others
                print(f"{name} failed: {type(e).__name__}: {e}", flush=True)
