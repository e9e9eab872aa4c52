#pragma once
// The views of a diff (attnprof/trace_diff.h): the two sides' work per kernel, op, nn.Module class
// and kind of attention call, per region, with each row's noise from its per-region spread.

#include "attnprof/analysis.h"
#include "attnprof/trace_diff.h"

namespace attnprof {

// Needs both sides analyzed with their top tables and attention calls of every region
// (AnalyzeOptions' defaults).
DiffViews diff_views(const TraceAnalysis& a, const TraceAnalysis& b);

// The side's GPU busy time per region, the mean over its regions, and their spread.
double mean_gpu_busy_ns(const TraceAnalysis& t);

}  // namespace attnprof
