#!/usr/bin/env bash
# Everything the GPU machine is for, in one call (it has no network; its C++ dependencies come
# as the .deb files of .debs/, carried along, see fetch-debs.sh):
#   1. unpack the dependencies (deps-env.sh) and find LibTorch in the machine's PyTorch
#   2. configure and build the release with the bench on (attnprof and the bench's tests only)
#   3. run the default study, `attnprof bench` (bf16, batch 4, 16 heads, seq 2048, head dim 64,
#      causal), into study.tar: its traces, summary.json and summary.md, for examples/
#   4. run the tests that need LibTorch: ctest -L 'gpu|bench'
#   5. print what happened last: the steps, the failing tests, the build's errors, the table
# Run from anywhere: scripts/gpu/run-gpu.sh [--skip-study] [--skip-tests]. Extra flags for the
# study's `attnprof bench` may come in ATTNPROF_BENCH_ARGS (e.g. "--sweep seq=1024,4096").
# Everything worth bringing back goes to $OUT (the device tool's folder; out/gpu when unset), at
# most 8 files and no folders:
#   env.txt deps.log build.log bench.log study.tar ctest.log
# Exit status: 0 when everything passed, 1 otherwise, 2 for an unknown argument.
set -uo pipefail

run_study=1
run_tests=1
for arg in "$@"; do
  case $arg in
    --skip-study) run_study=0 ;;
    --skip-tests) run_tests=0 ;;
    *) echo "run-gpu.sh: unknown argument $arg (--skip-study, --skip-tests)" >&2; exit 2 ;;
  esac
done

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root" || exit 1
out=${OUT:-$root/out/gpu}
build=${ATTNPROF_GPU_BUILD:-$root/build/gpu}
study=${TMPDIR:-/tmp}/attnprof-study
jobs=$(nproc)
mkdir -p "$out"
start=$SECONDS
steps=()  # one line per step, printed at the end
failed=0

note() { steps+=("$(printf '%-10s %-8s %s' "$1" "$2" "$3")"); [[ $2 == ok ]] || failed=1; }
elapsed() { echo "$((SECONDS - start)) s"; }

# Printed last whatever happened, so that the tail of the output tells the story.
# shellcheck disable=SC2317  # called by the EXIT trap
finish() {
  echo
  if [[ -s $out/build.log ]] && ! grep -q '^BUILD OK' "$out/build.log"; then
    echo "== build errors (from build.log) =="
    # The first errors are the cause; what follows them is often their echo.
    errors=$(grep -cE 'error|Error|FAILED|undefined reference' "$out/build.log")
    grep -nE 'error|Error|FAILED|undefined reference' "$out/build.log" | head -30
    ((errors > 30)) && echo "... $((errors - 30)) more lines in build.log"
    echo
  fi
  if [[ -s $out/ctest.log ]]; then
    echo "== tests =="
    grep -E '^[0-9]+% tests passed|tests failed' "$out/ctest.log" | tail -1
    grep -E '^\s+[0-9]+ - .* \((Failed|Timeout|SEGFAULT|Subprocess|Exception|Not Run)' \
      "$out/ctest.log" | head -40
    echo
  fi
  if [[ -s $out/bench.log ]] && grep -q . "$out/bench.log"; then
    echo "== attnprof bench stderr (tail) =="
    tail -12 "$out/bench.log"
    echo
  fi
  if [[ -s $study/table.txt ]]; then
    echo "== the study =="
    cat "$study/table.txt"
    echo
  fi
  echo "== steps ($(elapsed)) =="
  printf '%s\n' "${steps[@]}"
  ls -la "$out"
}
trap finish EXIT

# 0. The machine, for the record.
{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1
  g++ --version | head -1
  cmake --version | head -1
  echo "nproc $jobs"
} >"$out/env.txt" 2>&1

# 1. Dependencies: .deb files unpacked into /tmp/deps, LibTorch from the machine's PyTorch.
# shellcheck source=scripts/gpu/deps-env.sh
if ! source "$root/scripts/gpu/deps-env.sh" "$root/.debs" >"$out/deps.log" 2>&1; then
  cat "$out/deps.log"
  note deps FAILED "see deps.log"
  exit 1
fi
note deps ok "$(tail -1 "$out/deps.log")"

# 2. Configure and build. Only what the GPU run needs: the CLI, the bench's tests and the
# FlexAttention recorder's (tests/flex_recorder_gpu_test.cpp).
generator=Ninja
command -v ninja >/dev/null || generator="Unix Makefiles"
# CMAKE_POLICY_VERSION_MINIMUM: CMake 4 refuses packages written for CMake < 3.5; harmless else.
# Python3_EXECUTABLE: the python3 that has torch, which the FlexAttention recorder's test runs.
# The machine has nvcc (maybe off the PATH): examples/custom-attention must be built for the
# --custom tests.
[[ -z ${CUDACXX:-} && -x /usr/local/cuda/bin/nvcc ]] && export CUDACXX=/usr/local/cuda/bin/nvcc
if cmake -S "$root" -B "$build" -G "$generator" -DCMAKE_BUILD_TYPE=Release -DATTNPROF_BENCH=ON \
      -DATTNPROF_CUDA_EXAMPLE=ON -DCMAKE_POLICY_VERSION_MINIMUM=3.5 \
      -DPython3_EXECUTABLE="$(command -v python3)" >"$out/build.log" 2>&1 &&
   cmake --build "$build" -j "$jobs" --target attnprof bench_variants_gpu_test \
      bench_trace_gpu_test bench_shapes_gpu_test bench_shapes_cpu_test \
      bench_counters_gpu_test bench_counters_test bench_custom_kernel_gpu_test \
      bench_custom_kernel_cli_test bench_from_trace_gpu_test bench_trace_problems_test \
      flex_recorder_gpu_test >>"$out/build.log" 2>&1; then
  echo "BUILD OK" >>"$out/build.log"
  note build ok "$generator, $(elapsed)"
else
  note build FAILED "see the errors above and build.log"
  exit 1
fi

# 3. The default study, recorded here for examples/ (before the tests: it is the deliverable).
if ((run_study)); then
  rm -rf "$study" "$study.table.txt"
  # shellcheck disable=SC2086  # ATTNPROF_BENCH_ARGS is a list of flags
  "$build/attnprof" bench --out "$study" ${ATTNPROF_BENCH_ARGS:-} >"$study.table.txt" \
    2>"$out/bench.log"
  bench_rc=$?
  mkdir -p "$study" && mv "$study.table.txt" "$study/table.txt"
  if ((bench_rc == 0)); then
    note study ok "exit 0, $(elapsed)"
  else
    note study FAILED "attnprof bench exit $bench_rc (see bench.log)"
  fi
  if tar -C "$(dirname "$study")" -cf "$out/study.tar" "$(basename "$study")"; then
    note study.tar ok "$(du -h "$out/study.tar" | cut -f1): traces, summary.json, summary.md, table.txt"
  else
    note study.tar FAILED "tar of $study"
  fi
fi

# 4. The tests that need LibTorch (label gpu: a CUDA GPU too; label bench: LibTorch only).
# Four at a time: they check behaviour, not speed, and each process pays LibTorch's start-up.
if ((run_tests)); then
  ctest --test-dir "$build" -L 'gpu|bench' --output-on-failure -j 4 --timeout 600 \
    >"$out/ctest.log" 2>&1
  ctest_rc=$?
  if ((ctest_rc == 0)); then
    note ctest ok "$(grep -E 'tests passed' "$out/ctest.log" | tail -1)"
  else
    note ctest FAILED "$(grep -E 'tests passed|tests failed' "$out/ctest.log" | tail -1)"
  fi
fi

exit "$failed"
