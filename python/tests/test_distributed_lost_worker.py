"""A worker of a Dask LocalCluster killed mid-run loses no trace and counts none twice
(docs/DISTRIBUTED.md): a cluster of its own, since the test kills one of its workers."""

import os
import signal
import time

import distributed
from same_tables import same_tables

import attnprof


def test_dask_cluster_with_a_worker_killed_mid_run(rank_traces, one_process):
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    client = distributed.Client(cluster)
    try:
        pids = client.run(os.getpid)
        assert len(pids) == 2
        victim_address, victim_pid = sorted(pids.items())[0]

        # Each map slowed down a little, so that the kill lands while tasks are in flight. (A
        # nested function travels to the workers by value; attnprof is imported there.)
        def slow_summary(path):
            time.sleep(0.05)
            return attnprof.summarize(path)

        futures = client.map(slow_summary, rank_traces, key=[f"s-{p}" for p in rank_traces],
                             retries=2)
        done = 0
        for _ in distributed.as_completed(futures):
            done += 1
            if done == 5:
                os.kill(victim_pid, signal.SIGKILL)
        lines = client.gather(futures)
        assert len(lines) == len(rank_traces)
        merged = attnprof.merge(lines)
        same_tables(merged, one_process)
        assert len(merged.traces) == len(rank_traces) - 1 and len(merged.errors) == 1
        assert "rank_bad.json.gz" in merged.errors[0]
        # The killed worker is gone (its nanny may have started another in its place).
        deadline = time.time() + 30
        while victim_pid in client.run(os.getpid).values() and time.time() < deadline:
            time.sleep(0.2)
        assert victim_pid not in client.run(os.getpid).values()
    finally:
        client.close()
        cluster.close()
