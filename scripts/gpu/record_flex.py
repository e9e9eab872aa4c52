#!/usr/bin/env python3
"""FlexAttention (torch.compile) beside SDPA's fused backends, recorded the way `attnprof bench`
records its variants, into a folder that `attnprof report`, `diff` and `check` read like the
bench's own.

Run on a CUDA machine with PyTorch (the project's GPU machine):
  python3 scripts/gpu/record_flex.py OUTDIR [--batch 4] [--heads 16] [--kv-heads HEADS]
      [--seq 2048] [--q-seq SEQ] [--head-dim 64] [--dtype bf16|fp16|fp32]
      [--mask causal|none|explicit] [--window 0] [--variants flex,sdpa-flash,...]
      [--time-budget 1] [--min-reps 30] [--max-reps 5000] [--trace-regions 5] [--seed N]
      [--attnprof PATH]
  python3 scripts/gpu/record_flex.py --facts-only OUTDIR [--attnprof PATH]   (no torch needed)

Variants: flex (flex_attention compiled by torch.compile, its block mask built once from the
problem's mask), sdpa-flash and sdpa-cudnn (the baselines), sdpa-fa3 and sdpa-fa4 (SDPA's flash
backend with FlashAttention 3 or 4 activated through torch.nn.attention's registry; "unsupported",
with the registry's own words, where their module is not installed).

Writes OUTDIR/summary.json (schemaVersion 2, docs/json-schema.md), one Kineto trace per variant
under OUTDIR/traces/, and through attnprof (the trace facts are the core's: `attnprof analyze`
reads each trace) the facts of each trace in summary.json, which `attnprof summary-json` then
writes with the core's writer (the bench's), then summary.md and table.txt (`attnprof report`).
Without an attnprof binary the measurements are written as a draft (json.dump's order) and the
facts left null; `--facts-only OUTDIR` adds them and rewrites the file later where one is built. bench/README.md ("FlexAttention")
says why this is Python and how it measures.
Exit status: 0 when every variant ran or was unsupported, 1 when one failed or erred, 2 on bad
input.
"""
import argparse
import contextlib
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)  # trace_files.py, shared with record_fixtures.py and record_foreign.py
ALL_VARIANTS = ["flex", "sdpa-flash", "sdpa-cudnn", "sdpa-fa3", "sdpa-fa4"]
THRESHOLDS = {"bf16": 2e-2, "fp16": 5e-3, "fp32": 1e-4}  # bench/src/problem.cpp error_threshold
ELEMENT_BYTES = {"bf16": 2, "fp16": 2, "fp32": 4}
REGION = "forward"  # the bench's user annotation per traced call (libtorch/trace_capture.cpp)


class BadInput(Exception):
    """One line for the user; exit status 2."""


# ---------------------------------------------------------------------------------------------
# The problem: the bench's options and its rules (bench/src/problem.h).

def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="record_flex.py",
        description="FlexAttention beside SDPA's fused backends, as attnprof bench records them")
    p.add_argument("out", metavar="OUTDIR", help="folder for summary.json, traces/, summary.md")
    p.add_argument("--facts-only", action="store_true",
                   help="only read the traces of OUTDIR into its summary.json and render it")
    p.add_argument("--batch", type=int, default=4)
    p.add_argument("--heads", type=int, default=16, help="query heads")
    p.add_argument("--kv-heads", type=int, default=0,
                   help="key/value heads (default: --heads); fewer is grouped-query attention")
    p.add_argument("--seq", type=int, default=2048, help="keys and values")
    p.add_argument("--q-seq", type=int, default=0,
                   help="queries (default: --seq): the sequence's last ones, causal aligned to "
                        "the end")
    p.add_argument("--head-dim", type=int, default=64)
    p.add_argument("--dtype", choices=sorted(THRESHOLDS), default="bf16")
    p.add_argument("--mask", choices=["causal", "none", "explicit"], default="causal")
    p.add_argument("--window", type=int, default=0,
                   help="sliding window: each query sees the W keys ending at its position")
    p.add_argument("--variants", default=",".join(ALL_VARIANTS),
                   help="comma-separated, of " + ", ".join(ALL_VARIANTS))
    p.add_argument("--time-budget", type=float, default=1.0, help="seconds of timed calls")
    p.add_argument("--min-reps", type=int, default=30)
    p.add_argument("--max-reps", type=int, default=5000)
    p.add_argument("--trace-regions", type=int, default=5)
    p.add_argument("--seed", type=int, default=None, help="default: a fresh one")
    p.add_argument("--attnprof", default=None,
                   help="the attnprof binary (default: $ATTNPROF, attnprof on PATH, or the "
                        "project's build/release/attnprof)")
    args = p.parse_args(argv)
    if args.kv_heads == 0:
        args.kv_heads = args.heads
    if args.q_seq == 0:
        args.q_seq = args.seq
    return args


def check_problem(a):
    """The bench's shape rules (problem.cpp shape_error); raises BadInput."""
    if min(a.batch, a.heads, a.kv_heads, a.seq, a.q_seq, a.head_dim) <= 0:
        raise BadInput("--batch, --heads, --kv-heads, --seq, --q-seq and --head-dim must be "
                       "positive")
    if a.heads % a.kv_heads:
        raise BadInput(f"--kv-heads {a.kv_heads} does not divide --heads {a.heads}: each KV "
                       "head serves the same number of query heads")
    if a.q_seq > a.seq:
        raise BadInput(f"--q-seq {a.q_seq} is longer than --seq {a.seq} (the keys, which "
                       "include the queries' own positions)")
    if a.window < 0:
        raise BadInput("--window must be 0 (none) or positive")
    if a.window > 0 and a.mask == "none":
        raise BadInput("--window needs the causal pattern (--mask causal or explicit), "
                       "not --mask none")
    if a.time_budget <= 0 or a.min_reps <= 0 or a.max_reps < a.min_reps or a.trace_regions <= 0:
        raise BadInput("--time-budget, --min-reps and --trace-regions must be positive and "
                       "--max-reps at least --min-reps")
    variants = [v for v in a.variants.split(",") if v]
    unknown = [v for v in variants if v not in ALL_VARIANTS]
    if unknown or not variants:
        raise BadInput(f"--variants: unknown {', '.join(unknown) or '(none given)'}; choose "
                       f"from {', '.join(ALL_VARIANTS)}")
    return variants


def causal(a):
    return a.mask != "none"


def keys_seen(a, position):
    """The keys the query at absolute `position` sees."""
    if not causal(a):
        return a.seq
    return min(position + 1, a.window) if a.window > 0 else position + 1


def visible_pairs(a):
    """Query i sits at absolute position i + seq - q_seq (the queries are the last ones)."""
    offset = a.seq - a.q_seq
    return sum(keys_seen(a, offset + i) for i in range(a.q_seq))


def attention_flops(a):
    """4·D per visible query-key pair and query head (q·kᵀ and p·v), as the bench counts."""
    return 4.0 * a.batch * a.heads * visible_pairs(a) * a.head_dim


def kv_bytes(a):
    """K and V alone (2·B·KVH·S·D elements): what a decode step streams."""
    return 2.0 * a.batch * a.kv_heads * a.seq * a.head_dim * ELEMENT_BYTES[a.dtype]


def minimal_bytes(a):
    """The least one forward moves: q and out once each, k and v once each."""
    q = a.batch * a.heads * a.q_seq * a.head_dim * ELEMENT_BYTES[a.dtype]
    return 2.0 * q + kv_bytes(a)


def input_set_bytes(a):
    q = a.batch * a.heads * a.q_seq * a.head_dim * ELEMENT_BYTES[a.dtype]
    kv = a.batch * a.kv_heads * a.seq * a.head_dim * ELEMENT_BYTES[a.dtype]
    return q + 2 * kv


def rotation_set_count(set_bytes, l2_bytes, memory_budget):
    """bench/src/libtorch/timing.cpp: at least 3 sets, together more than twice the L2."""
    sets = 3
    if set_bytes > 0 and l2_bytes > 0:
        sets = max(sets, (2 * l2_bytes) // set_bytes + 1)
    if set_bytes > 0 and memory_budget > 0:
        sets = min(sets, memory_budget // set_bytes)
    return int(min(max(sets, 3), 4096))


def describe(a):
    """The problem in words, for the notes."""
    heads = f"{a.heads} heads" + (f" ({a.kv_heads} KV)" if a.kv_heads != a.heads else "")
    seq = (f"seq {a.seq}" if a.q_seq == a.seq else
           f"{a.q_seq} {'query' if a.q_seq == 1 else 'queries'} against {a.seq} keys")
    mask = {"causal": "causal", "none": "no mask", "explicit": "explicit causal mask"}[a.mask]
    if a.window:
        mask += f", window {a.window}"
    return f"{a.dtype}, batch {a.batch}, {heads}, {seq}, head dim {a.head_dim}, {mask}"


# ---------------------------------------------------------------------------------------------
# The datasheet peaks: the core's table (src/analysis/gpu_datasheet.cpp, docs/GPU_DATASHEET.md),
# asked of attnprof (`attnprof datasheet --device NAME`), so that there is one table.

def datasheet(device_name, attnprof=None):
    """The row of `device_name`: bf16, fp16, tf32, fp32 TFLOP/s, memory TB/s, and the peaks'
    source; None for a GPU not in the table or without an attnprof binary to ask."""
    attnprof = find_attnprof(attnprof)
    if not attnprof:
        return None
    done = subprocess.run([attnprof, "datasheet", "--format", "json", "--device", device_name],
                          capture_output=True, text=True)
    try:
        row = json.loads(done.stdout) if done.returncode == 0 else None
    except ValueError:
        row = None
    if not row:
        return None
    return [row["bf16_tflops"], row["fp16_tflops"], row["tf32_tflops"], row["fp32_tflops"],
            row["memory_gb_per_s"] / 1e3, f"{row['source']}, dense, without sparsity"]


def dense_peak(device_name, dtype, tf32, attnprof=None):
    row = datasheet(device_name, attnprof)
    if not row:
        return None
    bf16, fp16, tf32_rate, fp32, _, source = row
    rate, precision = {"bf16": (bf16, "bf16"), "fp16": (fp16, "fp16"),
                       "fp32": (tf32_rate, "tf32") if tf32 else (fp32, "fp32")}[dtype]
    return {"tflops": rate, "precision": precision, "source": source}


def hbm_bandwidth(device_name, attnprof=None):
    """The bandwidth a K/V rate is compared with: the datasheet's (the bench's, without
    --counters; the recorder measures no copy kernel)."""
    row = datasheet(device_name, attnprof)
    return {"bytes_per_s": row[4] * 1e12, "source": "the datasheet's"} if row else None


# ---------------------------------------------------------------------------------------------
# Measurement (torch imported here, so that --facts-only runs where torch is not installed).

def first_line(error):
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}".strip()


class Recorder:
    def __init__(self, a):
        import torch
        self.torch = torch
        self.a = a
        self.dtype = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}[a.dtype]
        self.gqa = a.kv_heads < a.heads
        self.scale = 1.0 / math.sqrt(a.head_dim)
        props = torch.cuda.get_device_properties(0)
        self.l2_bytes = int(getattr(props, "L2_cache_size", 0))
        self.memory_bytes = int(props.total_memory)
        self.keep = self.keep_mask()

    def keep_mask(self):
        """The problem's mask as a boolean (q_seq, seq) tensor, True where a query sees a key;
        None without a mask."""
        torch, a = self.torch, self.a
        if not causal(a):
            return None
        pos = torch.arange(a.q_seq, device="cuda").unsqueeze(1) + (a.seq - a.q_seq)
        key = torch.arange(a.seq, device="cuda").unsqueeze(0)
        keep = key <= pos
        if a.window:
            keep &= pos - key < a.window
        return keep

    def input_set(self, seed):
        torch, a = self.torch, self.a
        torch.manual_seed(seed % (1 << 64))
        q = torch.randn(a.batch, a.heads, a.q_seq, a.head_dim, device="cuda", dtype=self.dtype)
        k = torch.randn(a.batch, a.kv_heads, a.seq, a.head_dim, device="cuda", dtype=self.dtype)
        v = torch.randn(a.batch, a.kv_heads, a.seq, a.head_dim, device="cuda", dtype=self.dtype)
        return q, k, v

    # -- the variants: each returns call(q, k, v) -> out, or raises

    def flex(self, notes):
        torch, a = self.torch, self.a
        from torch.nn.attention.flex_attention import create_block_mask, flex_attention
        block_mask = None
        if causal(a):
            offset, window = a.seq - a.q_seq, a.window

            def mask_mod(b, h, q_idx, kv_idx):
                position = q_idx + offset
                keep = kv_idx <= position
                return keep & (position - kv_idx < window) if window else keep

            start = time.perf_counter()
            block_mask = create_block_mask(mask_mod, None, None, a.q_seq, a.seq, device="cuda")
            torch.cuda.synchronize()
            notes["block_mask_s"] = time.perf_counter() - start
            notes["sparsity"] = float(block_mask.sparsity())
        compiled = torch.compile(flex_attention, dynamic=False)

        def call(q, k, v):
            return compiled(q, k, v, block_mask=block_mask, scale=self.scale,
                            enable_gqa=self.gqa)
        return call

    def sdpa(self):
        """SDPA as the variant's backend pin (entered once around the variant, as the bench pins
        it: a pin per call would add its Python cost to every call) lets it run."""
        a = self.a
        import torch.nn.functional as F
        # is_causal aligns the mask to the top left: only the square causal problem can use it;
        # a shorter query block, a window or --mask explicit pass the mask as a tensor.
        plain_causal = a.mask == "causal" and a.q_seq == a.seq and not a.window
        mask = None if plain_causal else self.keep
        kwargs = {"enable_gqa": True} if self.gqa else {}

        def call(q, k, v):
            return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=plain_causal,
                                                  scale=self.scale, **kwargs)
        return call

    # -- the method of the bench (bench/src/libtorch/variant_runner.cpp)

    def relative_error(self, out, q, k, v):
        """||out - ref||_F / ||ref||_F against attention in float64, a few heads at a time."""
        torch, a = self.torch, self.a
        group = a.heads // a.kv_heads
        k = k.repeat_interleave(group, dim=1) if group > 1 else k
        v = v.repeat_interleave(group, dim=1) if group > 1 else v
        flat = lambda t, n: t.reshape(a.batch * a.heads, n, a.head_dim)
        q, k, v, out = flat(q, a.q_seq), flat(k, a.seq), flat(v, a.seq), flat(out, a.q_seq)
        chunk = max(1, int(2 * (1 << 30) / (a.q_seq * a.seq * 8 * 4)))
        diff = ref_sq = 0.0
        for first in range(0, a.batch * a.heads, chunk):
            part = slice(first, first + chunk)
            s = torch.matmul(q[part].double(), k[part].double().transpose(-2, -1)) * self.scale
            if self.keep is not None:
                s = s.masked_fill(~self.keep, float("-inf"))
            ref = torch.matmul(torch.softmax(s, dim=-1), v[part].double())
            diff += (out[part].double() - ref).square().sum().item()
            ref_sq += ref.square().sum().item()
        if ref_sq == 0:
            return 0.0 if diff == 0 else math.inf
        return math.sqrt(diff / ref_sq)

    def time_calls(self, call):
        """Warm-up (at least 3 calls and a tenth of the budget, at most 0.5 s), three probes, then
        CUDA events around each of as many calls as fill the budget, within the reps' bounds."""
        torch, a = self.torch, self.a
        start, i = time.perf_counter(), 0
        while True:
            call(i)
            i += 1
            if i < 3:
                continue
            torch.cuda.synchronize()
            if time.perf_counter() - start >= min(0.5, a.time_budget / 10):
                break

        def timed(first, reps):
            starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
            ends = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
            for r in range(reps):
                starts[r].record()
                call(first + r)
                ends[r].record()
            ends[-1].synchronize()
            return [s.elapsed_time(e) for s, e in zip(starts, ends)]

        per_call = max(1e-3, max(timed(i, 3)))
        reps = int(min(max(math.ceil(1e3 * a.time_budget / per_call), a.min_reps), a.max_reps))
        times = sorted(timed(i + 3, reps))
        n = len(times)
        median = times[n // 2] if n % 2 else 0.5 * (times[n // 2 - 1] + times[n // 2])
        return {"median_ms": median, "min_ms": times[0], "max_ms": times[-1],
                "mean_ms": sum(times) / n, "reps": n}

    def peak_allocated(self, call):
        torch = self.torch
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        before = torch.cuda.memory_allocated()
        call()
        torch.cuda.synchronize()
        return int(torch.cuda.max_memory_allocated() - before)

    def trace(self, call, sets, path_dir, name):
        """The bench's trace: one `warmup` region, then `forward` regions, each call synchronized
        (libtorch/trace_capture.cpp)."""
        torch = self.torch
        from torch.profiler import ProfilerActivity, profile, record_function
        from trace_files import save_trace
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                     record_shapes=True) as prof:
            with record_function("warmup"):
                call(0)
            torch.cuda.synchronize()
            for i in range(self.a.trace_regions):
                with record_function(REGION):
                    call((i + 1) % sets)
                torch.cuda.synchronize()
        return save_trace(prof, path_dir, name)

    def run(self, name, seed, traces_dir, notes):
        """One variant, measured; never raises (the bench's per-variant boundary)."""
        torch, a = self.torch, self.a
        m = {"variant": name, "status": "ok", "reason": "", "chosen_backend": "",
             "correctness": None, "timing": None, "peak_allocated_bytes": None, "trace": None}
        impl = {"sdpa-fa3": "FA3", "sdpa-fa4": "FA4"}.get(name)
        activated = False
        has_run = False
        try:
            if impl:
                reason = activate_flash_impl(impl)
                if reason:
                    m["status"], m["reason"] = "unsupported", reason
                    return m
                activated = True
            from torch.nn.attention import SDPBackend, sdpa_kernel
            if name == "flex":
                fn, pin = self.flex(notes), contextlib.nullcontext()
            else:
                backend = (SDPBackend.CUDNN_ATTENTION if name == "sdpa-cudnn" else
                           SDPBackend.FLASH_ATTENTION)
                fn, pin = self.sdpa(), sdpa_kernel(backend)
            with torch.no_grad(), pin:
                q, k, v = self.input_set(seed + 1)
                with warnings.catch_warnings(record=True) as said:
                    warnings.simplefilter("always")
                    start = time.perf_counter()
                    try:
                        out = fn(q, k, v)
                        torch.cuda.synchronize()
                    except RuntimeError as e:
                        if name == "flex":
                            raise
                        # A pinned SDPA backend that refuses the shape: unsupported, in
                        # PyTorch's words (its warnings say why, the error only that it did).
                        m["status"] = "unsupported"
                        m["reason"] = sdpa_reasons(str(w.message) for w in said) or first_line(e)
                        return m
                    notes.setdefault("first_call_s", {})[name] = time.perf_counter() - start
                has_run = True
                error = self.relative_error(out, q, k, v)
                del out, q, k, v
                threshold = THRESHOLDS[a.dtype]
                m["correctness"] = {"threshold": threshold, "output_error": error,
                                    "grad_error": None, "passed": error <= threshold}
                if not error <= threshold:
                    m["status"] = "failed"
                    m["reason"] = f"relative error {error:.3g} above {threshold:g}"
                torch.cuda.empty_cache()

                set_bytes = input_set_bytes(a)
                sets = rotation_set_count(set_bytes, self.l2_bytes, self.memory_bytes // 8)
                inputs = [self.input_set(seed + 2 + i) for i in range(sets)]
                m["peak_allocated_bytes"] = self.peak_allocated(lambda: fn(*inputs[0]))
                timing = self.time_calls(lambda i: fn(*inputs[i % sets]))
                timing.update({"input_sets": sets, "input_set_bytes": set_bytes})
                m["timing"] = timing
                path = self.trace(lambda i: fn(*inputs[i % sets]), sets, traces_dir, name)
                m["trace"] = os.path.relpath(path, os.path.dirname(traces_dir))
        except torch.cuda.OutOfMemoryError as e:
            m["status"], m["reason"] = "oom", first_line(e)
        except Exception as e:  # the variant's failure is its row, not the run's end
            m["status"] = "error" if has_run or name == "flex" else "unsupported"
            m["reason"] = first_line(e)
        finally:
            if activated:
                restore_flash_impl()
            torch.cuda.empty_cache()
        return m


def sdpa_reasons(messages):
    """PyTorch's reasons for not running a backend, from the warnings of a refused SDPA call:
    without the headers ("Flash attention kernel not used because:") and the source locations
    ("(Triggered internally at ...)"), each once."""
    reasons = []
    for message in messages:
        text = re.sub(r"\s*\(Triggered internally at [^)]*\)\s*$", "", message.strip())
        if text and not text.endswith("because:") and text not in reasons:
            reasons.append(text)
    return "; ".join(reasons)


def activate_flash_impl(impl):
    """Activates FlashAttention `impl` (FA3, FA4) for SDPA's flash backend; the reason why not,
    in the registry's words, or None."""
    import torch
    import torch.nn.attention as attention
    if not hasattr(attention, "list_flash_attention_impls"):
        return f"torch {torch.__version__} has no flash attention registry (torch.nn.attention)"
    registered = attention.list_flash_attention_impls()
    if impl not in registered:
        return (f"torch {torch.__version__} registers no {impl} implementation (registered: "
                f"{', '.join(registered) or 'none'})")
    try:
        attention.activate_flash_attention_impl(impl)
    except Exception as e:
        restore_flash_impl()
        return f"activate_flash_attention_impl('{impl}') failed: {first_line(e)}"
    return None


def restore_flash_impl():
    """Back to the flash backend's default implementation (FA2); one line on stderr when the
    registry cannot (the variants after this one would then not run the default)."""
    import torch.nn.attention as attention
    restore = getattr(attention, "restore_flash_attention_impl", None)
    try:
        if restore is None:
            from torch.nn.attention import _registry
            restore = _registry.restore_flash_attention_impl
        try:
            restore(_raise_warn=False)
        except TypeError:  # a registry without the keyword
            restore()
    except Exception as e:
        print(f"record_flex: cannot restore the default flash attention: {first_line(e)}",
              file=sys.stderr)


# ---------------------------------------------------------------------------------------------
# summary.json: what this run measured, under the keys of docs/json-schema.md ("summary.json").
# The file itself is written by the core's writer (`attnprof summary-json`, the writer the bench
# calls: study/run/run_summary_json.h), so that key order and numbers are spelled as the bench spells
# them; json.dump's text is only the draft it reads.

def environment():
    import torch
    props = torch.cuda.get_device_properties(0)
    cudnn = torch.backends.cudnn.version() or 0
    return {
        "device": props.name, "sm_count": props.multi_processor_count,
        "compute_capability": f"{props.major}.{props.minor}",
        "l2_bytes": int(getattr(props, "L2_cache_size", 0)),
        "memory_bytes": int(props.total_memory),
        "tf32_matmul": bool(torch.backends.cuda.matmul.allow_tf32),
        "torch": torch.__version__.split("+")[0],
        "cuda_runtime": torch.version.cuda or "",
        "cudnn": f"{cudnn // 10000}.{cudnn // 100 % 100}.{cudnn % 100}" if cudnn else "",
    }


def method_notes(a, env, peak, point, notes):
    """The bench's notes (bench/src/study_table.cpp method_notes), where this run measures the
    same way, and what differs: how flex is compiled, and its compile time."""
    l2 = env["l2_bytes"] / (1 << 20)
    out = [
        f"GPU median: CUDA events around each call, the median of {a.min_reps} to {a.max_reps} "
        f"calls (as many as fill {a.time_budget:g} s) after warm-up, rotating at least 3 input "
        f"sets that together exceed twice the L2 ({l2:.1f} MiB) so that it cannot hold them; "
        "min and max are in summary.json.",
        "kernels/fwd, memcpy/fwd, main kernel (the longest kernel of the typical region), "
        "occupancy (attnprof's estimate for the main kernel from its registers, shared memory "
        "and block size; Kineto's own where attnprof has none), launch API and CPU/fwd (time in "
        "the region's top-level CPU ops): read by attnprof from the variant's Kineto trace, "
        f"medians over its {a.trace_regions} `forward` regions.",
        "TFLOP/s: 4·D per query head and visible query-key pair (q·kᵀ and p·v), the pairs "
        "counted exactly from the mask (causal aligned to the end, the window), over the GPU "
        "median.",
        *([f"K/V GB/s and % HBM, instead of TFLOP/s and % peak where a point is memory-bound: its "
           "useful FLOPs over the least bytes one call moves (q and out, B·H·Q·D elements each; "
           "k and v, B·KVH·S·D each) fall below the GPU's ridge point, the dense peak over the "
           f"HBM bandwidth ({point['ridge_flop_per_byte']:.0f} FLOP per byte). K/V GB/s is the "
           "bytes of k and v (2·B·KVH·S·D elements) over the GPU median; % HBM divides it by "
           f"{point['hbm']['source']} bandwidth, {point['hbm']['bytes_per_s'] / 1e12:.2f} TB/s."]
          if point["bound"] == "memory" else []),
        (f"% peak: of the {env['device']}'s dense {peak['precision']} peak, "
         f"{peak['tflops']:.1f} TFLOP/s ({peak['source']})." if peak else
         f"% peak: n/a, attnprof has no datasheet peak for {env['device']}."),
        "peak mem: the most bytes the CUDA caching allocator had allocated during one call, "
        "above what was allocated before it (cached but unused blocks do not count).",
        "rel. error: ||out - ref|| / ||ref|| (Frobenius) against attention computed in float64 "
        f"on the same device from fresh random inputs (seed {a.seed}); a variant passes at or "
        "below 0.02 for bf16, 0.005 for fp16, 0.0001 for fp32.",
    ]
    recorder = ("Recorded by scripts/gpu/record_flex.py (Python: FlexAttention exists only "
                "through torch.compile), with the bench's method and schema; "
                f"{describe(a)}.")
    out.append(recorder)
    out.append(
        "sdpa-flash, sdpa-cudnn: torch.nn.functional.scaled_dot_product_attention with only that "
        "backend enabled (sdpa_kernel, entered once per variant as the bench pins it); sdpa-fa3, "
        "sdpa-fa4: the flash backend after torch.nn.attention.activate_flash_attention_impl('FA3' "
        "or 'FA4'), the default implementation restored afterwards; unsupported, in the "
        "registry's words, where the implementation's module is not installed.")
    first = notes.get("first_call_s", {})
    if "flex" in first:
        mask = ("no block mask (no mask)" if "block_mask_s" not in notes else
                f"its block mask built once by create_block_mask from the mask in "
                f"{notes['block_mask_s']:.2f} s ({notes['sparsity']:.1f} % of the blocks "
                "skipped)")
        out.append(
            "flex: torch.nn.attention.flex_attention compiled by torch.compile (dynamic=False), "
            f"{mask}; the first call compiled it in {first['flex']:.1f} s (Dynamo, Inductor, "
            "Triton), outside the timing, which starts after the warm-up.")
    return out


def write_json(path, value):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(value, f, indent=1, ensure_ascii=False)
        f.write("\n")
    os.replace(tmp, path)


def record(a, variants):
    try:
        import torch
    except ImportError:
        raise BadInput("no torch in this Python: run it where PyTorch and a CUDA GPU are "
                       "(--facts-only needs neither)")
    if not torch.cuda.is_available():
        raise BadInput("no CUDA device: record_flex.py measures on the GPU")
    if a.seed is None:
        a.seed = int.from_bytes(os.urandom(8), "little")
    out_dir = os.path.abspath(a.out)
    traces_dir = os.path.join(out_dir, "traces")
    os.makedirs(traces_dir, exist_ok=True)
    env = environment()
    rec = Recorder(a)
    notes = {}
    rows = []
    for name in variants:
        print(f"record_flex: {name} ...", file=sys.stderr, flush=True)
        m = rec.run(name, a.seed, traces_dir, notes)
        print(f"record_flex: {name}: {m['status']} {m['reason']}".rstrip(), file=sys.stderr,
              flush=True)
        rows.append(m)
    peak = dense_peak(env["device"], a.dtype, env["tf32_matmul"], a.attnprof)
    flops = attention_flops(a)
    point = bound_fields(a, flops, peak, hbm_bandwidth(env["device"], a.attnprof))
    summary = {
        "schemaVersion": 2,
        "tool": "scripts/gpu/record_flex.py",
        "environment": env,
        "settings": {"time_budget_seconds": a.time_budget, "min_reps": a.min_reps,
                     "max_reps": a.max_reps, "trace_regions": a.trace_regions,
                     "seed": str(a.seed)},
        "methods": method_notes(a, env, peak, point, notes),
        "sweep": [],
        "points": [{
            "problem": {"batch": a.batch, "heads": a.heads, "kv_heads": a.kv_heads,
                        "q_seq": a.q_seq, "seq": a.seq, "head_dim": a.head_dim,
                        "window": a.window, "dtype": a.dtype, "mask": a.mask,
                        "backward": False, "device": "cuda"},
            "flops_per_call": flops,
            "peak": peak,
            **point,
            "variants": [variant_json(r, a, flops, peak, point["hbm"]) for r in rows],
        }],
        "counters": None,
    }
    write_json(os.path.join(out_dir, "summary.json"), summary)
    return rows


def bound_fields(a, flops, peak, hbm):
    """Where the point sits against the ridge point (bench/src/study.cpp attach_bound)."""
    intensity = flops / minimal_bytes(a)
    ridge = peak["tflops"] * 1e12 / hbm["bytes_per_s"] if peak and hbm else None
    return {"bytes_per_call": {"minimal": minimal_bytes(a), "kv": kv_bytes(a)},
            "intensity_flop_per_byte": intensity, "hbm": hbm, "ridge_flop_per_byte": ridge,
            "bound": None if ridge is None else "memory" if intensity < ridge else "compute"}


def variant_json(m, a, flops, peak, hbm):
    t = m["timing"]
    seconds = t["median_ms"] * 1e-3 if t and t["median_ms"] > 0 else None
    tflops = flops / seconds / 1e12 if seconds else None
    kv_rate = kv_bytes(a) / seconds if seconds else None
    return {
        "variant": m["variant"], "status": m["status"], "reason": m["reason"],
        "chosen_backend": m["chosen_backend"], "correctness": m["correctness"], "timing": t,
        "tflops": tflops,
        "percent_of_peak": 100 * tflops / peak["tflops"] if tflops is not None and peak else None,
        "kv_gbps": kv_rate / 1e9 if kv_rate else None,
        "percent_of_hbm": 100 * kv_rate / hbm["bytes_per_s"] if kv_rate and hbm else None,
        "peak_allocated_bytes": m["peak_allocated_bytes"],
        "counters": None,
        "trace": {"file": m["trace"] or "", "error": "", "forward": None, "backward": None},
    }


# ---------------------------------------------------------------------------------------------
# The trace facts, read by attnprof (the bench reads them with the same core, in-process).

def find_attnprof(given):
    for candidate in (given, os.environ.get("ATTNPROF"), shutil.which("attnprof"),
                      os.path.join(ROOT, "build", "release", "attnprof")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def trace_facts(attnprof, trace_path):
    """summary.json's region facts of a trace's `forward` regions, from `attnprof analyze
    --format json --explain` (the same functions write both: render/facts_json.h)."""
    done = subprocess.run([attnprof, "analyze", trace_path, "--region", REGION, "--explain",
                           "--format", "json"], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip().splitlines()[-1] if done.stderr.strip()
                           else f"attnprof analyze exit {done.returncode}")
    t = json.loads(done.stdout)["traces"][0]
    facts = {"regions": len(t["regions"])}
    facts.update(t["median"])
    for key in ("main_kernel", "main_kernel_us", "launch_api", "occupancy_pct",
                "occupancy_limiter", "kineto_occupancy_pct"):
        facts[key] = t[key]
    facts["diagnostics"] = t["warnings"]["total"]
    facts["expectations"] = []
    facts["findings"] = t["findings"]
    return facts


def rewrite_with_core(attnprof, path):
    """Reads the draft at `path` with the core's reader and writes it back with the core's writer
    (`attnprof summary-json`, docs/json-schema.md): the one writer of summary.json. The draft
    moves aside first: the command refuses to write over the file it reads."""
    draft = path + ".draft"
    os.replace(path, draft)
    done = subprocess.run([attnprof, "summary-json", draft, "-o", path], capture_output=True,
                          text=True)
    if done.returncode != 0:
        os.replace(draft, path)
        raise BadInput(done.stderr.strip() or f"attnprof summary-json exit {done.returncode}")
    os.remove(draft)


def add_facts(out_dir, attnprof):
    """Fills each variant's trace facts in OUT_DIR/summary.json, then renders summary.md and
    table.txt from it; returns the number of traces that could not be read."""
    path = os.path.join(out_dir, "summary.json")
    try:
        with open(path) as f:
            summary = json.load(f)
    except (OSError, ValueError) as e:
        raise BadInput(f"{path}: cannot read it ({e}); give a folder that record_flex.py wrote")
    failed = 0
    for point in summary.get("points", []):
        for v in point["variants"]:
            trace = v["trace"]
            if not trace["file"]:
                continue
            try:
                trace["forward"] = trace_facts(attnprof, os.path.join(out_dir, trace["file"]))
                trace["error"] = ""
            except (RuntimeError, ValueError, KeyError, IndexError) as e:
                trace["forward"], trace["error"] = None, str(e)
                failed += 1
    write_json(path, summary)
    rewrite_with_core(attnprof, path)
    # --wide: table.txt is the table whole, as the bench prints it (scripts/regenerate-examples.sh
    # renders the shipped ones so).
    for fmt, name in (("md", "summary.md"), ("text", "table.txt")):
        done = subprocess.run([attnprof, "report", out_dir, "--format", fmt, "--wide", "-o",
                               os.path.join(out_dir, name)], capture_output=True, text=True)
        if done.returncode != 0:
            print(f"record_flex: attnprof report --format {fmt}: {done.stderr.strip()}",
                  file=sys.stderr)
            failed += 1
    return failed


def main(argv):
    try:
        a = parse_args(argv)
        attnprof = find_attnprof(a.attnprof)
        if a.facts_only:
            if not attnprof:
                raise BadInput("--facts-only needs attnprof: give --attnprof PATH or build it "
                               "(cmake --build --preset release)")
            return 1 if add_facts(os.path.abspath(a.out), attnprof) else 0
        variants = check_problem(a)
        rows = record(a, variants)
    except BadInput as e:
        print(f"record_flex.py: {e}", file=sys.stderr)
        return 2
    status = 0 if all(r["status"] in ("ok", "unsupported") for r in rows) else 1
    if not attnprof:
        print("record_flex: no attnprof binary, so the trace facts are not in summary.json: run "
              f"record_flex.py --facts-only {a.out} --attnprof PATH where attnprof is built",
              file=sys.stderr)
        return status
    if add_facts(os.path.abspath(a.out), attnprof):
        status = 1
    table = os.path.join(a.out, "table.txt")
    if os.path.isfile(table):
        with open(table) as f:
            sys.stdout.write(f.read())
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
