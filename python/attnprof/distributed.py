"""Many traces on many machines: attnprof's map and reduce on a Dask cluster.

    import attnprof.distributed
    run = attnprof.distributed.analyze(paths, client="tcp://scheduler:8786")
    run.across       # per region: the slowest rank and the spread, as attnprof.analyze gives it
    run.errors       # one line per trace that could not be read

Each trace is read on the worker that runs its task (`attnprof.summarize`: the file is opened
there, so the workers must see the paths), and only its summary, a line of JSON of a few
kilobytes, travels back; `attnprof.merge` then compares the ranks on the client. A trace that
cannot be read gives its error row, not a failed job. A worker lost mid-run has its tasks run
again by Dask on another worker; each trace's summary is gathered once, by its own future, so
none is lost or counted twice. A trace still unread when the call's `timeout` runs out (a file
on a stalled mount, a pipe nobody writes) is an error row too, and the others come back.
docs/DISTRIBUTED.md says more, with measurements.

Needs Dask's distributed scheduler (Debian: python3-distributed).
"""

import contextlib
import os
import time
from typing import Iterable, List, Optional, Union

from . import Traces, _attnprof, _path, merge, summarize

__all__ = ["analyze", "summaries"]


def _dask():
    try:
        import distributed
    except ImportError as error:
        raise ImportError(
            "attnprof.distributed needs Dask's distributed scheduler: apt-get install "
            "python3-distributed (Debian), or pip install distributed") from error
    return distributed


def _summarize_on_worker(path: str, region: str) -> str:
    return summarize(path, region)


def _activities_on_worker(path: str, region: str):
    from . import analyze as analyze_here

    return analyze_here([path], region, explain=False, jobs=1).activities


@contextlib.contextmanager
def _client(client, workers: int):
    """The client to run on: the one given, one to a scheduler's address, or a LocalCluster of
    `workers` processes; those made here are closed on the way out."""
    distributed = _dask()
    if client is not None and not isinstance(client, str):
        yield client
        return
    cluster = None
    if client is None:
        cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                           processes=True, dashboard_address=None)
    made = distributed.Client(cluster if cluster is not None else client)
    try:
        yield made
    finally:
        made.close()
        if cluster is not None:
            cluster.close()


# An hour for one call: far more than reading any trace takes (a gigabyte reads in seconds), and
# a bound on how long one hung read can hold the others' results.
DEFAULT_TIMEOUT_S = 3600.0


def summaries(paths: Union[str, Iterable[str]], client=None, region: Optional[str] = None,
              workers: int = 4, retries: int = 2,
              timeout: Optional[float] = DEFAULT_TIMEOUT_S) -> List[str]:
    """The map alone: each trace's summary line (or its error's line), in the order of `paths`
    (folders are expanded as `attnprof analyze DIR` does, on the client). `timeout`: seconds
    the call waits for all traces (None: no limit); a trace unread by then is its error row."""
    names = _expanded(paths)
    with _client(client, workers) as dask_client:
        futures = dask_client.map(_summarize_on_worker, names, region=region or "",
                                  key=[f"attnprof-summary-{_key(i, p)}"
                                       for i, p in enumerate(names)],
                                  retries=retries)
        again = _alone(dask_client, _summarize_on_worker, names, region or "", "summary")
        return _gathered(dask_client, futures, names, retries, timeout, again=again)


def analyze(paths: Union[str, Iterable[str]], client=None, region: Optional[str] = None,
            workers: int = 4, retries: int = 2, activities: bool = False,
            timeout: Optional[float] = DEFAULT_TIMEOUT_S) -> Traces:
    """Reads every trace on the cluster and compares the ranks, as `attnprof.analyze` does in one
    process. `client`: a `distributed.Client`, a scheduler address ("tcp://host:8786"), or None
    for a LocalCluster of `workers` processes on this machine. With `activities`, each worker
    also sends back its trace's activity rows as a DataFrame (large: one row per GPU activity).
    `timeout`: seconds the call waits for all traces (None: no limit); a trace still unread then
    (a hung read) is its error row, and the others' results come back."""
    names = _expanded(paths)
    with _client(client, workers) as dask_client:
        keys = [_key(i, p) for i, p in enumerate(names)]
        lines = dask_client.map(_summarize_on_worker, names, region=region or "",
                                key=["attnprof-summary-" + k for k in keys], retries=retries)
        rows = None
        if activities:
            rows = dask_client.map(_activities_on_worker, names, region=region or "",
                                   key=["attnprof-activities-" + k for k in keys],
                                   retries=retries)
        result = merge(_gathered(dask_client, lines, names, retries, timeout,
                                 again=_alone(dask_client, _summarize_on_worker, names,
                                              region or "", "summary")))
        if rows is not None:
            import pandas as pd

            again = _alone(dask_client, _activities_on_worker, names, region or "", "activities")
            frames = [f for f in _gathered(dask_client, rows, names, retries, timeout,
                                           failed=lambda _: None, again=again)
                      if f is not None and len(f)]
            if frames:
                result.activities = pd.concat(frames, ignore_index=True)
        return result


def _key(index: int, name: bytes) -> str:
    """A task's key: its place and its file's name, as text whatever bytes the name holds."""
    return f"{index}-{name.decode('utf-8', 'backslashreplace')}"


class _Unfinished(Exception):
    """A task still running or waiting when the call's timeout ran out."""


def _failure_line(name, retries: int, error: BaseException) -> str:
    """The error row of a trace whose task failed on every try: its worker was killed (for
    memory, as a nanny does past the worker's memory limit), the task raised, or it had not
    finished when the call's timeout ran out."""
    what = type(error).__name__
    if isinstance(error, _Unfinished):
        said = (f"{os.fsdecode(name)}: not read within the call's timeout of {error} s (a hung "
                "read: a stalled mount, a pipe?); check the file, or pass a longer timeout")
    elif what == "KilledWorker":
        said = (f"{os.fsdecode(name)}: its worker died while reading it, {retries + 1} "
                "time(s) (past the worker's memory limit?); lower --max-events or "
                "--max-event-bytes, or give the workers more memory")
    else:
        said = f"{os.fsdecode(name)}: its task failed on every try: {what}: {error}"
    return _attnprof.summary_of_failure(name, said.splitlines()[0] if said else what)


def _alone(dask_client, function, names, region: str, what: str):
    """A function that runs trace i's task again, under a key of its own, without retries."""
    def again(i):
        return dask_client.submit(function, names[i], region,
                                  key=f"attnprof-{what}-alone-{_key(i, names[i])}", retries=0,
                                  pure=False)
    return again


def _wait_until(futures, timeout: Optional[float]) -> None:
    """Waits until every future is done or `timeout` seconds have passed. wait() also returns
    for a task whose worker died (lost, then run again elsewhere), so it is called again for
    those not done yet until the time is up."""
    distributed = _dask()
    deadline = None if timeout is None else time.monotonic() + timeout
    pending = list(futures)
    while pending:
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            return
        try:
            distributed.wait(pending, timeout=left)
        except distributed.TimeoutError:
            return
        pending = [f for f in pending if not f.done()]
        if pending:
            time.sleep(0.05)  # a lost task is rescheduled, not yet running again


def _result_within(dask_client, future, timeout: Optional[float]):
    """The future's result; _Unfinished (the future cancelled) when it is not done in time."""
    _wait_until([future], timeout)
    if not future.done():
        dask_client.cancel(future)
        raise _Unfinished(f"{timeout:g}")
    return future.result()


def _gathered(dask_client, futures, names, retries: int, timeout: Optional[float],
              failed=None, again=None) -> list:
    """Each future's result, in order. A trace whose task failed after its retries, or had not
    finished within `timeout` seconds, gives its error row (`failed`, by default its summary
    line of error), so that one trace that kills its worker or hangs never loses the other
    traces' results (gather() of them all raises KilledWorker for the whole call, or waits forever).

    A worker that dies takes every task it holds with it (Dask queues several on a worker),
    so a task failed by KilledWorker may be a bystander of the trace that killed it: `again(i)`
    runs trace i once more, alone (one at a time, once every other result is on the client,
    where no worker's death can lose it), and only a trace that fails then is its error row."""
    _wait_until(futures, timeout)
    outcomes = []  # (True, result) or (False, error), in order
    for future in futures:
        try:
            if not future.done():
                dask_client.cancel(future)
                raise _Unfinished(f"{timeout:g}")
            outcomes.append((True, future.result()))
        except Exception as error:  # noqa: BLE001 - any failure of one task is that trace's
            outcomes.append((False, error))
    out = []
    for i, (name, (ok, value)) in enumerate(zip(names, outcomes)):
        if not ok and again is not None and type(value).__name__ == "KilledWorker":
            try:
                ok, value = True, _result_within(dask_client, again(i), timeout)
            except Exception as error:  # noqa: BLE001 - failed alone too: its own row
                value = error
        if ok:
            out.append(value)
        else:
            out.append(_failure_line(name, retries, value) if failed is None else failed(value))
    return out


def _expanded(paths) -> List[str]:
    if isinstance(paths, (str, bytes)) or not isinstance(paths, Iterable):
        paths = [paths]
    return _attnprof.expand([_path(p) for p in paths])
