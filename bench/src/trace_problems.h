#pragma once
// `attnprof bench --from-trace TRACE`: the attention problems a trace ran, read by the core
// (include/attnprof/attention_calls.h), as the bench's problems (problem.h). The distinct calls
// of the trace's typical region, each with how often a region makes it and how long it took
// there, so that the study can measure every backend on them and say what switching would save
// (bench/README.md, "From a trace").

#include <optional>
#include <string>
#include <vector>

#include "attnprof/limits.h"
#include "attnprof/result.h"
#include "problem.h"

namespace attnprof::bench {

// One distinct attention call of the region, as the bench runs it.
struct TraceCall {
  Problem problem;
  int calls = 0;  // in the typical region (a forward and its backward count once)
  // The GPU time of one call in the trace: the median over its calls of the region (a forward's
  // and its backward's added, when the problem has a backward).
  double trace_ns = 0;
  std::string backend;  // what ran it in the trace ("cudnn", "math", "unfused", ...)
  std::string op;       // the op the trace names for it
  // How the trace's call became this problem, where it took an assumption ("an explicit mask
  // tensor: timed as the causal pattern given as a tensor").
  std::string assumed;
};

struct TraceProblems {
  std::string trace;   // the path as given
  std::string region;  // the typical region's name
  int regions = 0;
  double region_gpu_ns = 0;  // the regions' median GPU busy time: what a saving is a share of
  std::vector<TraceCall> calls;
  // Calls the bench cannot run (a dtype it has no variant for, a backward without its forward),
  // each in words.
  std::vector<std::string> skipped;
};

// Fails with one line when the trace cannot be read, when its regions hold no attention call,
// or when none of its calls has recorded shapes (what to record is said).
Result<TraceProblems> trace_problems(const std::string& path, const std::string& region_pattern,
                                     const Limits& limits, DeviceKind device);

}  // namespace attnprof::bench
