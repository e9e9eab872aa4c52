#!/usr/bin/env bash
# Line coverage of attnprof's code (src/ and include/attnprof, the core and the CLI) by the test
# suite: a build with GCC's --coverage (the `coverage` preset), the suite run but for the GPU and
# browser labels, then gcov's JSON of every object file summed by scripts/coverage_summary.py. It
# prints the total, each folder's and the least-covered files, and writes
# build/coverage/coverage.json. docs/BUILDING.md, "Line coverage", has the last figure.
#
# usage: scripts/coverage.sh        (JOBS=N to set the build's and the tests' parallelism)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${JOBS:-$(nproc)}
cmake --preset coverage >/dev/null
cmake --build build/coverage -j"$jobs"
find build/coverage -name '*.gcda' -delete
# A failing test still counts what it ran; the suite's verdict is scripts/run-tests.sh's.
ctest --preset coverage -j"$jobs" >build/coverage/ctest.log 2>&1 ||
  echo "coverage: some tests failed (build/coverage/ctest.log); the figure counts what ran" >&2
tail -n 3 build/coverage/ctest.log >&2
python3 scripts/coverage_summary.py build/coverage "$PWD"
