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
    t.attention_calls  # per region: one row per attention call: backend, shapes, FLOPs, GPU time
    t.memory         # per region and CUDA device: the peak, when, its op and module, who holds it
    t.critical_path  # one row per region: what held it (CPU, GPU, waits), attention on the path
    t.collectives    # per region: one row per collective: count, bytes, GPU time, algbw, busbw
    attnprof.read("trace.json.gz", what_if=["attention=0.5"]).critical_path  # the step, re-timed

    run = attnprof.analyze(["rank0.json.gz", "rank1.json.gz"])  # or a folder; ranks of one run
    run.across       # per region: the slowest rank and the spread (None unless ranks of one run)

    # Many machines (docs/DISTRIBUTED.md): a small summary per trace where it lies, then one merge.
    lines = [attnprof.summarize(p) for p in paths]      # or attnprof.distributed.analyze(...)
    run = attnprof.merge(lines)                          # run.across as analyze gives it

    # The other commands, with the CLI's semantics (README.md, "From Python"):
    d = attnprof.diff("before.json.gz", "after.json.gz")  # d.per_region, d.by_op, d.explained_by
    c = attnprof.check("t.json.gz", expect=["kernels <= 3"])  # c.passed, c.results
    page = attnprof.report("out/study", format="md")      # or output="report.html"

The columns are those of `attnprof analyze --format csv` (activities; kernels, ops, modules,
attention, memory, critical_path and collectives with --table) and of its JSON output, value for
value; a value the trace does not give (grid, block, registers, shared memory, bytes; a trace's
rank and world size) is NaN here,
empty in the CSV and null in the JSON. Times are in microseconds (columns ending in _us); every
name and unit is in docs/METRICS.md. Nothing here parses JSON in Python.
"""

import errno
import os
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Union

import pandas as pd

try:
    from . import _attnprof
except ImportError as error:  # the compiled half is missing or built for another Python
    import os as _os
    import sys as _sys

    raise ImportError(
        f"attnprof: the compiled part of the module (_attnprof) cannot be loaded from "
        f"{_os.path.dirname(__file__)} ({error}); it is built for Debian's /usr/bin/python3 "
        f"(this is {_sys.executable}): build it with `scripts/configure.sh --target "
        f"attnprof_python` and put build/release/python on PYTHONPATH, or install the module "
        f"(README.md, 'From Python')") from error

# The project's version, as `attnprof --version` prints it and pip installs it.
__version__ = _attnprof.__version__

__all__ = ["Traces", "TraceReadError", "Diff", "Check", "read", "analyze", "summarize", "merge",
           "diff", "check", "report"]


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
    attention_calls: pd.DataFrame
    memory: pd.DataFrame
    # per region: its critical path's length, categories, attention on it, what bounds it, and
    # the what-if (docs/CRITICAL_PATH.md)
    critical_path: pd.DataFrame
    # per region: one row per collective name, dtype and group size: its count, bytes, GPU time,
    # algbw and busbw as nccl-tests gives them, and the link they read against (docs/BREAKDOWN.md)
    collectives: pd.DataFrame
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
        attention_calls=_frame(columns["attention_calls"]),
        memory=_frame(columns["memory"]),
        critical_path=_frame(columns["critical_path"]),
        collectives=_frame(columns["collectives"]),
        across=None if across is None else _frame(across),
        errors=list(columns["errors"]),
        error_kinds=list(columns["error_kinds"]),
    )


PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]


def _path(path) -> bytes:
    """A path as Python's open() takes it: str, bytes or os.PathLike, as the bytes of the file
    system's name (os.fsencode), so that a name that is not UTF-8 reaches the core as it is on
    disk. Anything else (None, a number) is a TypeError and an embedded NUL a ValueError, as
    open() says; str(None) had read a file named "None", and "t.json\\0.gz" had read t.json."""
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError(f"expected a path (str, bytes or os.PathLike), not {type(path).__name__}")
    name = os.fsencode(os.fspath(path))
    if b"\0" in name:
        raise ValueError("embedded null character in path")
    return name


def analyze(paths: Union[PathLike, Iterable[PathLike]], region: Optional[str] = None,
            explain: bool = True, jobs: int = 0, what_if: Iterable[str] = ()) -> Traces:
    """Reads traces (files, or folders of them) at once, `jobs` at a time (0: one per two cores).

    A trace that cannot be read does not stop the others: its error is in `errors`.
    `region` is a glob over user annotations (default: ProfilerStep#* when present, else the
    whole trace). One path (str, bytes, os.PathLike) or an iterable of them. `what_if`: rules
    SELECTOR=FACTOR as `attnprof analyze --what-if` takes them (docs/CRITICAL_PATH.md); each
    region's critical path is timed again with them (the critical_path table's what_if_
    columns). A rule attnprof cannot read is a ValueError."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    elif not isinstance(paths, Iterable):
        raise TypeError(f"expected a path or paths, not {type(paths).__name__}")
    if isinstance(what_if, str):
        what_if = [what_if]
    return _frames(_attnprof.analyze([_path(p) for p in paths], region or "", explain, jobs,
                                     list(what_if)))


def read(path: PathLike, region: Optional[str] = None, explain: bool = True,
         what_if: Iterable[str] = ()) -> Traces:
    """Reads one trace file; raises TraceReadError with attnprof's message when it cannot.

    A folder is refused with IsADirectoryError, as open() refuses it: analyze(folder) reads the
    traces of a folder."""
    path = _path(path)
    if os.path.isdir(path):
        raise IsADirectoryError(errno.EISDIR, "read() reads one trace file; "
                                "attnprof.analyze(folder) reads the traces of a folder",
                                os.fsdecode(path))
    result = analyze([path], region, explain, 1, what_if)
    if result.errors:
        raise TraceReadError(result.errors[0], result.error_kinds[0])
    return result


def summarize(path: PathLike, region: Optional[str] = None) -> str:
    """The map half of a distributed analysis: one trace read where it lies, as one line of JSON
    (`attnprof analyze --format summary`). A trace that cannot be read gives its error's line
    instead of raising, so that a map over many traces carries every outcome to `merge`."""
    return _attnprof.summarize(_path(path), region or "")


def merge(summaries: Iterable[str]) -> Traces:
    """The reduce: the summary lines of `summarize` (each string may hold several lines) as the
    tables `analyze` gives for the same traces, compared across ranks in `across`; their
    activities and findings are empty (a summary has none). A summary that carries a map's error
    is in `errors`; text that is not a summary raises ValueError naming its line."""
    if isinstance(summaries, str):
        summaries = [summaries]
    return _frames(_attnprof.merge(list(summaries)))



def _raise_failure(result):
    """The C++ half returns {"error", "error_kind"} where the CLI would print its one line and
    exit 2."""
    if isinstance(result, dict) and "error" in result:
        raise TraceReadError(result["error"], result["error_kind"])
    return result


@dataclass
class Diff:
    """What changed from trace `a` to trace `b`, as `attnprof diff a b` says it.

    `per_region`: one row per quantity of the JSON's `per_region`, named as there (kernels, memcpy,
    a row per kind of copy as "memcpy DtoD", memset, gpu_busy_us, wall_us, cpu_us, idle_us,
    compute_us, communication_us, memory_us, peak_allocated_mib, the waits), the median, min and
    max of each side over its regions, `delta` (b - a), the `threshold` a change must exceed and
    `changed`.
    `classes`: per kernel class, counts and GPU time. `activities`: the typical regions' activities
    aligned, each `same`, `changed`, `added` or `removed`. `unlike`: what makes the sides not like
    for like (device, attention element type or shapes), empty when they agree.

    The views, as `attnprof diff --format json` gives them, each sorted by |delta_us|:
    `by_kernel` (short names; `full_names` the trace's names folded into one), `by_op`,
    `by_module` (nn.Module classes) and `attention` (calls matched by pass and shape; `a_ran`
    and `b_ran` the backend and element type on each side), with columns name, a_count,
    b_count, a_us, b_us (per region, the mean over the regions), delta_us, delta_pct,
    threshold_us and beyond_noise. `explained_by`: the fewest rows of by_op or by_kernel
    (`explained_view`) that cover at least 80 % of the GPU busy change (`gpu_busy_delta_us`;
    `explained_pct` the share they cover). `wall_explained_by`: the same for the wall time's
    change on the regions' critical paths, by the path's categories or by the kernels and ops on
    it (`wall_explained_view`: path_by_category or path_by_item; `wall_delta_us`,
    `wall_explained_pct`); None where a region of either side has no path.
    `changed_only_in`: kernels whose launch shape changed while their time held, counted by what
    changed."""

    a: str
    b: str
    unlike: List[str]
    aligned_in_order: bool
    per_region: pd.DataFrame
    classes: pd.DataFrame
    activities: pd.DataFrame
    by_kernel: pd.DataFrame
    by_op: pd.DataFrame
    by_module: pd.DataFrame
    attention: pd.DataFrame
    explained_by: pd.DataFrame
    explained_view: str
    gpu_busy_delta_us: float
    explained_pct: float
    changed_only_in: Dict[str, int]
    wall_explained_by: Optional[pd.DataFrame] = None
    wall_explained_view: Optional[str] = None
    wall_delta_us: Optional[float] = None
    wall_explained_pct: Optional[float] = None


def diff(a: PathLike, b: PathLike, region: Optional[str] = None) -> Diff:
    """Compares trace `b` with trace `a` (the baseline), region by region; raises TraceReadError
    with attnprof's line when either cannot be read or has no region."""
    d = _raise_failure(_attnprof.diff(_path(a), _path(b), region or ""))
    e = d["explained_gpu"]
    w = d["explained_wall"]

    def view(columns, attention=False):
        frame = pd.DataFrame(columns)
        drop = ["full_names"] if attention else ["a_ran", "b_ran"]
        return frame.drop(columns=drop)

    by_kernel = view(d["by_kernel"])
    return Diff(a=d["a"], b=d["b"], unlike=list(d["unlike"]),
                aligned_in_order=bool(d["aligned_in_order"]),
                per_region=pd.DataFrame(d["per_region"]), classes=pd.DataFrame(d["classes"]),
                activities=pd.DataFrame(d["activities"]), by_kernel=by_kernel,
                by_op=view(d["by_op"]).drop(columns=["full_names"]),
                by_module=view(d["by_module"]).drop(columns=["full_names"]),
                attention=view(d["attention"], attention=True),
                explained_by=view(e["rows"]).drop(columns=["full_names"]),
                explained_view=e["view"], gpu_busy_delta_us=float(e["delta_us"]),
                explained_pct=float(e["covered_pct"]), changed_only_in=dict(d["changed_only_in"]),
                wall_explained_by=(view(w["rows"]).drop(columns=["full_names"]) if w else None),
                wall_explained_view=w["view"] if w else None,
                wall_delta_us=float(w["delta_us"]) if w else None,
                wall_explained_pct=float(w["covered_pct"]) if w else None)


@dataclass
class Check:
    """Expectations checked as `attnprof check` checks them: `passed` is its exit code 0.

    `results`: one row per expectation (per variant of a study folder): trace, variant,
    expression, source, holds, actual. `unchecked`: a study's traces its summary.json lists but
    that are missing (the check then fails)."""

    passed: bool
    results: pd.DataFrame
    unchecked: List[str] = field(default_factory=list)


def check(target: PathLike, expect: Union[str, Iterable[str]] = (),
          expectations: Optional[PathLike] = None, region: Optional[str] = None,
          baseline: Optional[PathLike] = None) -> Check:
    """Checks a trace, or a study folder variant by variant, against `expect` (expressions such
    as "kernels <= 3", docs/check-and-diff.md) and the lines of an `expectations` file; a
    `baseline` (trace, or study folder) is what `baseline.METRIC` reads. An expression that does
    not parse raises ValueError; a file that cannot be read, TraceReadError."""
    if isinstance(expect, str):
        expect = [expect]
    c = _raise_failure(_attnprof.check(
        _path(target), list(expect), _path(expectations) if expectations is not None else "",
        region or "", _path(baseline) if baseline is not None else ""))
    return Check(passed=bool(c["passed"]), results=pd.DataFrame(c["results"]),
                 unchecked=list(c["unchecked"]))


# The formats a file name's extension names, as the CLI's -o chooses them (src/cli/output_option.cpp).
_REPORT_EXTENSIONS = {".html": "html", ".htm": "html", ".md": "md", ".markdown": "md",
                      ".txt": "text"}


def report(inputs: Union[PathLike, Iterable[PathLike]], format: Optional[str] = None,
           region: Optional[str] = None, output: Optional[PathLike] = None,
           wide: bool = False) -> Optional[str]:
    """The report of a bench run folder or of traces, as `attnprof report` writes it.

    Without `output`, returns it as a string (text unless `format` says html, md or headline).
    With `output`, writes the file whole or not at all, never over an input, and returns None;
    its format is `format`, else the one the file's extension names, else html. A `format` the
    extension contradicts raises ValueError, as the CLI refuses it. Text fits 120 columns, as the
    CLI writes it to a file or a pipe, unless `wide`."""
    if isinstance(inputs, (str, bytes, os.PathLike)):
        inputs = [inputs]
    paths = [_path(p) for p in inputs]
    out = _path(output) if output is not None else b""
    shown = os.fsdecode(out)
    named = next((f for ext, f in _REPORT_EXTENSIONS.items() if shown.lower().endswith(ext)),
                 None)
    if format is not None and named is not None and format != named and not (
            named == "text" and format == "headline"):
        raise ValueError(f"format {format!r} but output {shown} names a {named} file: drop format, "
                         f"or name the file for {format}")
    chosen = format or named or ("html" if out else "text")
    text = _raise_failure(_attnprof.report(paths, chosen, region or "", out, wide))
    return None if out else text
