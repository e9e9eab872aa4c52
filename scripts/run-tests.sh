#!/usr/bin/env bash
# The whole CPU test suite (what CI runs): set-up, build, then every test but the GPU ones, first
# in the release build, then again under AddressSanitizer and UndefinedBehaviorSanitizer (the asan
# preset; ASAN_OPTIONS and UBSAN_OPTIONS are in its test preset). Fails if either suite fails, or
# if a C++ file does not match .clang-format, or a tracked file holds a merge-conflict marker
# (both checked first: they take seconds).
set -euo pipefail
cd "$(dirname "$0")/.."
# A merge-conflict marker left in any tracked file (code or docs) fails the suite before the build.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  if marked=$(git ls-files -z | xargs -0 grep -IlE '^(<<<<<<<|>>>>>>>)( |$)'); then
    echo "run-tests.sh: merge-conflict markers in: $marked" >&2
    exit 1
  fi
fi
scripts/configure.sh
scripts/check-format.sh

failed=()
ctest --preset release -j "$(nproc)" || failed+=(release)

cmake --preset asan >build-configure.log 2>&1 || { cat build-configure.log >&2; exit 2; }
rm -f build-configure.log
cmake --build --preset asan
ctest --preset asan -j "$(nproc)" || failed+=(asan)

if ((${#failed[@]} > 0)); then
  echo "run-tests.sh: the ${failed[*]} suite(s) failed" >&2
  exit 1
fi
echo "run-tests.sh: the release and asan suites passed"
