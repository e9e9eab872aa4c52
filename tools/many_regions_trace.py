#!/usr/bin/env python3
"""Writes a Kineto trace with many small regions, for memory measurements of `analyze`.

    tools/many_regions_trace.py OUT.json --regions 1000000

Each region is a `ProfilerStep#N` annotation holding one op, which launches one kernel
(cudaLaunchKernel, its flow and the kernel on stream 7) and one DtoD copy: six trace events
and two GPU activities per region, with the fields a real H200 trace has (tests/data). Regions
follow each other without overlap, so every activity belongs to exactly one region. A million
regions make about 1.2 GB of JSON; the script streams it out, in a minute or so.

grow_trace makes large traces out of real ones; this one makes the shape they lack: a huge number
of regions, where the per-region parts of the output (JSON lists every region's activities)
dominate the memory.
"""

import argparse
import sys

HEADER = """{
  "schemaVersion": 1,
  "deviceProperties": [{"id": 0, "name": "NVIDIA H200", "totalGlobalMem": 150109880320,
    "computeMajor": 9, "computeMinor": 0, "maxThreadsPerBlock": 1024,
    "maxThreadsPerMultiprocessor": 2048, "regsPerBlock": 65536, "warpSize": 32,
    "sharedMemPerBlock": 49152, "numSms": 132, "regsPerMultiprocessor": 65536,
    "sharedMemPerBlockOptin": 232448, "sharedMemPerMultiprocessor": 233472}],
  "baseTimeNanoseconds": 1790857026000000000,
  "traceEvents": [
"""

KERNEL = ("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
          "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)")

# One region's events, at `t` microseconds; `c` is the correlation id, `e` the External id.
REGION = (
    '{{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#{n}", "pid": 416, "tid": 416, '
    '"ts": {t}.000, "dur": 20.000, "args": {{"External id": {e}}}}},\n'
    '{{"ph": "X", "cat": "cpu_op", "name": "aten::fill_", "pid": 416, "tid": 416, '
    '"ts": {t1}.000, "dur": 15.000, "args": {{"External id": {e1}}}}},\n'
    '{{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 416, "tid": 416, '
    '"ts": {t2}.000, "dur": 5.000, "args": {{"External id": {e1}, "cbid": 211, '
    '"correlation": {c}}}}},\n'
    '{{"ph": "X", "cat": "kernel", "name": "' + KERNEL + '", "pid": 0, "tid": 7, '
    '"ts": {t3}.000, "dur": 2.000, "args": {{"External id": {e1}, "device": 0, "context": 1, '
    '"stream": 7, "correlation": {c}, "registers per thread": 16, "shared memory": 0, '
    '"grid": [132, 1, 1], "block": [128, 1, 1], "est. achieved occupancy %": 12}}}},\n'
    '{{"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 416, "tid": 416, '
    '"ts": {t4}.000, "dur": 3.000, "args": {{"External id": {e1}, "cbid": 41, '
    '"correlation": {c1}}}}},\n'
    '{{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoD (Device -> Device)", "pid": 0, '
    '"tid": 7, "ts": {t5}.000, "dur": 1.000, "args": {{"External id": {e1}, "device": 0, '
    '"context": 1, "stream": 7, "correlation": {c1}, "bytes": 16384}}}}')

FOOTER = """
],
  "traceName": "many_regions"
}
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--regions", type=int, default=1_000_000)
    args = parser.parse_args()
    if args.regions < 1:
        sys.exit("many_regions_trace.py: --regions must be at least 1")
    with open(args.out, "w", buffering=1 << 22) as out:
        out.write(HEADER)
        t0 = 5148681641000
        for n in range(args.regions):
            t = t0 + 25 * n
            if n:
                out.write(",\n")
            out.write(REGION.format(n=n, t=t, t1=t + 1, t2=t + 2, t3=t + 8, t4=t + 9, t5=t + 13,
                                    e=3 * n + 1, e1=3 * n + 2, c=2 * n + 1, c1=2 * n + 2))
        out.write(FOOTER)


if __name__ == "__main__":
    main()
