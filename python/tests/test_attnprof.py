"""The Python module against the CLI on the same real traces (tests/data): the frames must hold
what `attnprof analyze --format json|csv` says, row for row."""

import io
import json
import os
import subprocess

import pandas as pd
import pytest

import attnprof

DATA = os.environ["ATTNPROF_TEST_DATA"]
CLI = os.environ["ATTNPROF_CLI"]


def fixture(name):
    return os.path.join(DATA, name)


def cli_json(*args):
    out = subprocess.run([CLI, "analyze", "--explain", "--format", "json", *args],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def test_read_gives_the_cli_numbers():
    t = attnprof.read(fixture("study_naive.json.gz"), region="forward")
    doc = cli_json("--region", "forward", fixture("study_naive.json.gz"))["traces"][0]
    assert list(t.regions["region"]) == [r["name"] for r in doc["regions"]]
    assert list(t.regions["kernels"]) == [r["kernels"] for r in doc["regions"]]
    assert list(t.regions["memcpy"]) == [r["memcpy"] for r in doc["regions"]]
    assert t.regions["gpu_busy_us"].tolist() == pytest.approx(
        [r["gpu_busy_us"] for r in doc["regions"]])
    for key in ("span_us", "idle_us", "compute_us", "communication_us", "memory_us"):
        assert t.regions[key].tolist() == pytest.approx(
            [r["time_breakdown"][key] for r in doc["regions"]]), key
    assert t.regions["communication_overlap_pct"].isna().all()  # no collective in the trace
    # Every number of a region's JSON object that the regions table also has (the region facts
    # catalog's, read per region: gpu_syncs, idle_pct, ...), alike; null is NaN.
    shared = [k for k, v in doc["regions"][0].items()
              if k in t.regions.columns and (v is None or isinstance(v, (int, float)))]
    assert {"kernels", "gpu_syncs", "wall_us", "idle_pct"} <= set(shared)
    for key in shared:
        expected = [float("nan") if r[key] is None else r[key] for r in doc["regions"]]
        assert t.regions[key].tolist() == pytest.approx(expected, nan_ok=True), key
    # Every region's activities, as the JSON lists them.
    assert len(t.activities) == sum(len(r["activities"]) for r in doc["regions"])
    first = doc["regions"][0]["activities"]
    rows = t.activities[t.activities["region_index"] == 0]
    assert list(rows["short_name"]) == [a["short_name"] for a in first]
    assert list(rows["op_chain"]) == [" > ".join(a["op_chain"]) for a in first]
    assert rows["duration_us"].tolist() == pytest.approx([a["duration_us"] for a in first])
    # Findings: the same ids in the same order; the hidden copy of the out-of-place masked_fill.
    assert list(t.findings["id"]) == [f["id"] for f in doc["findings"]]
    assert "hidden-copy" in set(t.findings["id"])
    # Numbers are numbers: pandas can sum and group them without conversion.
    assert t.activities["duration_us"].dtype == "float64"
    # A copy's grid is unknown (NaN, docs/METRICS.md), so the launch columns are float64.
    assert t.activities["grid_x"].dtype == "float64"
    assert t.activities["stream"].dtype == "int64"
    assert t.activities.groupby("kind")["duration_us"].sum()["memcpy"] > 0
    # Text is text: object columns of str, with pandas' string methods, as a list would give.
    assert t.activities["name"].dtype == object
    assert all(isinstance(n, str) for n in t.activities["name"])
    assert t.activities["name"].str.contains("softmax").any()


def test_activities_match_the_csv_output():
    path = fixture("study_sdpa-math.json.gz")
    t = attnprof.read(path, region="forward")
    csv = subprocess.run([CLI, "analyze", "--format", "csv", "--region", "forward", path],
                         check=True, capture_output=True, text=True).stdout
    frame = pd.read_csv(io.StringIO(csv), keep_default_na=False, na_values=[""])
    assert len(frame) == len(t.activities)
    for column in ["short_name", "op_chain", "launch_api", "region"]:
        assert list(frame[column].fillna("")) == list(t.activities[column]), column
    assert frame["duration_us"].tolist() == pytest.approx(t.activities["duration_us"].tolist())


def test_ranks_of_one_run_are_compared():
    run = attnprof.analyze(os.path.join(DATA, "ranks"), jobs=2)
    assert list(run.traces["rank"]) == [0, 1]
    assert run.across is not None
    # Rank 1 trains on more tokens: the slower on the GPU in every step (tests/data/ranks).
    assert set(run.across["gpu_busy_slowest"]) == {"rank 1"}
    # And it reaches the gloo all-reduces last: the job's path waits for it in every step.
    assert set(run.across["job_held_by"]) == {"rank 1"}
    assert (run.across["job_held_us"] < run.across["job_path_us"]).all()
    assert set(run.across["job_held_with"]) == {"aten::addmm"}
    variants = attnprof.analyze([fixture("study_naive.json.gz"), fixture("study_inplace.json.gz")])
    assert variants.across is None, "two variants are not ranks of one run"


def test_a_bad_trace_raises_with_attnprof_s_message(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"traceEvents": [')
    with pytest.raises(attnprof.TraceReadError, match="bad.json") as raised:
        attnprof.read(str(bad))
    assert raised.value.kind == "truncated"
    run = attnprof.analyze([str(bad), fixture("study_inplace.json.gz")])
    assert len(run.errors) == 1 and len(run.traces) == 1
    assert run.error_kinds == ["truncated"]
    with pytest.raises(attnprof.TraceReadError) as missing:
        attnprof.read(str(tmp_path / "missing.json"))
    assert missing.value.kind == "io"


def test_many_traces_give_each_one_s_rows_in_order(tmp_path):
    # Each trace's activity columns are filled on its own reading thread and joined in the order
    # of the paths, their text values merged: the frame must be each trace's own, one after the
    # other, whatever failed between them.
    bad = tmp_path / "bad.json"
    bad.write_text('{"traceEvents": [')
    paths = [fixture("study_naive.json.gz"), str(bad), fixture("study_inplace.json.gz"),
             fixture("study_naive.json.gz")]
    run = attnprof.analyze(paths, jobs=2)
    assert len(run.errors) == 1
    alone = [attnprof.read(p).activities for p in (paths[0], paths[2], paths[3])]
    joined = pd.concat(alone, ignore_index=True)
    assert len(run.activities) == len(joined) > 0
    pd.testing.assert_frame_equal(run.activities, joined)
    assert list(run.activities["trace"].drop_duplicates()) == [paths[0], paths[2]]


def test_json_that_is_not_a_trace_raises_not_a_trace(tmp_path):
    # [1, 2, 3] once read as an empty trace with three warnings.
    for name, text, where in [("array.json", "[1, 2, 3]", "at byte 1"),
                              ("number.json", "42", "byte 0"),
                              ("nulls.json", '{"traceEvents": [null]}', "at byte 17")]:
        path = tmp_path / name
        path.write_text(text)
        with pytest.raises(attnprof.TraceReadError, match=name) as raised:
            attnprof.read(str(path))
        assert raised.value.kind == "not_a_trace"
        assert where in str(raised.value)


def test_regions_have_the_time_breakdown():
    """An NCCL rank (HTA's trace): communication and its overlap per region, as the JSON has them."""
    t = attnprof.read(fixture("foreign/hta_nccl_rank0.json.gz"))
    doc = cli_json(fixture("foreign/hta_nccl_rank0.json.gz"))["traces"][0]
    assert t.regions["communication_us"].tolist() == pytest.approx(
        [r["time_breakdown"]["communication_us"] for r in doc["regions"]])
    assert t.regions["communication_overlap_pct"].tolist() == pytest.approx(
        [r["communication_overlap_pct"] for r in doc["regions"]])
    parts = t.regions["compute_us"] + t.regions["communication_us"] + t.regions["memory_us"]
    assert parts.tolist() == pytest.approx(t.regions["gpu_busy_us"].tolist())


def waits_of_json_region(r):
    """A region's waits as analyze's JSON has them, summed and taken as check and the frames do."""
    idle = r["idle_by_stream"]
    delays = r["launch_delays"]
    launched = delays["launched"] > 0
    nan = float("nan")
    return {
        "idle_host_wait_us": sum(s["host_wait_us"] for s in idle),
        "idle_kernel_gap_us": sum(s["kernel_gap_us"] for s in idle),
        "idle_other_us": sum(s["other_us"] for s in idle),
        "launch_delay_median_us": delays["launch_start_to_start_median_us"] if launched else nan,
        "launch_delay_p95_us": delays["launch_start_to_start_p95_us"] if launched else nan,
        "launch_delay_max_us": delays["launch_start_to_start_max_us"] if launched else nan,
        "op_to_launch_median_us": nan if delays["op_to_launch_median_us"] is None
        else delays["op_to_launch_median_us"],
        "queue_max_length": max([q["max_length"] for q in r["queues"]], default=0),
        "queue_time_mean_length": max([q["time_mean_length"] for q in r["queues"]], default=0.0),
        "queue_point_mean_length": max([q["point_mean_length"] for q in r["queues"]],
                                       default=0.0),
        "full_queue_us": sum(q["full_queue_us"] for q in r["queues"]),
    }


WAIT_TRACES = ["models/llama-decode-sdpa.json.gz", "models/llama-train-sdpa.json.gz",
               "foreign/hta_nccl_rank0.json.gz"]


@pytest.mark.parametrize("name", WAIT_TRACES)
def test_regions_have_idle_causes_launch_delays_and_queues(name):
    """Real H200 traces and HTA's NCCL rank: per region, the frame's values are the JSON's."""
    t = attnprof.read(fixture(name))
    doc = cli_json(fixture(name))["traces"][0]
    expected = [waits_of_json_region(r) for r in doc["regions"]]
    assert len(expected) == len(t.regions) > 0
    for column in expected[0]:
        assert t.regions[column].tolist() == pytest.approx(
            [e[column] for e in expected], nan_ok=True), column
    # Something to compare: the decode steps wait on the host, and every trace launches.
    assert t.regions["launch_delay_median_us"].notna().all()
    assert (t.regions["queue_max_length"] > 0).all()


@pytest.mark.parametrize("name", WAIT_TRACES)
def test_check_metrics_of_waits_are_the_json_medians(name):
    """check's metrics are the medians over the regions of the same values (check --format json)."""
    doc = cli_json(fixture(name))["traces"][0]
    expected = [waits_of_json_region(r) for r in doc["regions"]]
    metrics = list(expected[0])
    out = subprocess.run([CLI, "check", fixture(name), "--format", "json"] +
                         sum((["--expect", f"{m} >= 0"] for m in metrics), []),
                         capture_output=True, text=True)
    assert out.returncode in (0, 1), out.stdout + out.stderr
    got = json.loads(out.stdout)
    values = json.dumps(got)
    for m in metrics:
        present = sorted(e[m] for e in expected if e[m] == e[m])  # NaN is absent
        median = (present[len(present) // 2] if len(present) % 2 else
                  (present[len(present) // 2 - 1] + present[len(present) // 2]) / 2)
        assert m in values, m
        assert median == pytest.approx(metric_median(got, m), rel=1e-6, abs=1e-3), m


def test_diff_shows_the_waits_that_changed():
    """A prefill against a decode step (real H200 traces): diff's JSON has every wait, with A's
    median that of analyze's JSON; its text has a line for each changed one, and none for the
    others."""
    a, b = fixture("models/llama-prefill-sdpa.json.gz"), fixture("models/llama-decode-sdpa.json.gz")
    run = lambda *args: subprocess.run([CLI, "diff", *args, a, b], capture_output=True, text=True)
    doc = json.loads(run("--format", "json").stdout)["per_region"]
    text = run().stdout
    expected = [waits_of_json_region(r) for r in cli_json(a)["traces"][0]["regions"]]
    changed = 0
    for metric in expected[0]:
        assert metric in doc, metric
        present = sorted(e[metric] for e in expected)
        median = (present[len(present) // 2] if len(present) % 2 else
                  (present[len(present) // 2 - 1] + present[len(present) // 2]) / 2)
        assert doc[metric]["a"]["median"] == pytest.approx(median, rel=1e-6, abs=1e-3), metric
        lines = [line for line in text.splitlines() if line.lstrip().startswith(metric + " ")]
        assert len(lines) == (1 if doc[metric]["changed"] else 0), (metric, lines)
        changed += doc[metric]["changed"]
    assert changed > 0  # a decode step waits otherwise than a prefill


def metric_median(check_json, metric):
    """The median check reports for `metric`, wherever its JSON keeps it."""
    found = []

    def walk(node):
        if isinstance(node, dict):
            if metric in node and isinstance(node[metric], dict) and "median" in node[metric]:
                found.append(node[metric]["median"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(check_json)
    assert found, metric
    return found[0]


# Hostile input, second pass (docs/SECURITY.md): paths are taken as open() takes them.
def test_read_refuses_an_embedded_nul_as_open_does():
    with pytest.raises(ValueError, match="embedded null"):
        attnprof.read(fixture("cpp_sdpa_cudnn.json.gz") + "\0.gz")  # read the .gz before it
    with pytest.raises(ValueError, match="embedded null"):
        attnprof.analyze([fixture("cpp_sdpa_cudnn.json.gz") + "\0"])


def test_read_refuses_what_is_not_a_path():
    for bad in (None, 5, 1.5):
        with pytest.raises(TypeError, match="expected a path"):
            attnprof.read(bad)  # None read a file named "None"
    with pytest.raises(TypeError):
        attnprof.analyze(None)


def test_bytes_and_pathlike_paths_are_one_path():
    import pathlib
    path = fixture("cpp_sdpa_cudnn.json.gz")
    as_str = attnprof.read(path)
    for same in (os.fsencode(path), pathlib.Path(path)):
        other = attnprof.read(same)  # bytes were read as a list of integers
        assert list(other.activities["name"]) == list(as_str.activities["name"])
    assert len(attnprof.analyze(os.fsencode(path)).traces) == 1


def test_a_file_name_that_is_not_utf8_is_its_own_row(tmp_path):
    # One such name in a folder raised UnicodeDecodeError for the whole call (the CLI reads it).
    import shutil
    folder = os.fsencode(str(tmp_path))
    good = os.path.join(folder, b"r\xe9.json.gz")  # Latin-1, not UTF-8
    bad = os.path.join(folder, b"bad-\xff.json")
    shutil.copyfile(fixture("cpp_sdpa_cudnn.json.gz"), good)
    with open(bad, "wb") as f:
        f.write(b"not a trace")
    t = attnprof.analyze(tmp_path)
    assert list(t.traces["trace"]) == [os.fsdecode(good)]
    assert len(t.errors) == 1 and os.fsdecode(b"bad-\xff.json") in t.errors[0]
    for name in (good, os.fsdecode(good)):  # bytes, and the str os.fsdecode makes of them
        assert len(attnprof.read(name).traces) == 1
    with pytest.raises(attnprof.TraceReadError):
        attnprof.read(bad)


def test_read_of_a_folder_is_refused_and_analyze_reads_it():
    with pytest.raises(IsADirectoryError, match="analyze"):
        attnprof.read(fixture("ranks"))
    assert len(attnprof.analyze(fixture("ranks")).traces) > 1


def test_top_tables_match_the_json_output():
    t = attnprof.read(fixture("train_step.json.gz"))
    doc = cli_json(fixture("train_step.json.gz"))["traces"][0]
    for index, region in enumerate(doc["regions"]):
        ops = t.ops[t.ops["region_index"] == index].reset_index(drop=True)
        assert list(ops["name"]) == [o["name"] for o in region["ops"]]
        assert list(ops["calls"]) == [o["calls"] for o in region["ops"]]
        assert list(ops["self_cpu_us"]) == pytest.approx([o["self_cpu_us"] for o in region["ops"]])
        assert list(ops["gpu_us"]) == pytest.approx([o["gpu_us"] for o in region["ops"]])
        kernels = t.kernels[t.kernels["region_index"] == index]
        assert list(kernels["name"]) == [k["name"] for k in region["top_kernels"]]
        assert list(kernels["count"]) == [k["count"] for k in region["top_kernels"]]
        assert list(kernels["total_us"]) == pytest.approx(
            [k["total_us"] for k in region["top_kernels"]])
        modules = t.modules[t.modules["region_index"] == index]
        assert list(modules["name"]) == [m["name"] for m in region["modules"]]
        assert list(modules["gpu_us"]) == pytest.approx([m["gpu_us"] for m in region["modules"]])
    attention = t.modules[(t.modules["name"] == "Attention_0") & t.modules["typical"]]
    assert list(attention["class"]) == ["Attention"]
    assert list(attention["gpu_activities"]) == [14]


def test_attention_calls_match_the_json_output():
    path = fixture("models/llama-train-sdpa.json.gz")
    t = attnprof.read(path)
    doc = cli_json(path)["traces"][0]
    calls = t.attention_calls
    expected = [c for region in doc["regions"] for c in region["attention_calls"]]
    assert len(calls) == len(expected) == 8  # 2 steps x 2 layers x forward and backward
    assert list(calls["backend"]) == [c["backend"] for c in expected]
    assert list(calls["backward"]) == [c["backward"] for c in expected]
    for column in ["batch", "heads", "kv_heads", "q_len", "kv_len", "head_dim", "flops", "gpu_us"]:
        assert list(calls[column]) == pytest.approx([c[column] for c in expected]), column
    assert list(calls["causal"]) == [c["causal"] for c in expected]
    assert set(calls["kv_heads"]) == {4}


def test_collectives_match_the_json_output():
    path = fixture("comm/comm-overlap.json.gz")  # one-rank all-reduces, H200
    t = attnprof.read(path)
    doc = cli_json(path)["traces"][0]
    expected = [(i, c) for i, region in enumerate(doc["regions"]) for c in region["collectives"]]
    rows = t.collectives
    assert len(rows) == len(expected) > 0
    assert list(rows["region_index"]) == [i for i, _ in expected]
    assert list(rows["collective"]) == [c["name"] for _, c in expected]
    for column in ["count", "sized", "bytes"]:
        assert list(rows[column]) == [c[column] for _, c in expected], column
    for column in ["gpu_us", "algbw_gbps", "bus_factor", "busbw_gbps"]:
        assert list(rows[column]) == pytest.approx([c[column] for _, c in expected]), column
    assert list(rows["group_size"]) == [c["group_size"] for _, c in expected]
    assert set(rows["link"]) == {doc["link"]["name"]}
    assert set(rows["link_gbps_per_direction"]) == {doc["link"]["gbps_per_direction"]}


def test_memory_matches_the_json_output():
    path = fixture("study_naive.json.gz")  # profile_memory=True
    t = attnprof.read(path)
    doc = cli_json(path)["traces"][0]
    expected = [m for region in doc["regions"] for m in region["memory"]]
    memory = t.memory
    assert len(memory) == len(expected) == 3  # 3 steps on device 0
    for column in ["device", "events", "peak_allocated_bytes", "at_start_bytes", "at_end_bytes",
                   "peak_reserved_bytes", "allocated_before_trace_bytes"]:
        assert list(memory[column]) == [m[column] for m in expected], column
    assert list(memory["peak_at_us"]) == pytest.approx([m["peak_at_us"] for m in expected])
    assert list(memory["peak_op"]) == [m["peak_op"] or "" for m in expected]
    assert [[h[0] for h in row] for row in memory["top_allocators"]] == \
        [[h["op"] or "" for h in m["top_allocators"]] for m in expected]
    calls = t.attention_calls
    assert (calls["allocated_bytes"] > 0).all()
    # No [memory] events: no rows, and attention calls whose memory is unknown.
    plain = attnprof.read(fixture("models/llama-train-sdpa.json.gz"))
    assert len(plain.memory) == 0
    assert plain.attention_calls["allocated_bytes"].isna().all()


def test_attention_calls_unknown_shapes_are_nan_and_none():
    # A graph's replays without their capture: the cuDNN kernels' ops are unknown.
    t = attnprof.read(fixture("graphs/hf-decode-graph-replay.json.gz"))
    calls = t.attention_calls
    assert len(calls) > 0
    assert set(calls["backend"]) == {"cudnn"}
    assert calls["heads"].isna().all()
    assert calls["flops"].isna().all()
    assert all(c is None for c in calls["causal"])


def test_version_is_the_cli_version():
    first = subprocess.run([CLI, "--version"], check=True, capture_output=True,
                           text=True).stdout.splitlines()[0]
    assert first.split()[:2] == ["attnprof", attnprof.__version__]


def test_critical_path_matches_the_json_output():
    name = fixture("study_naive.json.gz")
    t = attnprof.read(name, what_if=["attention=0.5"])
    out = subprocess.run([CLI, "analyze", "--format", "json", "--what-if", "attention=0.5", name],
                         check=True, capture_output=True, text=True).stdout
    regions = json.loads(out)["traces"][0]["regions"]
    cp = t.critical_path
    assert len(cp) == len(regions)
    assert cp["length_us"].tolist() == pytest.approx([r["critical_path"]["length_us"]
                                                      for r in regions])
    for key in ("cpu_us", "launch_overhead_us", "sync_us", "compute_us", "communication_us",
                "memory_us", "kernel_gap_us"):
        assert cp[key].tolist() == pytest.approx(
            [r["critical_path"]["categories"][key] for r in regions]), key
    assert list(cp["bound_by"]) == [r["critical_path"]["bound_by"] for r in regions]
    assert cp["what_if_length_us_after"].tolist() == pytest.approx(
        [r["what_if"]["length_us_after"] for r in regions])
    # Without rules, no what-if: NaN.
    assert attnprof.read(name).critical_path["what_if_length_us_after"].isna().all()
    with pytest.raises(ValueError):
        attnprof.read(name, what_if=["attention=fast"])
