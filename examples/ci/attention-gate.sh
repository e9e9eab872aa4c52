#!/usr/bin/env bash
# A CI gate on attention performance, as a pull request's pipeline would run it
# (docs/check-and-diff.md, "A CI gate against a baseline"):
#
#   examples/ci/attention-gate.sh BASELINE_STUDY CANDIDATE_STUDY [JUNIT_XML]
#
# Both folders are `attnprof bench --out` studies (the baseline recorded on main, the candidate
# on the pull request, on the same GPU). The gate fails (exit 1) when a variant's GPU time grows
# by more than 5 % or it launches more kernels than on main, when a copy sneaks back into a fused
# variant, or when one of the study's own claims (examples/study.expect) stops holding. It writes
# a JUnit report for the CI's test view, and prints a diff of the two runs for the log.
set -euo pipefail
baseline=${1:?usage: attention-gate.sh BASELINE_STUDY CANDIDATE_STUDY [JUNIT_XML]}
candidate=${2:?usage: attention-gate.sh BASELINE_STUDY CANDIDATE_STUDY [JUNIT_XML]}
junit=${3:-attnprof-gate.xml}
attnprof=${ATTNPROF:-attnprof}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

status=0
"$attnprof" check "$candidate" --baseline "$baseline" \
  --expect 'gpu_busy_us <= baseline.gpu_busy_us * 1.05' \
  --expect 'kernels <= baseline.kernels' \
  --expectations "$here/../study.expect" \
  --format junit >"$junit" || status=$?
"$attnprof" check "$candidate" --baseline "$baseline" \
  --expect 'gpu_busy_us <= baseline.gpu_busy_us * 1.05' \
  --expect 'kernels <= baseline.kernels' \
  --expectations "$here/../study.expect" || true
"$attnprof" diff "$baseline" "$candidate" || true
exit "$status"
