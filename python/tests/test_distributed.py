"""The map and reduce of docs/DISTRIBUTED.md: summaries merged on one machine and on a Dask
LocalCluster of worker processes equal the same traces analyzed in one process; a bad trace is an
error row; a trace whose read hangs is one error row. The tests that kill a worker have clusters of
their own (test_distributed_lost_worker.py, test_distributed_memory_limit.py)."""

import importlib
import os
import time

import distributed
import pytest
from same_tables import same_tables

import attnprof
import attnprof.distributed

DATA = os.environ["ATTNPROF_TEST_DATA"]
# The hang test's timeout: far above reading its four good traces on warm workers (a tenth of a
# second on a loaded 2-core machine), so that only the pipe is left unread when it runs out.
HANG_TIMEOUT_S = 2


@pytest.fixture(scope="module")
def client():
    """One LocalCluster of two worker processes (one thread each) for the tests that neither kill
    nor starve a worker: starting one takes seconds. Each worker imports attnprof before the first
    test, so that a call's timeout measures reading, not the workers' imports."""
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    dask_client = distributed.Client(cluster)
    try:
        dask_client.run(importlib.import_module, "attnprof.distributed")
        yield dask_client
    finally:
        dask_client.close()
        cluster.close()


def test_merge_of_summaries_equals_one_process(rank_traces, one_process):
    merged = attnprof.merge([attnprof.summarize(p) for p in rank_traces])
    same_tables(merged, one_process)
    # The two real ranks differ (rank 1's sequence is longer): the odd ranks are the slowest.
    assert set(merged.across["gpu_busy_slowest"]) <= {f"rank {r}" for r in range(1, len(merged.traces), 2)}


def test_merge_refuses_text_that_is_no_summary():
    with pytest.raises(ValueError, match=r"summary 0: line 1 \(byte 0\): not a trace summary"):
        attnprof.merge(['{"format": "something else"}'])
    line = attnprof.summarize(os.path.join(DATA, "study_naive.json.gz"))
    newer = line.replace('"version":2', '"version":99')
    with pytest.raises(ValueError, match="written by a later attnprof"):
        attnprof.merge([newer])


def test_the_module_s_entry_point_on_a_cluster_equals_one_process(client, rank_traces,
                                                                  one_process):
    same_tables(attnprof.distributed.analyze(rank_traces, client=client), one_process)


def test_a_trace_whose_read_hangs_is_one_error_row(client, rank_traces, tmp_path):
    """A named pipe that nobody writes: opening it blocks its worker forever, as a file on a
    stalled mount does. The call's timeout makes it one error row, and the good traces' results
    come back (wait() had no limit: the call never returned)."""
    pipe = tmp_path / "stalled.json"
    os.mkfifo(pipe)
    paths = rank_traces[:2] + [str(pipe)] + rank_traces[2:4]
    started = time.monotonic()
    try:
        result = attnprof.distributed.analyze(paths, client=client, timeout=HANG_TIMEOUT_S)
        took = time.monotonic() - started
    finally:
        # A writer that opens and closes the pipe ends the worker's read (an empty file), so the
        # blocked worker is free for the next test and the cluster closes at once.
        try:
            os.close(os.open(pipe, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:  # ENXIO: no reader holds it open, nothing is blocked
            pass
    assert HANG_TIMEOUT_S <= took < HANG_TIMEOUT_S + 30
    good = [p for p in paths if p != str(pipe) and "rank_bad" not in p]
    assert list(result.traces["trace"]) == good
    hung = [e for e in result.errors if "stalled.json" in e]
    assert len(hung) == 1
    assert f"not read within the call's timeout of {HANG_TIMEOUT_S} s" in hung[0]
