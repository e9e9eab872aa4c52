#!/usr/bin/env python3
"""The findings audit: every real trace of tests/data through `attnprof analyze --explain
--format json`, one Markdown row per trace with its regions, the findings that fired (id and the
regions each affects), its attention calls and the largest % of roof of any op row or attention
call, and the rows whose estimate passed the roof. docs/FINDINGS_AUDIT.md holds its output.

usage: findings_audit.py ATTNPROF [DATA_DIR]
DATA_DIR defaults to tests/data beside this script's repository; fuzz-regressions are left out.
"""
import json
import os
import subprocess
import sys


def traces(root):
    out = []
    for folder, _, files in os.walk(root):
        if "fuzz-regressions" in folder:
            continue
        for name in files:
            if name.endswith(".json.gz") or name.endswith(".json"):
                out.append(os.path.join(folder, name))
    return sorted(out)


def audit(attnprof, path):
    run = subprocess.run([attnprof, "analyze", "--explain", "--format", "json", path],
                         capture_output=True, text=True)
    if run.returncode != 0:
        return None
    try:
        doc = json.loads(run.stdout)
    except json.JSONDecodeError:
        return None
    trace = doc["traces"][0]
    regions = trace["regions"]
    findings = ", ".join(f"{f['id']} ({f['regions_affected']})" for f in trace["findings"])
    calls = sum(c.get("count", 1) for r in regions for c in r.get("attention_calls", []))
    pcts, above = [], 0
    for r in regions:
        for row in r.get("ops", []) + r.get("attention_calls", []):
            if row.get("roof_pct") is not None:
                pcts.append(row["roof_pct"])
            if row.get("roof_note"):
                above += 1
    largest = f"{max(pcts):.1f}" if pcts else "-"
    return len(regions), findings or "-", calls, largest, above


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    attnprof = sys.argv[1]
    here = os.path.dirname(os.path.abspath(__file__))
    root = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "..", "tests", "data")
    print("| trace | regions | findings (regions affected) | attention calls | largest % roof | "
          "above the roof |")
    print("|---|---:|---|---:|---:|---:|")
    for path in traces(root):
        row = audit(attnprof, path)
        if row is None:
            continue
        name = os.path.relpath(path, root)
        print(f"| `{name}` | {row[0]} | {row[1]} | {row[2]} | {row[3]} | {row[4]} |")


if __name__ == "__main__":
    main()
