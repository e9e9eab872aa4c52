"""A trace that kills its worker is one error row (docs/DISTRIBUTED.md): a cluster of its own,
whose workers have a memory limit, as a real cluster's have."""

import dask
import distributed

import attnprof.distributed


def test_a_trace_that_kills_its_worker_is_one_error_row(rank_traces, tmp_path):
    """One trace among good ones that needs more memory than a worker has: the nanny kills its
    worker, and the call still returns every good trace's result with that trace as one error
    row (gather() raised KilledWorker for the whole call)."""
    # One event whose arguments hold 40 MB of numbers: reading it takes several times that.
    killer = tmp_path / "killer.json"
    with open(killer, "w") as f:
        f.write('{"traceEvents":[{"ph":"X","cat":"cpu_op","name":"x","pid":1,"tid":1,"ts":1,'
                '"dur":1,"args":{"v":[' + "1," * 20_000_000 + '1]}}]}')
    paths = rank_traces[:3] + [str(killer)] + rank_traces[3:6]
    # A task that kills a worker once is not tried again, so the test stays short.
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           dashboard_address=None, memory_limit="200MiB")
        client = distributed.Client(cluster)
        try:
            result = attnprof.distributed.analyze(paths, client=client, retries=0)
        finally:
            client.close()
            cluster.close()
    good = [p for p in paths if p != str(killer) and "rank_bad" not in p]
    assert list(result.traces["trace"]) == good
    assert len(result.errors) == 1 + sum("rank_bad" in p for p in paths)
    killed = [e for e in result.errors if "killer.json" in e]
    assert len(killed) == 1 and "its worker died while reading it" in killed[0]
