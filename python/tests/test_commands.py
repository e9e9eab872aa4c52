"""attnprof.diff, attnprof.check and attnprof.report against the CLI on the same real traces
(tests/data, examples/h200-study): each must say what its command says."""

import io
import json
import os
import subprocess

import pandas as pd
import pytest

import attnprof

DATA = os.environ["ATTNPROF_TEST_DATA"]
CLI = os.environ["ATTNPROF_CLI"]
STUDY = os.path.join(os.environ["ATTNPROF_SOURCE_DIR"], "examples", "h200-study")


def fixture(name):
    return os.path.join(DATA, name)


def cli(*args, code=0):
    run = subprocess.run([CLI, *args], capture_output=True, text=True)
    assert run.returncode == code, run.stderr
    return run.stdout


def test_diff_gives_the_cli_json_numbers():
    a, b = fixture("study_naive.json.gz"), fixture("study_sdpa-math.json.gz")
    d = attnprof.diff(a, b, region="forward")
    doc = json.loads(cli("diff", "--region", "forward", "--format", "json", a, b))
    per_region = d.per_region.set_index("quantity")
    for key in ("kernels", "memset", "gpu_busy_us", "wall_us", "cpu_us", "idle_us"):
        q = doc["per_region"][key]
        assert per_region.loc[key, "a_median"] == pytest.approx(q["a"]["median"]), key
        assert per_region.loc[key, "b_median"] == pytest.approx(q["b"]["median"]), key
        assert per_region.loc[key, "delta"] == pytest.approx(q["delta"]), key
        assert bool(per_region.loc[key, "changed"]) == q["changed"], key
    assert list(d.activities["change"]) == [x["change"] for x in doc["activities"]]
    assert list(d.classes["class"]) == [c["class"] for c in doc["kernel_classes"]]
    assert d.unlike == doc["unlike"]


def test_diff_views_are_the_cli_json_views():
    # Eager attention against SDPA in one model: the same pipeline call behind both.
    a = fixture("models/llama-prefill-eager.json.gz")
    b = fixture("models/llama-prefill-sdpa.json.gz")
    d = attnprof.diff(a, b)
    doc = json.loads(cli("diff", "--format", "json", a, b))
    for view in ("by_kernel", "by_op", "by_module", "attention"):
        frame = getattr(d, view)
        assert list(frame["name"]) == [r["name"] for r in doc[view]], view
        assert list(frame["delta_us"]) == pytest.approx([r["delta_us"] for r in doc[view]]), view
        assert list(frame["beyond_noise"]) == [r["beyond_noise"] for r in doc[view]], view
    assert list(d.attention["a_ran"]) == [r["a_ran"] for r in doc["attention"]]
    explained = doc["explained_by"]["gpu_busy"]
    assert d.explained_view == explained["view"]
    assert list(d.explained_by["name"]) == [r["name"] for r in explained["rows"]]
    assert d.explained_pct == pytest.approx(explained["covered_pct"])
    assert d.explained_pct >= 80


def test_diff_says_when_the_sides_ran_different_work():
    # Llama's prefill (bf16, 512 queries) against its decode (one query per step).
    d = attnprof.diff(fixture("models/llama-prefill-sdpa.json.gz"),
                      fixture("models/llama-decode-sdpa.json.gz"))
    shapes = "attention shapes (heads x queries x keys x head dim): "
    assert any(u.startswith(shapes) for u in d.unlike), d.unlike
    same = attnprof.diff(fixture("study_naive.json.gz"), fixture("study_naive.json.gz"))
    assert same.unlike == []
    assert set(same.activities["change"]) == {"same"}


def test_diff_of_an_unreadable_trace_raises_the_cli_s_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(attnprof.TraceReadError) as raised:
        attnprof.diff(fixture("study_naive.json.gz"), bad)
    assert raised.value.kind == "truncated"
    assert str(bad) in str(raised.value)


def test_check_holds_and_fails_as_the_cli_exits():
    trace = fixture("study_naive.json.gz")
    held = attnprof.check(trace, expect=["kernels >= 1", "memcpy_dtod >= 1"])
    assert held.passed
    assert list(held.results["holds"]) == [True, True]
    failed = attnprof.check(trace, expect="kernels > 100")
    assert not failed.passed
    cli("check", trace, "--expect", "kernels > 100", code=1)
    rows = pd.read_csv(io.StringIO(cli("check", trace, "--expect", "kernels > 100", "--format",
                                       "csv", code=1)))
    assert list(failed.results["expression"]) == list(rows["expression"].unique())
    with pytest.raises(ValueError, match="expect: "):
        attnprof.check(trace, expect="kernels = 1")


def test_check_reads_a_study_folder_variant_by_variant():
    expectations = os.path.join(os.environ["ATTNPROF_SOURCE_DIR"], "examples", "study.expect")
    c = attnprof.check(STUDY, expectations=expectations)
    text = cli("check", STUDY, "--expectations", expectations, "--format", "json",
               code=0 if c.passed else 1)
    doc = json.loads(text)
    assert c.passed == doc["all_hold"]
    assert sorted(set(c.results["variant"])) == sorted(v["variant"] for v in doc["variants"])
    for v in doc["variants"]:
        mine = c.results[c.results["variant"] == v["variant"]]
        assert list(mine["holds"]) == [r["holds"] for r in v["results"]], v["variant"]


def test_check_with_a_baseline_reads_baseline_metrics():
    trace = fixture("study_naive.json.gz")
    c = attnprof.check(trace, expect="gpu_time_ms <= baseline.gpu_time_ms * 1.05",
                       baseline=trace)
    assert c.passed
    with pytest.raises(attnprof.TraceReadError, match="baseline"):
        attnprof.check(trace, expect="kernels >= 1", baseline=trace)


def test_report_is_the_cli_s_report(tmp_path):
    trace = fixture("study_naive.json.gz")
    assert attnprof.report(trace) == cli("report", trace)
    assert attnprof.report(trace, wide=True) == cli("report", trace, "--wide")
    assert attnprof.report(trace, format="md") == cli("report", trace, "--format", "md")
    page = tmp_path / "r.html"
    assert attnprof.report(trace, output=page) is None
    assert page.read_text().startswith("<!DOCTYPE html>")
    with pytest.raises(ValueError, match="names a md file"):
        attnprof.report(trace, format="html", output=tmp_path / "r.md")
    with pytest.raises(attnprof.TraceReadError, match="over an input"):
        attnprof.report(trace, output=trace)


def test_the_module_s_unknowns_are_nan_where_the_csv_is_empty():
    # What the module's docstring says (python/attnprof/__init__.py) and docs/METRICS.md: the
    # activities have the CSV's columns, in its order, and a value the trace does not give is
    # NaN here and an empty field there.
    path = fixture("study_naive.json.gz")
    t = attnprof.read(path)
    csv = pd.read_csv(io.StringIO(cli("analyze", "--format", "csv", path)),
                      keep_default_na=False, na_values=[""])
    assert list(csv.columns) == list(t.activities.columns)
    assert "region_pid" in t.regions.columns
    assert t.activities["rank"].isna().all()
    assert csv["rank"].isna().all()
    memsets = t.activities["kind"] == "memset"
    assert memsets.any()
    assert t.activities.loc[memsets, "grid_x"].isna().all()
    assert csv.loc[csv["kind"] == "memset", "grid_x"].isna().all()
