#!/usr/bin/env python3
"""Records one small trace per op family with record_shapes=True, and beside them the count of
each case's floating-point operations made by brute force, so that attnprof's cost model
(src/analysis/op_cost.h, docs/OP_COSTS.md) is tested against recorded ops, not hand-spelled ones.

Run on the GPU machine: python3 record_op_families.py OUTDIR [--budget SECONDS]
Writes OUTDIR/FAMILY.json.gz for FAMILY in gemm, conv, memory, sdpa-math, sdpa-efficient,
sdpa-flash, sdpa-cudnn, sdpa-default and flex, and OUTDIR/op_families.json: one entry per case with
its trace, its record_function region ("case: NAME"), the public call made, the shapes, and:
  - gemm/conv: "flops", counted as 2 x the multiply-adds of the product, from the shapes;
  - attention: "visible_pairs", the query-key pairs the mask lets through, counted by evaluating
    the mask element by element (torch.tril for is_causal, the bias's own materialized mask, the
    block mask's mask_mod on every pair); "all_pairs" (q_len x kv_len); and "flops" =
    2 x (head dim + value dim) x batch x query heads x visible pairs, x 2.5 for a backward;
  - "backend_ran": for sdpa-default, the backend torch chose, read from the kernels' names after
    the fact is the reader's job; here only what was asked ("default") and why a fallback is
    expected (fp64: only math runs float64).
A case a backend refuses is written down with its error, not recorded.
scripts/gpu/record-op-families.sh runs this and packs the folder for tests/data/op_families.
"""
import argparse
import json
import os

import torch
import torch.nn.functional as F
from torch.profiler import ProfilerActivity, profile, record_function

from recording_runs import Recordings, error_text
from trace_files import save_trace

DEV = "cuda"
BF16 = torch.bfloat16


def rand(*shape, dtype=BF16, grad=False):
    g = torch.Generator(device=DEV).manual_seed(len(shape) * 7 + sum(shape))
    t = torch.randn(*shape, device=DEV, dtype=torch.float32, generator=g).to(dtype)
    return t.requires_grad_(grad)


class Family:
    """The cases of one trace: each is run once to warm up, then once under the profiler inside
    record_function("case: NAME")."""

    def __init__(self, name):
        self.name, self.cases, self.entries = name, [], []

    def add(self, case, fn, **entry):
        self.cases.append((case, fn, entry))

    def record(self, out_dir):
        ready = []
        for case, fn, entry in self.cases:
            try:
                fn()
                torch.cuda.synchronize()
                ready.append((case, fn, entry))
            except Exception as e:  # a backend that refuses a case is a fact, not a failure
                self.entries.append(dict(entry, case=case, trace=None, status="refused",
                                         error=error_text(e)))
                print(f"  {self.name} {case}: refused: {error_text(e)[:160]}", flush=True)
        if not ready:
            return
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                     record_shapes=True) as prof:
            for case, fn, _ in ready:
                with record_function(f"case: {case}"):
                    fn()
                torch.cuda.synchronize()
        save_trace(prof, out_dir, self.name)
        for case, _, entry in ready:
            self.entries.append(dict(entry, case=case, trace=f"{self.name}.json.gz", status="ok"))


def gemm_family():
    f = Family("gemm")
    m, k, n = 512, 1024, 768
    a, b, bias = rand(m, k), rand(k, n), rand(n)
    f.add("mm", lambda: torch.mm(a, b), op="torch.mm", shapes=[[m, k], [k, n]],
          flops=2 * m * k * n)
    f.add("addmm", lambda: torch.addmm(bias, a, b), op="torch.addmm",
          shapes=[[n], [m, k], [k, n]], flops=2 * m * k * n)
    bb, bm, bk, bn = 8, 512, 256, 384
    x, y, acc = rand(bb, bm, bk), rand(bb, bk, bn), rand(bb, bm, bn)
    f.add("bmm", lambda: torch.bmm(x, y), op="torch.bmm", shapes=[[bb, bm, bk], [bb, bk, bn]],
          flops=2 * bb * bm * bk * bn)
    f.add("baddbmm", lambda: torch.baddbmm(acc, x, y), op="torch.baddbmm",
          shapes=[[bb, bm, bn], [bb, bm, bk], [bb, bk, bn]], flops=2 * bb * bm * bk * bn)
    q, kt = rand(2, 8, 512, 64), rand(2, 8, 64, 512)
    f.add("matmul_4d", lambda: torch.matmul(q, kt), op="torch.matmul",
          shapes=[[2, 8, 512, 64], [2, 8, 64, 512]], flops=2 * 2 * 8 * 512 * 64 * 512)
    h, w = rand(4, 128, 1024), rand(768, 1024)
    f.add("linear", lambda: F.linear(h, w, bias), op="F.linear",
          shapes=[[4, 128, 1024], [768, 1024], [768]], flops=2 * 4 * 128 * 1024 * 768)
    f.add("linear_nobias", lambda: F.linear(h, w), op="F.linear",
          shapes=[[4, 128, 1024], [768, 1024]], flops=2 * 4 * 128 * 1024 * 768)
    v = rand(k)
    f.add("mv", lambda: torch.mv(a, v), op="torch.mv", shapes=[[m, k], [k]], flops=2 * m * k)
    a8 = rand(m, k).to(torch.float8_e4m3fn)
    b8 = rand(n, k).to(torch.float8_e4m3fn).t()  # column-major, as _scaled_mm needs
    one = torch.ones((), device=DEV)
    f.add("scaled_mm_fp8", lambda: torch._scaled_mm(a8, b8, one, one, out_dtype=BF16),
          op="torch._scaled_mm", shapes=[[m, k], [k, n]], flops=2 * m * k * n,
          dtype="float8_e4m3fn")
    wg = rand(m, k, grad=True)
    f.add("mm_backward", lambda: torch.mm(wg, b).sum().backward(), op="torch.mm + backward",
          shapes=[[m, k], [k, n]], flops=2 * m * k * n,
          note="forward mm; its backward is one mm (grad of the first operand only): 2*m*k*n")
    return f


def conv_family():
    f = Family("conv")
    n, c, hw, kout, r = 8, 64, 56, 128, 3
    x, w = rand(n, c, hw, hw), rand(kout, c, r, r)
    f.add("conv2d", lambda: F.conv2d(x, w, padding=1), op="F.conv2d",
          shapes=[[n, c, hw, hw], [kout, c, r, r]], flops=2 * n * kout * hw * hw * c * r * r)
    wg = rand(kout, c // 4, r, r)
    f.add("conv2d_groups4", lambda: F.conv2d(x, wg, padding=1, groups=4), op="F.conv2d",
          shapes=[[n, c, hw, hw], [kout, c // 4, r, r]],
          flops=2 * n * kout * hw * hw * (c // 4) * r * r)
    x1, w1 = rand(8, 256, 1024), rand(256, 256, 5)
    f.add("conv1d", lambda: F.conv1d(x1, w1), op="F.conv1d", shapes=[[8, 256, 1024], [256, 256, 5]],
          flops=2 * 8 * 256 * 1020 * 256 * 5)
    xt, wt = rand(8, 128, 28, 28), rand(128, 64, 2, 2)
    f.add("conv_transpose2d", lambda: F.conv_transpose2d(xt, wt, stride=2),
          op="F.conv_transpose2d", shapes=[[8, 128, 28, 28], [128, 64, 2, 2]],
          flops=2 * 8 * 128 * 28 * 28 * 64 * 2 * 2,
          note="transposed: 2 x input elements x C_out/groups x kernel size")
    return f


def memory_family():
    f = Family("memory")
    x, y = rand(4096, 4096), rand(4096, 4096)
    elems = 4096 * 4096
    f.add("add", lambda: x + y, op="torch.add", shapes=[[4096, 4096]] * 2, bytes=3 * 2 * elems)
    f.add("mul", lambda: x * y, op="torch.mul", shapes=[[4096, 4096]] * 2, bytes=3 * 2 * elems)
    f.add("softmax", lambda: torch.softmax(x, -1), op="torch.softmax", shapes=[[4096, 4096]],
          bytes=2 * 2 * elems)
    f.add("to_float32", lambda: x.float(), op="Tensor.float", shapes=[[4096, 4096]],
          bytes=2 * elems + 4 * elems)
    f.add("sum", lambda: x.sum(-1), op="torch.sum", shapes=[[4096, 4096]], bytes=2 * elems,
          note="a reduction's output is not counted")
    return f


def pairs_of(mask):
    """Visible pairs of a boolean [q_len, kv_len] mask, counted element by element."""
    return int(mask.to(torch.int64).sum().item())


def attention_case(f, case, backend, b, hq, hkv, q_len, kv_len, d, *, causal=False, bias=None,
                   mask=None, visible=None, backward=False, dtype=BF16, gqa=False, note=""):
    q = rand(b, hq, q_len, d, dtype=dtype, grad=backward)
    k = rand(b, hkv, kv_len, d, dtype=dtype, grad=backward)
    v = rand(b, hkv, kv_len, d, dtype=dtype, grad=backward)
    attn_mask = bias if bias is not None else mask
    kwargs = dict(attn_mask=attn_mask, is_causal=causal)
    if gqa:
        kwargs["enable_gqa"] = True

    def call():
        from torch.nn.attention import sdpa_kernel
        ctx = sdpa_kernel([backend]) if backend is not None else _nullcontext()
        with ctx:
            out = F.scaled_dot_product_attention(q, k, v, **kwargs)
            if backward:
                out.sum().backward()
    if visible is None:
        visible = q_len * kv_len
    fwd = 2 * (d + d) * b * hq * visible
    f.add(case, call, op="F.scaled_dot_product_attention", batch=b, heads=hq, kv_heads=hkv,
          q_len=q_len, kv_len=kv_len, head_dim=d, dtype=str(dtype).replace("torch.", ""),
          causal=causal, explicit_mask=attn_mask is not None, backward=backward,
          visible_pairs=visible, all_pairs=q_len * kv_len, flops_forward=fwd,
          flops_backward=int(2.5 * fwd) if backward else None, note=note)


class _nullcontext:
    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False


def sdpa_family(name, backend):
    from torch.nn.attention.bias import causal_lower_right
    f = Family(name)
    b, h, d = 2, 8, 64
    L = 1024
    tril = pairs_of(torch.ones(L, L, dtype=torch.bool).tril())
    attention_case(f, "square", backend, b, h, h, L, L, d)
    attention_case(f, "causal", backend, b, h, h, L, L, d, causal=True, visible=tril)
    ql, kl = 256, 1024
    top_left = pairs_of(torch.ones(ql, kl, dtype=torch.bool).tril())
    attention_case(f, "causal_q256_k1024", backend, b, h, h, ql, kl, d, causal=True,
                   visible=top_left, note="is_causal aligns to the top left")
    lower = causal_lower_right(ql, kl)
    bottom_right = pairs_of(lower._materialize(torch.device("cpu")))
    attention_case(f, "lower_right_q256_k1024", backend, b, h, h, ql, kl, d, bias=lower,
                   visible=bottom_right, note="causal_lower_right bias: chunked prefill")
    attention_case(f, "gqa_causal", backend, b, 16, 4, L, L, d, causal=True, visible=tril,
                   gqa=True)
    attention_case(f, "decode", backend, 8, 32, 32, 1, 4096, 128)
    win = 256
    i = torch.arange(L)[:, None]
    j = torch.arange(L)[None, :]
    window = (j <= i) & (i - j < win)
    attention_case(f, "window_mask_tensor", backend, b, h, h, L, L, d,
                   mask=window.to(DEV), visible=pairs_of(window),
                   note="sliding window 256 as a boolean mask tensor: every pair computed")
    attention_case(f, "causal_backward", backend, b, h, h, L, L, d, causal=True, visible=tril,
                   backward=True)
    return f


def sdpa_default_family():
    """SDPA left to choose: the cases where it falls back, with the reason the inputs give."""
    f = Family("sdpa-default")
    b, h, L, d = 2, 8, 512, 64
    tril = pairs_of(torch.ones(L, L, dtype=torch.bool).tril())
    attention_case(f, "bf16_causal", None, b, h, h, L, L, d, causal=True, visible=tril)
    attention_case(f, "fp32_causal", None, b, h, h, L, L, d, causal=True, visible=tril,
                   dtype=torch.float32, note="fp32: no flash or cuDNN kernel")
    attention_case(f, "fp64_causal", None, b, h, h, L, L, d, causal=True, visible=tril,
                   dtype=torch.float64, note="fp64: only math runs it")
    mask = torch.ones(L, L, dtype=torch.bool, device=DEV).tril()
    attention_case(f, "bf16_bool_mask", None, b, h, h, L, L, d, mask=mask, visible=tril,
                   note="an explicit mask: no flash")
    attention_case(f, "bf16_head_dim_512", None, b, h, h, L, L, 512, causal=True, visible=tril,
                   note="head dim 512: past flash's and cuDNN's limit")
    return f


def flex_family():
    from torch.nn.attention.flex_attention import create_block_mask, flex_attention
    f = Family("flex")
    b, h, L, d, win = 2, 8, 2048, 64, 256

    def window_mod(bi, hi, qi, ki):
        return (ki <= qi) & (qi - ki < win)
    block_mask = create_block_mask(window_mod, None, None, L, L, device=DEV)
    i = torch.arange(L)[:, None]
    j = torch.arange(L)[None, :]
    visible = pairs_of(window_mod(0, 0, i, j))
    compiled = torch.compile(flex_attention)
    q, k, v = rand(b, h, L, d), rand(b, h, L, d), rand(b, h, L, d)
    f.add("sliding_window_256", lambda: compiled(q, k, v, block_mask=block_mask),
          op="flex_attention", batch=b, heads=h, kv_heads=h, q_len=L, kv_len=L, head_dim=d,
          dtype="bfloat16", causal=True, window=win, visible_pairs=visible, all_pairs=L * L,
          flops_forward=2 * (d + d) * b * h * visible,
          block_mask=str(block_mask.shape), note="block mask: blocks outside the window skipped")
    return f


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out_dir")
    parser.add_argument("--budget", type=float, default=150)
    args = parser.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    print("torch", torch.__version__, torch.cuda.get_device_name(), flush=True)
    from torch.nn.attention import SDPBackend
    builders = [("gemm", gemm_family), ("conv", conv_family), ("memory", memory_family)]
    for name, backend in [("sdpa-math", SDPBackend.MATH),
                          ("sdpa-efficient", SDPBackend.EFFICIENT_ATTENTION),
                          ("sdpa-flash", SDPBackend.FLASH_ATTENTION),
                          ("sdpa-cudnn", SDPBackend.CUDNN_ATTENTION)]:
        builders.append((name, lambda n=name, be=backend: sdpa_family(n, be)))
    builders += [("sdpa-default", sdpa_default_family), ("flex", flex_family)]
    runs = Recordings(args.budget)
    entries = []

    def build_and_record(build):
        fam = build()
        fam.record(args.out_dir)
        entries.extend(fam.entries)
    for name, build in builders:
        runs.run(name, 90 if name == "flex" else 25, build_and_record, build)
    manifest = {"what": "op families recorded with record_shapes=True; FLOPs counted by brute "
                        "force (scripts/gpu/record_op_families.py)",
                "device": torch.cuda.get_device_name(), "torch": torch.__version__,
                "cases": entries}
    with open(os.path.join(args.out_dir, "op_families.json"), "w") as out:
        json.dump(manifest, out, indent=1)
    runs.write(os.path.join(args.out_dir, "status.json"))
    for e in entries:
        print(f"{e['trace'] or '-':24} {e['case']:26} {e['status']}", flush=True)


if __name__ == "__main__":
    main()
