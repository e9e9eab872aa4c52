#pragma once
// The views of a diff (attnprof/trace_diff.h): the two sides' work per kernel, op, nn.Module class
// and kind of attention call, per region, with each row's noise from its per-region spread.

#include "attnprof/analysis.h"
#include "attnprof/trace_diff.h"

#include <optional>

namespace attnprof {

// Needs both sides analyzed with their top tables and attention calls of every region
// (AnalyzeOptions' defaults).
DiffViews diff_views(const TraceAnalysis& a, const TraceAnalysis& b);

// The side's GPU busy time per region, the mean over its regions, and their spread.
double mean_gpu_busy_ns(const TraceAnalysis& t);

// The critical paths of both sides as rows: by category ("compute", "cpu", ... as JSON's
// categories name them, without "_us"; they add up to the path's length) and by item ("kernel
// NAME", "op NAME": each region's top kernels and ops on its path, so a row sums what made a
// region's top). Empty unless every region of both sides has its path.
struct PathViews {
  std::vector<DiffRow> by_category, by_item;
  double a_length_ns = 0, b_length_ns = 0;  // the mean path length of each side's regions
};
std::optional<PathViews> diff_path_views(const TraceAnalysis& a, const TraceAnalysis& b);

}  // namespace attnprof
