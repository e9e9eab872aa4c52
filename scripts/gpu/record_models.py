#!/usr/bin/env python3
"""Records Hugging Face causal language models, built from a config with random weights (no
download), as users profile them: every attention implementation transformers offers here, three
workloads each, and the unprofiled step times of all of them.

Run on the GPU machine: python3 record_models.py OUTDIR [--budget SECONDS] [--only NAME...]
Models: llama (GQA: 16 query heads, 4 KV heads) and mistral (GQA 16/8, a 256-token sliding
window), both hidden 1024, head dim 64, 2 layers, vocab 4096, bf16 weights.
Implementations: eager, sdpa, flash_attention_2, flash_attention_3, flex_attention (one that
cannot be built here is written down as unavailable, with its exception text).
Workloads: train (batch 2 x 512 tokens: forward with labels, backward, AdamW step), prefill
(batch 2 x 512 tokens, inference mode, logits of the last token) and decode (one token per step
for batch 2 after a 512-token prompt, a DynamicCache).
Each trace: torch.profiler with schedule(wait=1, warmup=1, active=2), on_trace_ready,
record_shapes and with_stack, so it holds ProfilerStep#2 and #3 and the nn.Module events (--active
1: ProfilerStep#2 alone); written
OUTDIR/MODEL-WORKLOAD-IMPL[-fp32][-memory].json.gz: --dtype float32 builds the model in fp32 (the
pair of one model in two dtypes that `diff` is tested on), --profile-memory adds profile_memory=True
(every allocation and free as a [memory] event, for the memory analysis). OUTDIR/step_times.json holds the median of 10 unprofiled
steps (CUDA events, after 3 warm-up steps) per model x workload x implementation;
OUTDIR/status.json what became of each recording. scripts/gpu/record-models.sh runs this.
"""
import argparse
import os

import torch
from torch.profiler import ProfilerActivity, profile, schedule

from recording_runs import Recordings, error_text, median_ms
from trace_files import save_trace

BATCH, SEQ = 2, 512
IMPLEMENTATIONS = ["eager", "sdpa", "flash_attention_2", "flash_attention_3", "flex_attention"]
WORKLOADS = ["prefill", "decode", "train"]


def config(model):
    from transformers import LlamaConfig, MistralConfig
    shared = dict(hidden_size=1024, intermediate_size=2816, num_hidden_layers=2,
                  num_attention_heads=16, vocab_size=4096, max_position_embeddings=2048)
    if model == "llama":
        return LlamaConfig(num_key_value_heads=4, **shared)
    if model == "mistral":
        return MistralConfig(num_key_value_heads=8, sliding_window=256, **shared)
    raise ValueError(model)


DTYPES = {"bfloat16": torch.bfloat16, "float32": torch.float32}


def build(model, impl, dtype):
    from transformers import AutoModelForCausalLM
    torch.manual_seed(0)
    return AutoModelForCausalLM.from_config(config(model), attn_implementation=impl,
                                            dtype=DTYPES[dtype]).cuda()


def tokens(shape, vocab=4096):
    g = torch.Generator(device="cuda").manual_seed(0)
    return torch.randint(0, vocab, shape, device="cuda", generator=g)


def train_step(net):
    net.train()
    opt = torch.optim.AdamW(net.parameters(), lr=1e-4)
    ids = tokens((BATCH, SEQ))

    def step():
        loss = net(input_ids=ids, labels=ids).loss
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
    return step


def prefill_step(net):
    net.eval()
    ids = tokens((BATCH, SEQ))

    def step():
        with torch.inference_mode():
            net(input_ids=ids, logits_to_keep=1)
    return step


def decode_step(net):
    """One new token a step against a DynamicCache that the prompt filled; the cache grows by a
    token each step (about 20 over the timing and the profiled steps)."""
    net.eval()
    with torch.inference_mode():
        out = net(input_ids=tokens((BATCH, SEQ)), use_cache=True, logits_to_keep=1)
    state = {"cache": out.past_key_values, "next": out.logits[:, -1:].argmax(-1)}

    def step():
        with torch.inference_mode():
            out = net(input_ids=state["next"], past_key_values=state["cache"], use_cache=True)
            state["next"] = out.logits[:, -1:].argmax(-1)
    return step


STEPS = {"train": train_step, "prefill": prefill_step, "decode": decode_step}


def profile_steps(step, out_dir, name, active, profile_memory):
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                 schedule=schedule(wait=1, warmup=1, active=active, repeat=1),
                 on_trace_ready=lambda p: save_trace(p, out_dir, name),
                 record_shapes=True, with_stack=True, profile_memory=profile_memory) as prof:
        for _ in range(2 + active):
            step()
            torch.cuda.synchronize()
            prof.step()


def record(out_dir, row, model, impl, workload, args):
    try:
        net = build(model, impl, args.dtype)
    except Exception as e:  # an implementation this machine lacks is a row, not a failure
        row.update(status="unavailable", error=error_text(e))
        print(f"{model} {impl}: unavailable: {row['error']}", flush=True)
        return
    step = STEPS[workload](net)
    row.update(median_ms(step))
    profile_steps(step, out_dir, trace_name(f"{model}-{workload}-{impl}", args), args.active,
                  args.profile_memory)
    row["status"] = "ok"
    print(f"{model} {workload} {impl}: median {row['median_ms']} ms", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out_dir")
    parser.add_argument("--budget", type=float, default=240, help="seconds for all recordings")
    parser.add_argument("--only", nargs="*", help="MODEL-WORKLOAD-IMPL names to record")
    parser.add_argument("--active", type=int, default=2,
                        help="profiled steps (a flex_attention step writes ~8 MB of JSON)")
    parser.add_argument("--dtype", choices=sorted(DTYPES), default="bfloat16",
                        help="the weights' and activations' type (default bfloat16)")
    parser.add_argument("--profile-memory", action="store_true",
                        help="record every allocation and free ([memory] events)")
    args = parser.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    import transformers
    print("torch", torch.__version__, "cuda", torch.version.cuda, "transformers",
          transformers.__version__, torch.cuda.get_device_name(), flush=True)
    runs = Recordings(args.budget)
    rows = []
    # flex_attention compiles (tens of seconds a shape), so it goes last, with a larger budget.
    for impl in IMPLEMENTATIONS:
        for model in ["llama", "mistral"]:
            for workload in WORKLOADS:
                name = f"{model}-{workload}-{impl}"
                if args.only and name not in args.only:
                    continue
                budget = 60 if impl == "flex_attention" else 30
                row = {"model": model, "workload": workload, "implementation": impl,
                       "status": "failed"}
                rows.append(row)
                runs.run(name, budget, record, args.out_dir, row, model, impl, workload, args)
                if runs.status[-1]["status"] != "ok":
                    row["status"] = runs.status[-1]["status"]
                    row["error"] = runs.status[-1].get("error", "")
    write_step_times(args.out_dir, rows, args.dtype)
    runs.write(os.path.join(args.out_dir, "status.json"))


def trace_name(name, args):
    """The trace's file name: the defaults keep the names tests/data/models ships."""
    return name + ("-fp32" if args.dtype == "float32" else "") + (
        "-memory" if args.profile_memory else "")


def write_step_times(out_dir, rows, dtype):
    import json
    import transformers
    table = {
        "what": "median step time of 10 unprofiled steps (CUDA events, after 3 warm-up steps)",
        "device": torch.cuda.get_device_name(), "torch": torch.__version__,
        "cuda": torch.version.cuda, "transformers": transformers.__version__,
        "problem": {"batch": BATCH, "tokens": SEQ, "layers": 2, "hidden": 1024, "heads": 16,
                    "kv_heads": {"llama": 4, "mistral": 8}, "head_dim": 64, "vocab": 4096,
                    "dtype": dtype, "mistral_sliding_window": 256,
                    "decode": "one token a step after a 512-token prompt, DynamicCache"},
        "rows": rows,
    }
    with open(os.path.join(out_dir, "step_times.json"), "w") as f:
        json.dump(table, f, indent=1)
    for r in rows:
        print(f"{r['model']:8} {r['workload']:8} {r['implementation']:18} {r['status']:12} "
              f"{r.get('median_ms', '')}", flush=True)


if __name__ == "__main__":
    main()
