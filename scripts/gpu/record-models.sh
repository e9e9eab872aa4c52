#!/usr/bin/env bash
# Records the real-model, CUDA-graph, compiled and NCCL traces of tests/data/models, graphs and
# comm on the GPU machine in one call (docs/CUDA_GRAPHS.md, tests/data/README.md):
#   1. what this torch offers the profiler for graph kernels: _ExperimentalConfig's options, the
#      torch.profiler sources' lines that speak of graphs, and the graph strings in the libraries
#      that hold Kineto (kineto.txt)
#   2. record_models.py: Hugging Face llama and mistral from a config, every attention
#      implementation, train / prefill / decode, and their step times (models/step_times.json)
#   3. record_graphs.py: CUDA graphs captured by hand and by torch.compile(mode="reduce-overhead"),
#      compiled naive attention, and the Kineto options tried on a graph's replays
#   4. record_comm.py: a one-rank NCCL process group's collectives, with and without overlap
# Each recorder gives each recording its own time budget and goes on after a failure; each step
# here has a timeout, so the tarball is written even when a step is cut off.
# Leaves in $OUT (the device tool's folder; out/gpu-models when unset): recordings.tar (models/,
# graphs/, comm/, kineto.txt) and record.log.
# Usage: scripts/gpu/record-models.sh
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-$here/../../out/gpu-models}
work=${TMPDIR:-/tmp}/attnprof-recordings
mkdir -p "$out"
rm -rf "$work" && mkdir -p "$work"
export PYTHONUNBUFFERED=1
# NVLink multicast stays off on shared hosts (the device machine's rules).
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
start=$SECONDS
failed=0
log=$out/record.log
step() { echo "== $* ($((SECONDS - start)) s)" | tee -a "$log"; }
pack() { tar -C "$work" -cf "$out/recordings.tar" . 2>>"$log"; }

step versions and kineto
{
  nvidia-smi -L
  python3 -m pip list 2>/dev/null | grep -iE '^(torch|transformers|triton|flash|kernels|nvidia-nccl|nvidia-cuda-cupti) '
  timeout 60 python3 - <<'PY'
import inspect, mmap, os, re, torch
import torch.profiler as p
try:
    print("signature:", inspect.signature(p._ExperimentalConfig))
except (TypeError, ValueError) as e:
    print("signature: none (", e, ")")
print("__init__ doc:", p._ExperimentalConfig.__init__.__doc__)
root = os.path.dirname(torch.__file__)
for rel in ["profiler/profiler.py", "autograd/profiler.py", "autograd/profiler_util.py",
            "profiler/_utils.py"]:
    path = os.path.join(root, rel)
    if os.path.exists(path):
        for n, line in enumerate(open(path), 1):
            if re.search(r"graph|experimental_config", line, re.I):
                print(f"{rel}:{n}: {line.rstrip()}")
# Literal searches (fast on a library of a gigabyte), each hit widened to its printable string.
keys = [b"raph node", b"raph Node", b"raphNode", b"graphId", b"graph id", b"graph_id", b"GRAPH",
        b"CUDA graph", b"CUDA Graph", b"cuda_graph", b"cudaGraph"]
printable = set(range(0x20, 0x7f))
for lib in ["libtorch_cpu.so", "libtorch_cuda.so", "libkineto.so"]:
    path = os.path.join(root, "lib", lib)
    if not os.path.exists(path):
        continue
    found = set()
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        for key in keys:
            at, hits = m.find(key), 0
            while at >= 0 and hits < 3000:
                lo, hi = at, at + len(key)
                while lo > 0 and at - lo < 160 and m[lo - 1] in printable:
                    lo -= 1
                while hi < len(m) and hi - at < 160 and m[hi] in printable:
                    hi += 1
                text = m[lo:hi].decode()
                if not re.search(r"fx|dynamo|inductor|aten::|c10d|torch\.", text):
                    found.add(text)
                at, hits = m.find(key, at + 1), hits + 1
    print(f"{lib}: {len(found)} strings")
    for s in sorted(found)[:400]:
        print("  ", s)
PY
} >"$work/kineto.txt" 2>&1 || failed=1
grep -E "^(signature|__init__|lib)" "$work/kineto.txt" | cut -c1-400
pack

step models
timeout 280 python3 "$here/record_models.py" "$work/models" --budget 240 >>"$log" 2>&1 || failed=1
pack

step graphs
timeout 200 python3 "$here/record_graphs.py" "$work/graphs" --budget 170 >>"$log" 2>&1 || failed=1
pack

step comm
timeout 70 python3 "$here/record_comm.py" "$work/comm" --budget 45 >>"$log" 2>&1 || failed=1
pack

step summary
grep -E "^(llama|mistral) " "$log"
for s in "$work"/*/status.json; do
  echo "$s"; python3 -c "import json,sys; [print(' ', r['name'], r['status'], r.get('seconds',''), r.get('error','')[:200]) for r in json.load(open(sys.argv[1]))]" "$s"
done
du -sh "$work"/* 2>/dev/null
step "done, exit $failed"
ls -la "$out"
exit "$failed"
