#!/usr/bin/env python3
"""The main job's page without a GPU (scripts/main-page.sh): at most 300 lines; the study's table,
a headline per study, one trace's analysis with its top tables, attention calls and findings; and
it ends with the full reports it wrote, each there and not empty, and how to open them.

    main_page_test.py ATTNPROF
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    attnprof = os.path.abspath(sys.argv[1])
    problems = []
    with tempfile.TemporaryDirectory() as out:
        done = subprocess.run([os.path.join(ROOT, "scripts", "main-page.sh"), attnprof, out],
                              capture_output=True, text=True, env=dict(os.environ,
                                                                       LC_ALL="C.UTF-8"))
        if done.returncode != 0:
            print(done.stdout + done.stderr)
            return 1
        lines = done.stdout.splitlines()
        if len(lines) > 300:
            problems.append(f"{len(lines)} lines, more than 300")
        for part in ("== The study:", "sdpa-cudnn", "is the fastest", "llama-prefill-eager",
                     "Top kernels by GPU time", "Top ops by CPU time", "attention",
                     "not-fused", "hidden-copy", "== The full reports =="):
            if not any(part in line for line in lines):
                problems.append(f"no line says {part!r}")
        tail = "\n".join(lines[-8:])
        for name in ("study.html", "study.txt", "traces.txt"):
            path = os.path.join(out, name)
            if not os.path.isfile(path) or os.path.getsize(path) == 0:
                problems.append(f"{name} was not written")
            if os.path.join(out, name) not in tail:
                problems.append(f"the end does not say where {name} is")
        if "xdg-open" not in tail:
            problems.append("the end does not say how to open the page")
    for p in problems:
        print(f"main_page: {p}")
    if problems:
        print(done.stdout)
        return 1
    print(f"main_page: {len(lines)} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
