#!/usr/bin/python3
"""attnprof's map and reduce on Dask beside one process, on the same traces, in one run (a
benchmark, not a test; docs/DISTRIBUTED.md has the figures and the machine).

    PYTHONPATH=build/release/python /usr/bin/python3 benchmarks/dask_side_by_side.py \\
        [--traces 256] [--bytes 8M] [--workers 2] [--source tests/data/train_step.json.gz]

Grows one real trace to about --bytes of JSON with tools/grow_trace (build/release/grow_trace),
then writes --traces gzipped copies of it, each with its own rank in distributedInfo (the ranks
of one run). Then, each in a child process of its own so that its peak memory is its own:
  one-process   attnprof.analyze(paths): every trace read on this machine's cores
  dask          attnprof.distributed.analyze(paths, LocalCluster(--workers processes)): the
                map on the workers, the merge here; the cluster's start is timed apart
and the reduce alone: attnprof.merge of 4,096 summaries (a 4,096-rank job's), from the lines
the map gave. Prints one table: seconds, traces/s, GB/s of JSON, peak RSS per process.
"""

import argparse
import gzip
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def size(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(float(text[:-1]) * units[text[-1]]) if text[-1] in units else int(text)


def make_traces(args, folder):
    grown = os.path.join(folder, "grown.json")
    grow = os.path.join(ROOT, "build", "release", "grow_trace")
    subprocess.run([grow, args.source, grown, "--target-bytes", str(size(args.bytes))],
                   check=True, stdout=subprocess.DEVNULL)
    with open(grown) as f:
        text = f.read()
    os.remove(grown)
    info_start = text.index("{", text.index('"distributedInfo"'))
    info, info_end = json.JSONDecoder().raw_decode(text, info_start)
    paths = []
    for rank in range(args.traces):
        info.update(rank=rank, world_size=args.traces)
        patched = text[:info_start] + json.dumps(info) + text[info_end:]
        path = os.path.join(folder, f"rank_{rank}.json.gz")
        with gzip.open(path, "wt", compresslevel=1) as f:
            f.write(patched)
        paths.append(path)
    return paths, len(text)


def peak_rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(mode, paths, workers):
    import attnprof
    import attnprof.distributed

    result = {}
    if mode == "one-process":
        started = time.perf_counter()
        run = attnprof.analyze(paths, explain=False)
        result["seconds"] = time.perf_counter() - started
        result["peak_rss_mb"] = [peak_rss_mb()]
    elif mode == "dask":
        import distributed

        started = time.perf_counter()
        cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                           processes=True, dashboard_address=None)
        client = distributed.Client(cluster)
        result["cluster_start_seconds"] = time.perf_counter() - started
        started = time.perf_counter()
        lines = attnprof.distributed.summaries(paths, client=client)
        run = attnprof.merge(lines)
        result["seconds"] = time.perf_counter() - started
        result["summary_bytes"] = sum(len(line) for line in lines)
        result["peak_rss_mb"] = [peak_rss_mb()] + sorted(client.run(peak_rss_mb).values())
        # The reduce alone, at the size of a 4,096-rank job: the map's lines, ranks renumbered.
        many = []
        for rank in range(4096):
            doc = json.loads(lines[rank % len(lines)])
            doc["distributed"].update(rank=rank, world_size=4096)
            many.append(json.dumps(doc))
        started = time.perf_counter()
        merged = attnprof.merge(many)
        result["merge_4096_seconds"] = time.perf_counter() - started
        result["merge_4096_regions"] = len(merged.across)
        client.close()
        cluster.close()
    result["traces"] = len(run.traces)
    result["errors"] = len(run.errors)
    result["json_bytes"] = int(run.traces["json_bytes"].sum())
    print(json.dumps(result))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--traces", type=int, default=256)
    parser.add_argument("--bytes", default="8M")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--source", default=os.path.join(ROOT, "tests/data/train_step.json.gz"))
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--paths", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        with open(args.paths) as f:
            child(args.child, json.load(f), args.workers)
        return

    folder = tempfile.mkdtemp(prefix="attnprof_dask_bench_")
    try:
        started = time.perf_counter()
        paths, each = make_traces(args, folder)
        print(f"{len(paths)} traces of {each / 1e6:.1f} MB of JSON each "
              f"({len(paths) * each / 1e9:.2f} GB in all) made in "
              f"{time.perf_counter() - started:.0f} s; {os.cpu_count()} cores", file=sys.stderr)
        listing = os.path.join(folder, "paths.json")
        with open(listing, "w") as f:
            json.dump(paths, f)
        rows = {}
        for mode in ("one-process", "dask"):
            out = subprocess.run([sys.executable, __file__, "--child", mode, "--paths", listing,
                                  "--workers", str(args.workers)],
                                 check=True, capture_output=True, text=True).stdout
            rows[mode] = json.loads(out.strip().splitlines()[-1])
        print(f"| mode | traces | seconds | traces/s | GB/s of JSON | peak RSS per process (MB) |")
        print(f"|---|---:|---:|---:|---:|---|")
        for mode, r in rows.items():
            label = mode if mode == "one-process" else f"dask, {args.workers} worker processes"
            rss = ", ".join(f"{m:.0f}" for m in r["peak_rss_mb"])
            print(f"| {label} | {r['traces']} | {r['seconds']:.2f} | "
                  f"{r['traces'] / r['seconds']:.1f} | {r['json_bytes'] / r['seconds'] / 1e9:.2f} "
                  f"| {rss} |")
        d = rows["dask"]
        print(f"\ndask: cluster start {d['cluster_start_seconds']:.2f} s (not in the time above); "
              f"summaries gathered: {d['summary_bytes'] / len(paths) / 1e3:.1f} kB per trace; "
              f"dask's peak RSS lists the client first, then each worker")
        print(f"merge of 4,096 summaries (the reduce of a 4,096-rank job): "
              f"{d['merge_4096_seconds']:.2f} s, {d['merge_4096_regions']} regions compared")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
