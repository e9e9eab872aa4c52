#pragma once
// `attnprof diff` as one call, for the CLI and the Python module alike (attnprof.diff): both
// traces read and analyzed the same way, then compared (attnprof/trace_diff.h).

#include <string>

#include "attnprof/limits.h"
#include "attnprof/result.h"
#include "attnprof/trace_diff.h"

namespace attnprof {

struct DiffRequest {
  std::string a, b;    // the baseline trace and the one compared with it ("-": standard input)
  std::string region;  // empty: as analyze chooses, in each trace
  Limits limits;
};

// Fails with the first trace's error (unreadable, not a trace, no region matching) or
// diff_traces's.
Result<TraceDiff> run_diff(const DiffRequest& request);

}  // namespace attnprof
