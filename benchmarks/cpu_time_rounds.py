#!/usr/bin/env python3
"""CPU time, wall time, first-touched pages and peak RSS of `attnprof analyze`, builds side by side.

    benchmarks/cpu_time_rounds.py TRACE FORMAT RUNS BINARY [BINARY...]

Runs `BINARY analyze TRACE --format FORMAT` (output to /dev/null) RUNS times per binary,
interleaved (one run of each binary in turn), and prints per binary the best and median CPU time
(user + sys from the child's own rusage, in microseconds, where /usr/bin/time rounds to 10 ms), the
best and median wall time, the fewest minor page faults (pages touched for the first time: fresh
memory costs ~2.6 s per GB on the project's VMs, docs/PERFORMANCE.md) and the peak RSS, then each
best against the first binary's. On a shared machine read the CPU time: wall times swing with the
load, which is printed before and after.
"""
import os
import statistics
import subprocess
import sys
import time


def one_run(binary, trace, fmt):
    start = time.monotonic()
    child = subprocess.Popen([binary, "analyze", trace, "--format", fmt],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.monotonic() - start
    if status != 0:
        print(f"cpu_time_rounds.py: {binary} analyze {trace} --format {fmt} failed "
              f"(status {status}): run it alone to see why", file=sys.stderr)
        sys.exit(2)
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_minflt, usage.ru_maxrss


def main():
    if len(sys.argv) < 5 or not sys.argv[3].isdigit() or int(sys.argv[3]) < 1:
        print("usage: cpu_time_rounds.py TRACE FORMAT RUNS BINARY [BINARY...]", file=sys.stderr)
        sys.exit(2)
    trace, fmt, runs, binaries = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    if not os.access(trace, os.R_OK):
        print(f"cpu_time_rounds.py: cannot read {trace}", file=sys.stderr)
        sys.exit(2)
    print("load average before: {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()))
    results = {b: [] for b in binaries}
    for _ in range(runs):
        for b in binaries:
            results[b].append(one_run(b, trace, fmt))
    first_cpu = first_wall = None
    for b in binaries:
        cpu = [r[0] for r in results[b]]
        wall = [r[1] for r in results[b]]
        if first_cpu is None:
            first_cpu, first_wall = min(cpu), min(wall)
        print(f"{fmt} {b}: CPU best {min(cpu):.3f} s median {statistics.median(cpu):.3f} s, "
              f"wall best {min(wall):.3f} s median {statistics.median(wall):.3f} s, "
              f"minor faults {min(r[2] for r in results[b])}, "
              f"peak RSS {min(r[3] for r in results[b]) // 1024} MB; "
              f"against the first: CPU {min(cpu) / first_cpu:.3f}x, wall {min(wall) / first_wall:.3f}x")
    print("load average after: {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
