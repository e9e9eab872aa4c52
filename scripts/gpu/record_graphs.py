#!/usr/bin/env python3
"""Records CUDA graphs and compiled attention as users profile them, and what Kineto writes for
the kernels of a graph replay under each torch.profiler._ExperimentalConfig option.

Run on the GPU machine: python3 record_graphs.py OUTDIR [--budget SECONDS] [--only NAME...]
Recordings (OUTDIR/NAME.json.gz; OUTDIR/status.json says what became of each):
  naive-graph-capture, naive-graph-replay  the study's naive attention (bf16, B=2, H=8, S=1024,
      D=64, causal) captured in a torch.cuda.CUDAGraph; "capture": the profiler is on from before
      the capture (ProfilerStep#0 captures, #1-#3 replay), "replay": replays alone (3 steps)
  sdpa-graph-capture, sdpa-graph-replay    the same with F.scaled_dot_product_attention
  hf-decode-graph-capture, -replay         a Llama decode step (record_models.py's llama, sdpa, a
      StaticCache) captured by hand; each step copies the next token in, moves the position on,
      replays, and takes the argmax outside the graph
  hf-decode-compiled-capture, -replay      the same decode step under torch.compile(mode=
      "reduce-overhead") (CUDA graph trees): "capture" profiles from the first call after the
      compile (the trees' warm-up and recording calls), "replay" only later calls
  naive-compiled                           torch.compile (default mode) of the naive variant
  kineto-options                           the naive graph's replays under each
      _ExperimentalConfig option that exists here (kineto-NAME.json.gz), and
      OUTDIR/kineto_fields.json: the args keys of graph kernels and of cudaGraphLaunch in each
scripts/gpu/record-models.sh runs this.
"""
import argparse
import inspect
import json
import os

import torch
import torch.nn.functional as F
from torch.profiler import ProfilerActivity, profile, record_function, schedule

from recording_runs import Recordings, error_text
from trace_files import save_trace

B, H, S, D = 2, 8, 1024, 64
SCALE = 1.0 / (D ** 0.5)
ACTIVITIES = [ProfilerActivity.CPU, ProfilerActivity.CUDA]


def naive(q, k, v, mask):
    """record_fixtures.py's naive variant."""
    s = torch.matmul(q, k.transpose(-2, -1))
    s = s * SCALE
    s = s.masked_fill(mask, float("-inf"))
    p = torch.softmax(s, dim=-1)
    return torch.matmul(p, v)


def sdpa(q, k, v, mask):
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)


def attention_inputs():
    g = torch.Generator(device="cuda").manual_seed(0)
    q, k, v = (torch.randn(B, H, S, D, device="cuda", dtype=torch.bfloat16, generator=g)
               for _ in range(3))
    mask = torch.triu(torch.ones(S, S, dtype=torch.bool, device="cuda"), diagonal=1)
    return q, k, v, mask


def warm_on_side_stream(fn, times=3):
    """Warm-up before a capture runs on a side stream, as torch.cuda.graphs documents."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(times):
            fn()
    torch.cuda.current_stream().wait_stream(side)
    torch.cuda.synchronize()


def captured(fn):
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = fn()
    return graph, out


def profile_graph(out_dir, name, capture, fn, before_replay=None, after_replay=None):
    """Profiles 4 steps: with `capture`, step #0 captures `fn` and #1-#3 replay it; otherwise the
    capture happens before the profiler starts and 3 replays are profiled (after a warm-up)."""
    warm_on_side_stream(fn)

    def replay(graph):
        if before_replay:
            before_replay()
        graph.replay()
        if after_replay:
            after_replay()

    if capture:
        with profile(activities=ACTIVITIES, record_shapes=True,
                     schedule=schedule(wait=0, warmup=0, active=4, repeat=1),
                     on_trace_ready=lambda p: save_trace(p, out_dir, name)) as prof:
            with record_function("capture"):
                graph, _ = captured(fn)
            torch.cuda.synchronize()
            prof.step()
            for _ in range(3):
                replay(graph)
                torch.cuda.synchronize()
                prof.step()
        return
    graph, _ = captured(fn)
    replay(graph)
    torch.cuda.synchronize()
    with profile(activities=ACTIVITIES, record_shapes=True,
                 schedule=schedule(wait=0, warmup=1, active=3, repeat=1),
                 on_trace_ready=lambda p: save_trace(p, out_dir, name)) as prof:
        for _ in range(4):
            replay(graph)
            torch.cuda.synchronize()
            prof.step()


def record_attention_graph(out_dir, variant, capture):
    q, k, v, mask = attention_inputs()
    fn = {"naive": naive, "sdpa": sdpa}[variant]
    with torch.no_grad():
        profile_graph(out_dir, f"{variant}-graph-{'capture' if capture else 'replay'}", capture,
                      lambda: fn(q, k, v, mask))


def llama_with_static_cache(prompt_len=512, max_len=1024, batch=2):
    """record_models.py's llama (sdpa) with a StaticCache that a prompt has filled; returns the
    model, the cache and the first generated token."""
    from transformers import StaticCache
    from record_models import build, config, tokens
    net = build("llama", "sdpa").eval()
    cache = StaticCache(config=config("llama"), max_cache_len=max_len)
    with torch.inference_mode():
        prompt = tokens((batch, prompt_len))
        pos = torch.arange(prompt_len, device="cuda")
        out = net(input_ids=prompt, past_key_values=cache, cache_position=pos,
                  use_cache=True, logits_to_keep=1)
    return net, cache, out.logits[:, -1:].argmax(-1)


class DecodeState:
    """The static buffers one decode step reads: the token and its position; each step feeds the
    last argmax back in and moves the position one on (outside the graph, as a serving loop does)."""

    def __init__(self, net, cache, first_token, prompt_len=512):
        self.net, self.cache = net, cache
        self.token = first_token.clone()
        self.position = torch.tensor([prompt_len], device="cuda")
        self.logits = None

    def forward(self):
        out = self.net(input_ids=self.token, past_key_values=self.cache,
                       cache_position=self.position, position_ids=self.position[None].expand(
                           self.token.shape[0], 1), use_cache=True)
        return out.logits

    def advance(self):
        self.token.copy_(self.logits[:, -1:].argmax(-1))
        self.position.add_(1)


def record_hf_decode_graph(out_dir, capture):
    net, cache, first = llama_with_static_cache()
    state = DecodeState(net, cache, first)
    with torch.inference_mode():
        warm_on_side_stream(state.forward)

        def fn():
            state.logits = state.forward()
            return state.logits
        profile_graph(out_dir, f"hf-decode-graph-{'capture' if capture else 'replay'}", capture,
                      fn, after_replay=state.advance)


def record_hf_decode_compiled(out_dir, capture):
    torch._dynamo.reset()
    net, cache, first = llama_with_static_cache()
    state = DecodeState(net, cache, first)
    step = torch.compile(state.forward, mode="reduce-overhead")

    def decode():
        with torch.inference_mode():
            state.logits = step()
            state.advance()
    decode()  # the compile, outside the trace
    torch.cuda.synchronize()
    name = f"hf-decode-compiled-{'capture' if capture else 'replay'}"
    if not capture:
        for _ in range(3):  # the trees' warm-up and recording calls, then a replay
            decode()
        torch.cuda.synchronize()
    with profile(activities=ACTIVITIES, record_shapes=True,
                 schedule=schedule(wait=0, warmup=0 if capture else 1, active=4 if capture else 3,
                                   repeat=1),
                 on_trace_ready=lambda p: save_trace(p, out_dir, name)) as prof:
        for _ in range(4):
            decode()
            torch.cuda.synchronize()
            prof.step()


def record_naive_compiled(out_dir):
    torch._dynamo.reset()
    q, k, v, mask = attention_inputs()
    compiled = torch.compile(naive)
    with torch.no_grad():
        for _ in range(3):
            compiled(q, k, v, mask)
        torch.cuda.synchronize()
        with profile(activities=ACTIVITIES, record_shapes=True,
                     schedule=schedule(wait=1, warmup=1, active=3, repeat=1),
                     on_trace_ready=lambda p: save_trace(p, out_dir, "naive-compiled")) as prof:
            for _ in range(5):
                with record_function("forward"):
                    compiled(q, k, v, mask)
                torch.cuda.synchronize()
                prof.step()


def graph_fields(path):
    """The args keys of the kernels, of cudaGraphLaunch and the keys' values of the first of each,
    read back from a saved trace."""
    import gzip
    with gzip.open(path) as f:
        events = json.load(f)["traceEvents"]
    kernels = [e for e in events if e.get("cat") == "kernel"]
    launches = [e for e in events if e.get("name") == "cudaGraphLaunch"]
    keys = sorted({k for e in kernels for k in e.get("args", {})})
    return {"kernels": len(kernels), "graph_launches": len(launches), "kernel_arg_keys": keys,
            "launch_arg_keys": sorted({k for e in launches for k in e.get("args", {})}),
            "first_kernel": kernels[0] if kernels else None,
            "first_launch": launches[0] if launches else None,
            "categories": sorted({str(e.get("cat")) for e in events})}


def record_kineto_options(out_dir):
    """The naive graph's replays profiled under the default config and under each boolean
    _ExperimentalConfig option that exists in this torch, one trace each."""
    import re
    from torch.profiler import _ExperimentalConfig
    try:
        signature = str(inspect.signature(_ExperimentalConfig))
    except (TypeError, ValueError):
        signature = ""
    if "bool" not in signature:  # a pybind11 class: its __init__'s docstring has the names
        signature = _ExperimentalConfig.__init__.__doc__ or ""
    print("_ExperimentalConfig", signature, flush=True)
    report = {"signature": signature, "options": {}}
    # Every boolean option is tried: a flag that adds graph fields would show in the kernels' args.
    # profiler_measure_per_kernel only means something with profiler_metrics (CUPTI's range
    # profiler, docs/counters.md), which is not what is asked of these traces.
    names = [n for n in dict.fromkeys(re.findall(r"(\w+): bool", signature))
             if n != "profiler_measure_per_kernel"]
    q, k, v, mask = attention_inputs()
    with torch.no_grad():
        warm_on_side_stream(lambda: naive(q, k, v, mask))
        graph, _ = captured(lambda: naive(q, k, v, mask))
    for option in ["default"] + names:
        entry = {}
        report["options"][option] = entry
        try:
            config = _ExperimentalConfig() if option == "default" else \
                _ExperimentalConfig(**{option: True})
            name = f"kineto-{option}"
            with profile(activities=ACTIVITIES, experimental_config=config,
                         schedule=schedule(wait=0, warmup=1, active=2, repeat=1),
                         on_trace_ready=lambda p, n=name: save_trace(p, out_dir, n)) as prof:
                for _ in range(3):
                    graph.replay()
                    torch.cuda.synchronize()
                    prof.step()
            entry.update(graph_fields(os.path.join(out_dir, name + ".json.gz")))
        except Exception as e:
            entry["error"] = error_text(e)
        print(option, json.dumps({k: v for k, v in entry.items()
                                  if k not in ("first_kernel", "first_launch")}), flush=True)
    with open(os.path.join(out_dir, "kineto_fields.json"), "w") as f:
        json.dump(report, f, indent=1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out_dir")
    parser.add_argument("--budget", type=float, default=170, help="seconds for all recordings")
    parser.add_argument("--only", nargs="*", help="names of the recordings to make")
    args = parser.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    print("torch", torch.__version__, torch.cuda.get_device_name(), flush=True)
    out = args.out_dir
    plan = [
        ("naive-graph-capture", 15, record_attention_graph, out, "naive", True),
        ("naive-graph-replay", 15, record_attention_graph, out, "naive", False),
        ("sdpa-graph-capture", 15, record_attention_graph, out, "sdpa", True),
        ("sdpa-graph-replay", 15, record_attention_graph, out, "sdpa", False),
        ("hf-decode-graph-capture", 30, record_hf_decode_graph, out, True),
        ("hf-decode-graph-replay", 30, record_hf_decode_graph, out, False),
        ("naive-compiled", 45, record_naive_compiled, out),
        ("hf-decode-compiled-replay", 75, record_hf_decode_compiled, out, False),
        ("hf-decode-compiled-capture", 75, record_hf_decode_compiled, out, True),
        # Last: an option that crashes the profiler takes only itself down.
        ("kineto-options", 45, record_kineto_options, out),
    ]
    runs = Recordings(args.budget)
    for name, budget, fn, *fn_args in plan:
        if not args.only or name in args.only:
            runs.run(name, budget, fn, *fn_args)
    runs.write(os.path.join(out, "status.json"))


if __name__ == "__main__":
    main()
