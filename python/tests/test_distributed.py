"""The map and reduce of docs/DISTRIBUTED.md: summaries merged on one machine and on a Dask
LocalCluster of worker processes equal the same traces analyzed in one process; a bad trace is an
error row; a worker killed mid-run loses no trace and counts none twice."""

import gzip
import json
import os
import signal
import time

import distributed
import pandas as pd
import pytest

import attnprof
import attnprof.distributed

DATA = os.environ["ATTNPROF_TEST_DATA"]
WORLD = 64


@pytest.fixture(scope="module")
def rank_traces(tmp_path_factory):
    """64 ranks of one run, from the two real ranks of tests/data/ranks (alternately), each with
    its own rank in distributedInfo; and one file that is no trace, between them."""
    folder = tmp_path_factory.mktemp("ranks")
    sources = []
    for name in ("ddp_rank0.json.gz", "ddp_rank1.json.gz"):
        with gzip.open(os.path.join(DATA, "ranks", name), "rt") as f:
            sources.append(json.load(f))
    paths = []
    for rank in range(WORLD):
        doc = dict(sources[rank % 2])
        doc["distributedInfo"] = dict(doc["distributedInfo"], rank=rank, world_size=WORLD)
        path = folder / f"rank_{rank}.json.gz"
        with gzip.open(path, "wt") as f:
            json.dump(doc, f)
        paths.append(str(path))
    bad = folder / "rank_bad.json.gz"
    bad.write_bytes(b"this is not a trace")
    paths.insert(WORLD // 2, str(bad))
    return paths


def same_tables(merged, direct):
    pd.testing.assert_frame_equal(merged.across, direct.across)
    pd.testing.assert_frame_equal(merged.regions, direct.regions)
    # A summary carries no diagnostics or markers: every other column of the traces is the same.
    columns = [c for c in direct.traces.columns if c not in ("warnings", "markers")]
    pd.testing.assert_frame_equal(merged.traces[columns], direct.traces[columns])
    assert merged.errors == direct.errors
    assert merged.error_kinds == direct.error_kinds


def test_merge_of_summaries_equals_one_process(rank_traces):
    direct = attnprof.analyze(rank_traces, explain=False)
    assert direct.across is not None and len(direct.traces) == WORLD
    merged = attnprof.merge([attnprof.summarize(p) for p in rank_traces])
    same_tables(merged, direct)
    # The two real ranks differ (rank 1's sequence is longer): the odd ranks are the slowest.
    assert set(merged.across["gpu_busy_slowest"]) <= {f"rank {r}" for r in range(1, WORLD, 2)}


def test_merge_refuses_text_that_is_no_summary():
    with pytest.raises(ValueError, match=r"summary 0: line 1 \(byte 0\): not a trace summary"):
        attnprof.merge(['{"format": "something else"}'])
    line = attnprof.summarize(os.path.join(DATA, "study_naive.json.gz"))
    newer = line.replace('"version":2', '"version":99')
    with pytest.raises(ValueError, match="written by a later attnprof"):
        attnprof.merge([newer])


def test_dask_cluster_with_a_worker_killed_mid_run(rank_traces):
    direct = attnprof.analyze(rank_traces, explain=False)
    cluster = distributed.LocalCluster(n_workers=3, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    client = distributed.Client(cluster)
    try:
        pids = client.run(os.getpid)
        assert len(pids) == 3
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
        same_tables(merged, direct)
        assert len(merged.traces) == WORLD and len(merged.errors) == 1
        assert "rank_bad.json.gz" in merged.errors[0]
        # The killed worker is gone (its nanny may have started another in its place).
        deadline = time.time() + 30
        while victim_pid in client.run(os.getpid).values() and time.time() < deadline:
            time.sleep(0.2)
        assert victim_pid not in client.run(os.getpid).values()
        # The module's own entry point on the same cluster gives the same tables.
        same_tables(attnprof.distributed.analyze(rank_traces, client=client), direct)
    finally:
        client.close()
        cluster.close()


def test_a_trace_that_kills_its_worker_is_one_error_row(rank_traces, tmp_path):
    """Workers with a memory limit, as a real cluster's have, and one trace among good ones that
    needs more: the nanny kills its worker, and the call still returns every good trace's result
    with that trace as one error row (gather() raised KilledWorker for the whole call)."""
    import dask

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


def test_a_trace_whose_read_hangs_is_one_error_row(rank_traces, tmp_path):
    """A named pipe that nobody writes: opening it blocks its worker forever, as a file on a
    stalled mount does. The call's timeout makes it one error row, and the good traces' results
    come back (wait() had no limit: the call never returned)."""
    pipe = tmp_path / "stalled.json"
    os.mkfifo(pipe)
    paths = rank_traces[:2] + [str(pipe)] + rank_traces[2:4]
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    client = distributed.Client(cluster)
    started = time.monotonic()
    try:
        result = attnprof.distributed.analyze(paths, client=client, timeout=20)
    finally:
        client.close()
        cluster.close()
    assert time.monotonic() - started < 120
    good = [p for p in paths if p != str(pipe) and "rank_bad" not in p]
    assert list(result.traces["trace"]) == good
    hung = [e for e in result.errors if "stalled.json" in e]
    assert len(hung) == 1 and "not read within the call's timeout of 20 s" in hung[0]
