#!/usr/bin/env python3
"""Records small traces for the op cost model's tests (docs/OP_COSTS.md): one family or layout
per trace, each a step of a few calls, recorded with record_shapes=True, so that a test can count
each op's FLOPs again from the shapes and compare them with the ops table.

Run on the GPU machine: python3 record_op_costs.py OUTDIR [--budget SECONDS] [--only NAME...]
Traces, OUTDIR/opcost-NAME.json.gz, each torch.profiler with schedule(wait=1, warmup=1,
active=1), so that it holds ProfilerStep#2:
  conv2d, conv_transpose2d   bf16 convolutions (8 x 64 x 56 x 56, 128 filters of 3 x 3, groups 1
                             and 4)
  baddbmm                    bf16, 16 x (256 x 128) x (128 x 512), alpha 0.5, beta 1
  addmm_fp32, addmm_tf32     fp32 1024 x 1024 x 1024, TF32 off (PyTorch's default), then on
  scaled_mm                  fp8 e4m3 _scaled_mm 4096 x 4096 x 4096 with per-tensor scales (Hopper)
  sdpa_mask                  SDPA with an explicit boolean mask (math or efficient backend)
  sdpa_gqa_chunk             SDPA causal, 128 queries against 1024 keys, enable_gqa 16/4 heads
  flash_attn                 flash_attn_func causal with window_size (256, 0), when flash_attn is
                             installed; written down as unavailable otherwise
  memory                     mul, add_, copy_, fill_, sum, softmax on 4096 x 4096 bf16
OUTDIR/status.json says what became of each. scripts/gpu/record-op-costs.sh runs this.
"""
import argparse
import os

import torch
import torch.nn.functional as F
from torch.profiler import ProfilerActivity, profile, schedule

from recording_runs import Recordings
from trace_files import save_trace

BF16 = torch.bfloat16


def rand(*shape, dtype=BF16):
    g = torch.Generator(device="cuda").manual_seed(0)
    return torch.randn(*shape, device="cuda", dtype=dtype, generator=g)


def conv2d():
    x, w, w4 = rand(8, 64, 56, 56), rand(128, 64, 3, 3), rand(128, 16, 3, 3)
    return lambda: (F.conv2d(x, w, padding=1), F.conv2d(x, w4, padding=1, groups=4))


def conv_transpose2d():
    x, w = rand(8, 64, 28, 28), rand(64, 32, 4, 4)
    return lambda: F.conv_transpose2d(x, w, stride=2, padding=1)


def baddbmm():
    c, a, b = rand(16, 256, 512), rand(16, 256, 128), rand(16, 128, 512)
    return lambda: torch.baddbmm(c, a, b, beta=1.0, alpha=0.5)


def addmm(tf32):
    def make():
        torch.backends.cuda.matmul.allow_tf32 = tf32
        c, a, b = (rand(1024, 1024, dtype=torch.float32) for _ in range(3))
        return lambda: torch.addmm(c, a, b)
    return make


def scaled_mm():
    a = rand(4096, 4096).to(torch.float8_e4m3fn)
    b = rand(4096, 4096).to(torch.float8_e4m3fn).t()  # column-major, as _scaled_mm wants
    one = torch.ones((), device="cuda")
    return lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=BF16)


def sdpa_mask():
    q, k, v = rand(2, 16, 512, 64), rand(2, 16, 512, 64), rand(2, 16, 512, 64)
    mask = torch.ones(512, 512, device="cuda", dtype=torch.bool).tril()
    return lambda: F.scaled_dot_product_attention(q, k, v, attn_mask=mask)


def sdpa_gqa_chunk():
    q, k, v = rand(2, 16, 128, 64), rand(2, 4, 1024, 64), rand(2, 4, 1024, 64)
    return lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)


def flash_attn():
    from flash_attn import flash_attn_func  # unavailable here: the row says so
    q, k, v = rand(2, 1024, 16, 64), rand(2, 1024, 4, 64), rand(2, 1024, 4, 64)
    return lambda: flash_attn_func(q, k, v, causal=True, window_size=(256, 0))


def memory():
    a, b, out = rand(4096, 4096), rand(4096, 4096), torch.empty(4096, 4096, device="cuda",
                                                                dtype=BF16)

    def step():
        c = a * b
        c.add_(a)
        out.copy_(c)
        out.fill_(0)
        c.sum()
        torch.softmax(c, dim=-1)
    return step


TRACES = {"conv2d": conv2d, "conv_transpose2d": conv_transpose2d, "baddbmm": baddbmm,
          "addmm_fp32": addmm(False), "addmm_tf32": addmm(True), "scaled_mm": scaled_mm,
          "sdpa_mask": sdpa_mask, "sdpa_gqa_chunk": sdpa_gqa_chunk, "flash_attn": flash_attn,
          "memory": memory}


def record(out_dir, name):
    step = TRACES[name]()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                 schedule=schedule(wait=1, warmup=1, active=1, repeat=1),
                 on_trace_ready=lambda p: save_trace(p, out_dir, f"opcost-{name}"),
                 record_shapes=True) as prof:
        for _ in range(3):
            step()
            torch.cuda.synchronize()
            prof.step()
    torch.backends.cuda.matmul.allow_tf32 = False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out_dir")
    parser.add_argument("--budget", type=float, default=120, help="seconds for all recordings")
    parser.add_argument("--only", nargs="*", help="names to record")
    args = parser.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.get_device_name(),
          flush=True)
    runs = Recordings(args.budget)
    for name in TRACES:
        if not args.only or name in args.only:
            runs.run(name, 30, record, args.out_dir, name)
    runs.write(os.path.join(args.out_dir, "status.json"))


if __name__ == "__main__":
    main()
