"""One vocabulary (docs/METRICS.md): every activity column of analyze's CSV, its JSON and the Python
module's `activities` table, value for value on the same real traces; unknown values the same
way in each (empty, null, NaN); and every column of every Python table named in docs/METRICS.md."""

import io
import json
import math
import os
import re
import subprocess

import pandas as pd
import pytest

import attnprof

DATA = os.environ["ATTNPROF_TEST_DATA"]
CLI = os.environ["ATTNPROF_CLI"]
SOURCE = os.environ.get("ATTNPROF_SOURCE_DIR", os.path.join(DATA, "..", ".."))

# A copy and kernels (naive), twenty kernels (math), a ROCm trace from HTA, a training step.
TRACES = [("study_naive.json.gz", "forward"), ("study_sdpa-math.json.gz", "forward"),
          ("foreign/hta_rocm_mi250.json.gz", None), ("train_step.json.gz", None)]


def cli(*args):
    return subprocess.run([CLI, "analyze", *args], check=True, capture_output=True,
                          text=True).stdout


def region_args(region):
    return ["--region", region] if region else []


def json_rows(path, region):
    """analyze's JSON activities as CSV's columns: unknown (null or absent) as None."""
    doc = json.loads(cli("--format", "json", *region_args(region), path))["traces"][0]
    rows = []
    for index, r in enumerate(doc["regions"]):
        for a in r["activities"]:
            row = {"trace": doc["path"], "rank": (doc.get("distributed") or {}).get("rank"),
                   "region": r["name"], "region_index": index, "region_pid": r["pid"],
                   "typical": index == doc["typical_region"]}
            for key, value in a.items():
                if key in ("grid", "block"):
                    for axis, v in zip("xyz", value or [None] * 3):
                        row[f"{key}_{axis}"] = v
                elif key == "op_chain":
                    row[key] = " > ".join(value)
                else:
                    row[key] = value
            rows.append(row)
    return rows


def same(a, b):
    unknown_a = a is None or a == "" or (isinstance(a, float) and math.isnan(a))
    unknown_b = b is None or b == "" or (isinstance(b, float) and math.isnan(b))
    if unknown_a or unknown_b:
        return unknown_a and unknown_b
    if isinstance(a, (bool, str)) or isinstance(b, (bool, str)):
        return str(a).lower() == str(b).lower()
    return a == pytest.approx(b, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("name,region", TRACES)
def test_every_activity_column_agrees_in_csv_json_and_python(name, region):
    path = os.path.join(DATA, name)
    csv = pd.read_csv(io.StringIO(cli("--format", "csv", *region_args(region), path)),
                      keep_default_na=False, na_values=[""])
    py = attnprof.read(path, region=region).activities
    rows = json_rows(path, region)
    assert list(csv.columns) == list(py.columns), "CSV and Python list the same columns in order"
    assert len(csv) == len(py) == len(rows) > 0
    for column in csv.columns:
        for i in range(len(csv)):
            c, p, j = csv[column].iloc[i], py[column].iloc[i], rows[i].get(column)
            if isinstance(c, float) and not math.isnan(c) and c == int(c):
                c = int(c)
            assert same(c, p), f"{name} row {i} {column}: CSV {c!r}, Python {p!r}"
            assert same(j, p), f"{name} row {i} {column}: JSON {j!r}, Python {p!r}"


def test_unknown_is_nan_never_minus_one():
    t = attnprof.read(os.path.join(DATA, "study_naive.json.gz"), region="forward")
    # No distributedInfo: no rank, no world size.
    assert t.traces["rank"].isna().all() and t.traces["world_size"].isna().all()
    assert t.activities["rank"].isna().all()
    copies = t.activities[t.activities["kind"] == "memcpy"]
    kernels = t.activities[t.activities["kind"] == "kernel"]
    assert len(copies) > 0 and len(kernels) > 0
    launch = ["grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z",
              "registers_per_thread", "shared_memory_bytes"]
    assert copies[launch].isna().all().all(), "a copy has no launch configuration"
    assert kernels["bytes"].isna().all(), "a kernel has no size"
    assert copies["bytes"].notna().all() and kernels[launch].notna().all().all()
    for frame in (t.traces, t.regions, t.activities, t.findings, t.kernels, t.ops, t.modules):
        numbers = frame.select_dtypes("number")
        assert not (numbers == -1).any().any(), list(numbers.columns[(numbers == -1).any()])
    # The mean of a launch column is the kernels' mean, not pulled down by -1 for copies.
    assert t.activities["grid_x"].mean() == pytest.approx(kernels["grid_x"].mean())


def documented_names():
    with open(os.path.join(SOURCE, "docs", "METRICS.md"), encoding="utf-8") as f:
        names = set()
        for line in f:
            if line.startswith("| `"):
                names.update(re.findall(r"`([^`]+)`", line.split(" | ")[0]))
        return names


def test_every_python_column_is_in_the_metrics_doc():
    names = documented_names()
    tables = attnprof.read(os.path.join(DATA, "study_naive.json.gz"), region="forward")
    ranks = attnprof.analyze(os.path.join(DATA, "ranks"), jobs=1)
    frames = {n: getattr(tables, n) for n in ("traces", "regions", "activities", "findings",
                                               "kernels", "ops", "modules", "attention_calls")}
    frames["across"] = ranks.across
    missing = [f"{n}.{c}" for n, f in frames.items() for c in f.columns if c not in names]
    assert not missing, f"columns not in docs/METRICS.md: {missing}"
