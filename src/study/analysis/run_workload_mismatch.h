#pragma once
// What makes two bench runs of a `diff` not like for like: their device, dtypes and each point's
// problem (shape, mask), as summary.json has them, in the words of analysis/workload_mismatch.h.

#include <string>
#include <vector>

#include "study/run/run_summary.h"

namespace attnprof {

// Points are paired in order, as the counters' diff pairs them (study/analysis/counter_diff.h).
std::vector<std::string> workload_mismatches(const RunSummary& a, const RunSummary& b);

}  // namespace attnprof
