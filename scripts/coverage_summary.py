#!/usr/bin/env python3
"""Line coverage of attnprof's own code from the .gcda files of a --coverage build.

gcov writes, per object file, the lines of every source it compiled (headers included) with their
execution counts. A line is executable when any object lists it, and covered when any object ran
it: a header's line counts once, however many files include it. Only files under src/ and
include/attnprof of the repository are counted (not the tests, tools, benchmarks or libraries).

usage: coverage_summary.py BUILD_DIR SOURCE_DIR
Prints the total, each folder of src/ and the 15 least-covered files of 50 lines or more, and
writes BUILD_DIR/coverage.json ({"total": {...}, "files": {path: [covered, lines]}}).
"""
import json
import os
import subprocess
import sys
from collections import defaultdict


def gcda_files(build):
    for root, _, files in os.walk(build):
        for name in files:
            if name.endswith(".gcda"):
                yield os.path.join(root, name)


def main():
    build, source = (os.path.abspath(p) for p in sys.argv[1:3])
    roots = [os.path.join(source, "src") + os.sep, os.path.join(source, "include", "attnprof") + os.sep]
    lines = defaultdict(dict)  # file -> line -> ran
    gcdas = list(gcda_files(build))
    if not gcdas:
        sys.exit(f"coverage_summary: no .gcda under {build}: build with the coverage preset and run the tests first")
    for gcda in gcdas:
        out = subprocess.run(["gcov", "--json-format", "--stdout", gcda], cwd=os.path.dirname(gcda),
                             capture_output=True, text=True)
        for text in out.stdout.splitlines():
            if not text.startswith("{"):
                continue
            doc = json.loads(text)
            cwd = doc.get("current_working_directory", "")
            for f in doc["files"]:
                path = os.path.normpath(os.path.join(cwd, f["file"]))
                if not any(path.startswith(r) for r in roots):
                    continue
                seen = lines[os.path.relpath(path, source)]
                for line in f["lines"]:
                    n = line["line_number"]
                    seen[n] = seen.get(n, False) or line["count"] > 0
    files = {p: [sum(v.values()), len(v)] for p, v in sorted(lines.items())}
    covered = sum(c for c, _ in files.values())
    total = sum(n for _, n in files.values())
    by_folder = defaultdict(lambda: [0, 0])
    for p, (c, n) in files.items():
        parts = p.split(os.sep)
        folder = os.sep.join(parts[:2]) if parts[0] == "src" else parts[0] + os.sep + parts[1]
        by_folder[folder][0] += c
        by_folder[folder][1] += n
    pct = lambda c, n: 100.0 * c / n if n else 0.0
    print(f"line coverage: {pct(covered, total):.1f} % ({covered} of {total} lines, {len(files)} files)")
    for folder, (c, n) in sorted(by_folder.items()):
        print(f"  {folder:<28} {pct(c, n):5.1f} %  {c:>6} of {n:>6}")
    print("least covered (50 lines or more):")
    worst = sorted((pct(c, n), p, c, n) for p, (c, n) in files.items() if n >= 50)[:15]
    for share, p, c, n in worst:
        print(f"  {share:5.1f} %  {p} ({c} of {n})")
    with open(os.path.join(build, "coverage.json"), "w") as out:
        json.dump({"total": {"covered": covered, "lines": total, "percent": round(pct(covered, total), 2)},
                   "folders": by_folder, "files": files}, out, indent=1)


if __name__ == "__main__":
    main()
