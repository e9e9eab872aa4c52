#pragma once
// `--sweep`: the study over several sizes, and its CSV for plots.

#include <string>
#include <string_view>
#include <vector>

#include "attnprof/result.h"
#include "problem.h"
#include "study_result.h"

namespace attnprof::bench {

// Parses "seq=512,1024,2048" (keys: seq, head-dim, batch, heads; positive integers). Fails with
// one line saying what is wrong.
Result<SweepAxis> parse_sweep(std::string_view text);

// The problems of the sweep: the base problem with each combination of the axes' values, the
// first axis varying slowest. No axes: the base problem alone.
std::vector<Problem> expand_sweep(const Problem& base, const std::vector<SweepAxis>& axes);

// One row per point and variant, every measured number in its own column, units in the names.
std::string sweep_csv(const StudyReport& report);

}  // namespace attnprof::bench
