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
none is lost or counted twice. docs/DISTRIBUTED.md says more, with measurements.

Needs Dask's distributed scheduler (Debian: python3-distributed).
"""

import contextlib
import os
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


def summaries(paths: Union[str, Iterable[str]], client=None, region: Optional[str] = None,
              workers: int = 4, retries: int = 2) -> List[str]:
    """The map alone: each trace's summary line (or its error's line), in the order of `paths`
    (folders are expanded as `attnprof analyze DIR` does, on the client)."""
    names = _expanded(paths)
    with _client(client, workers) as dask_client:
        futures = dask_client.map(_summarize_on_worker, names, region=region or "",
                                  key=[f"attnprof-summary-{_key(i, p)}"
                                       for i, p in enumerate(names)],
                                  retries=retries)
        return _gathered(futures, names, retries)


def analyze(paths: Union[str, Iterable[str]], client=None, region: Optional[str] = None,
            workers: int = 4, retries: int = 2, activities: bool = False) -> Traces:
    """Reads every trace on the cluster and compares the ranks, as `attnprof.analyze` does in one
    process. `client`: a `distributed.Client`, a scheduler address ("tcp://host:8786"), or None
    for a LocalCluster of `workers` processes on this machine. With `activities`, each worker
    also sends back its trace's activity rows as a DataFrame (large: one row per GPU activity)."""
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
        result = merge(_gathered(lines, names, retries))
        if rows is not None:
            import pandas as pd

            frames = [f for f in _gathered(rows, names, retries, failed=lambda _: None)
                      if f is not None and len(f)]
            if frames:
                result.activities = pd.concat(frames, ignore_index=True)
        return result


def _key(index: int, name: bytes) -> str:
    """A task's key: its place and its file's name, as text whatever bytes the name holds."""
    return f"{index}-{name.decode('utf-8', 'backslashreplace')}"


def _failure_line(name, retries: int, error: BaseException) -> str:
    """The error row of a trace whose task failed on every try: its worker was killed (for
    memory, as a nanny does past the worker's memory limit) or the task raised."""
    what = type(error).__name__
    if what == "KilledWorker":
        said = (f"{os.fsdecode(name)}: its worker died while reading it, {retries + 1} "
                "time(s) (past the worker's memory limit?); lower --max-events or "
                "--max-event-bytes, or give the workers more memory")
    else:
        said = f"{os.fsdecode(name)}: its task failed on every try: {what}: {error}"
    return _attnprof.summary_of_failure(name, said.splitlines()[0] if said else what)


def _gathered(futures, names, retries: int, failed=None) -> list:
    """Each future's result, in order. A trace whose task failed after its retries gives its
    error row (`failed`, by default its summary line of error), so that one trace that kills
    its worker never loses the other traces' results: gather() alone raised KilledWorker for
    the whole call."""
    _dask().wait(futures)
    out = []
    for name, future in zip(names, futures):
        try:
            out.append(future.result())
        except Exception as error:  # any failure of one task is that trace's row
            out.append(_failure_line(name, retries, error) if failed is None else failed(error))
    return out


def _expanded(paths) -> List[str]:
    if isinstance(paths, (str, bytes)) or not isinstance(paths, Iterable):
        paths = [paths]
    return _attnprof.expand([_path(p) for p in paths])
