#pragma once
// `--sweep`: the study over several sizes, and its CSV for plots.

#include <string>
#include <string_view>
#include <vector>

#include "attnprof/result.h"
#include "problem.h"
#include "study_result.h"

namespace attnprof::bench {

// Parses "seq=512,1024,2048" (keys: seq, head-dim, batch, heads, kv-heads, q-seq, window;
// positive integers). Fails with one line saying what is wrong.
Result<SweepAxis> parse_sweep(std::string_view text);

// The problems of the sweep: the base problem with each combination of the axes' values, the
// first axis varying slowest. No axes: the base problem alone. Where the base's KV heads equal its
// heads and kv-heads is not swept, every point's KV heads follow its heads; likewise its queries
// its keys (q-seq and seq).
std::vector<Problem> expand_sweep(const Problem& base, const std::vector<SweepAxis>& axes);

// One row per point and variant, every measured number in its own column, units in the names.
std::string sweep_csv(const StudyReport& report);

}  // namespace attnprof::bench
