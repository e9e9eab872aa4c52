#!/usr/bin/env python3
"""Writes trace_fuzzer's seed corpus from the real traces in tests/data.

    make_seed_corpus.py OUT_DIR TRACE.json.gz...

For each trace: the .json.gz as it is, its decompressed JSON, and small cut-downs (the top level
with a few events of every kind, each GPU activity kept with its launch and flows), plain and
gzipped: the fuzzer mutates small inputs much faster than large ones, and cut-downs that still
link launches to kernels reach the analyses, not only the reader. For one trace also two small
gzip files that inflate to more than the reader's 1 MiB window: its events spread out by
whitespace, and an event with a name longer than the window; and one per byte pattern the reader
must read in linear time (reader_patterns).
"""

import gzip
import json
import os
import shutil
import sys


def cut_down(trace, per_category):
    """The top level with the first `per_category` events of each category, and every event that
    shares a correlation id with a kept one (launch, GPU activity, ac2g flow ends)."""
    events = trace.get("traceEvents", [])
    kept, seen = [], {}
    for event in events:
        if not isinstance(event, dict):
            continue
        category = event.get("cat", event.get("ph"))
        if seen.get(category, 0) < per_category:
            seen[category] = seen.get(category, 0) + 1
            kept.append(event)
    correlations = set()
    for event in kept:
        args = event.get("args")
        if isinstance(args, dict) and "correlation" in args:
            correlations.add(args["correlation"])
    kept_ids = {id(e) for e in kept}
    for event in events:
        if not isinstance(event, dict) or id(event) in kept_ids:
            continue
        args = event.get("args")
        linked = isinstance(args, dict) and args.get("correlation") in correlations
        flow = event.get("cat") == "ac2g" and event.get("id") in correlations
        if linked or flow:
            kept.append(event)
    kept.sort(key=lambda e: e.get("ts", 0) if isinstance(e.get("ts", 0), (int, float)) else 0)
    small = {k: v for k, v in trace.items() if k != "traceEvents"}
    small["traceEvents"] = kept
    return json.dumps(small, separators=(",", ":")).encode()


def spread_out(trace, gap_bytes):
    """The trace's text with `gap_bytes` of whitespace between its events: more than the reader's
    1 MiB window in all, so that batches are cut across refills, yet a few KiB gzipped."""
    head = json.dumps({k: v for k, v in trace.items() if k != "traceEvents"},
                      separators=(",", ":"))[:-1]
    gap = b"\n" + b" " * gap_bytes
    events = [json.dumps(e, separators=(",", ":")).encode() for e in trace["traceEvents"]]
    return head.encode() + b',"traceEvents":[' + (b"," + gap).join(events) + b"]}"


def with_long_name(trace, name_bytes):
    """The trace with its first event's name `name_bytes` long: one event larger than a window."""
    long = dict(trace)
    long["traceEvents"] = [dict(e) for e in trace["traceEvents"]]
    long["traceEvents"][0]["name"] = "x" * name_bytes
    return json.dumps(long, separators=(",", ":")).encode()


def reader_patterns(trace):
    """One seed per byte pattern the reader must stay linear on, each larger than the reader's
    1 MiB window and a few KiB gzipped: a string of escapes of every kind (one of them never
    closed), a long number, deep nesting, a long key; each in an event's arguments and as a
    top-level value, so that both the event batches and the exact scanner meet it."""
    head = json.dumps({k: v for k, v in trace.items() if k != "traceEvents"},
                      separators=(",", ":"))[:-1].encode()
    events = b",".join(json.dumps(e, separators=(",", ":")).encode()
                       for e in trace["traceEvents"])
    size = 1536 << 10
    values = {
        "escapes": b'"' + b"\\\\" * (size // 2) + b'"',
        "escape-kinds": b'"' + b'\\"\\n\\u0041\\/\\\\' * (size // 14) + b'"',
        "open-string": b'"' + b"\\\\" * (size // 2),
        "long-number": b"7" * size,
        "deep-nesting": (b"[" * 900 + b"]" * 900 + b",") * (size // 1801) + b"0",
        "long-key": b'{"' + b"k" * size + b'":1}',
    }
    seeds = {}
    for name, value in values.items():
        event = b'{"ph":"X","cat":"cpu_op","name":"x","pid":1,"tid":1,"ts":1,"dur":1,"args":{"v":'
        if name == "deep-nesting":
            value = b"[" + value + b"]"
        seeds[f"event-{name}"] = (head + b',"traceEvents":[' + event + value + b"}}," + events +
                                  b"]}")
        seeds[f"top-level-{name}"] = (head + b',"x":' + value + b',"traceEvents":[' + events +
                                      b"]}")
    return seeds


def write_gzip(path, data):
    with open(path, "wb") as f:
        f.write(gzip.compress(data, mtime=0))


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: make_seed_corpus.py OUT_DIR TRACE.json.gz...")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    written = 0
    for path in sys.argv[2:]:
        stem = os.path.basename(path).removesuffix(".gz").removesuffix(".json")
        shutil.copyfile(path, os.path.join(out, stem + ".json.gz"))
        with gzip.open(path, "rb") as f:
            text = f.read()
        with open(os.path.join(out, stem + ".json"), "wb") as f:
            f.write(text)
        trace = json.loads(text)
        for per_category in (1, 4):
            small = cut_down(trace, per_category)
            name = f"{stem}.cut{per_category}.json"
            with open(os.path.join(out, name), "wb") as f:
                f.write(small)
            write_gzip(os.path.join(out, name + ".gz"), small)
        written += 6
        if stem == "study_naive":
            small = json.loads(cut_down(trace, 4))
            write_gzip(os.path.join(out, stem + ".spread.json.gz"), spread_out(small, 64 << 10))
            write_gzip(os.path.join(out, stem + ".long-name.json.gz"),
                       with_long_name(small, 1536 << 10))
            written += 2
            for name, data in reader_patterns(small).items():
                write_gzip(os.path.join(out, f"{stem}.{name}.json.gz"), data)
                written += 1
    print(f"make_seed_corpus.py: {written} seeds in {out}")


if __name__ == "__main__":
    main()
