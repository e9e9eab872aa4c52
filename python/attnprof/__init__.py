"""attnprof from Python: PyTorch profiler (Kineto) traces read by attnprof's C++ reader, as
pandas DataFrames.

    import attnprof
    t = attnprof.read("trace.json.gz")           # one trace; raises on a bad one
    t.regions        # one row per region: wall, CPU and GPU-busy time, kernel and copy counts
    t.activities     # one row per GPU activity of every region, with the op chain that launched it
    t.findings       # what the trace means: hidden copies, FP32 upcasts, unfused attention, ...
    t.kernels        # per region: one row per kernel (by full name), its count and times
    t.ops            # per region: one row per op name, as key_averages: calls, CPU, self, GPU
    t.modules        # per region: one row per nn.Module instance (traces recorded with_stack)

    run = attnprof.analyze(["rank0.json.gz", "rank1.json.gz"])  # or a folder; ranks of one run
    run.across       # per region: the slowest rank and the spread (None unless ranks of one run)

The columns are those of `attnprof analyze --format csv` (activities; kernels, ops and modules
with --table) and of its JSON output;
times are in microseconds (columns ending in _us). Nothing here parses JSON in Python.
"""

from dataclasses import dataclass, field
from typing import Iterable, List, Optional, Union

import pandas as pd

from . import _attnprof

__all__ = ["Traces", "TraceReadError", "read", "analyze"]


class TraceReadError(ValueError):
    """A trace could not be read; the message is attnprof's one line naming the file.

    `kind` says what went wrong, as attnprof's ErrorKind names it: "io", "not_a_trace",
    "malformed", "truncated", "limit", "usage" or "unmatched"."""

    def __init__(self, message: str, kind: str = ""):
        super().__init__(message)
        self.kind = kind


@dataclass
class Traces:
    """The tables of one or more traces; every table has a `trace` (path) and `rank` column."""

    traces: pd.DataFrame
    regions: pd.DataFrame
    activities: pd.DataFrame
    findings: pd.DataFrame
    kernels: pd.DataFrame
    ops: pd.DataFrame
    modules: pd.DataFrame
    across: Optional[pd.DataFrame] = None
    errors: List[str] = field(default_factory=list)
    error_kinds: List[str] = field(default_factory=list)  # per error: "io", "truncated", ...

    def typical_activities(self) -> pd.DataFrame:
        """The activities of each trace's typical region (the one closest to the medians)."""
        return self.activities[self.activities["typical"]].reset_index(drop=True)


def _frame(columns: dict) -> pd.DataFrame:
    # The arrays are new and the module's alone: no copy (30 ms of the 200 MB trace's read).
    return pd.DataFrame(columns, copy=False)


def _frames(columns: dict) -> Traces:
    across = columns["across"]
    return Traces(
        traces=_frame(columns["traces"]),
        regions=_frame(columns["regions"]),
        activities=_frame(columns["activities"]),
        findings=_frame(columns["findings"]),
        kernels=_frame(columns["kernels"]),
        ops=_frame(columns["ops"]),
        modules=_frame(columns["modules"]),
        across=None if across is None else _frame(across),
        errors=list(columns["errors"]),
        error_kinds=list(columns["error_kinds"]),
    )


def analyze(paths: Union[str, Iterable[str]], region: Optional[str] = None,
            explain: bool = True, jobs: int = 0) -> Traces:
    """Reads traces (files, or folders of them) at once, `jobs` at a time (0: one per two cores).

    A trace that cannot be read does not stop the others: its error is in `errors`.
    `region` is a glob over user annotations (default: ProfilerStep#* when present, else the
    whole trace)."""
    if isinstance(paths, str):
        paths = [paths]
    return _frames(_attnprof.analyze([str(p) for p in paths], region or "", explain, jobs))


def read(path: str, region: Optional[str] = None, explain: bool = True) -> Traces:
    """Reads one trace; raises TraceReadError with attnprof's message when it cannot."""
    result = analyze([path], region, explain, 1)
    if result.errors:
        raise TraceReadError(result.errors[0], result.error_kinds[0])
    return result
