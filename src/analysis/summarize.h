#pragma once
// The pure part of `analyze`: from a linked trace to its region summaries.

#include "analysis/regions/regions.h"
#include "attnprof/analysis.h"
#include "model/trace.h"

namespace attnprof {

// Finds the regions (options.region_pattern) and summarizes them.
TraceAnalysis summarize_trace(const Trace& trace, const AnalyzeOptions& options);

// The same, on regions already found and filled (find_regions, assign_to_regions), for a caller
// that needs them too (the report's timelines): they are found once.
TraceAnalysis summarize_regions(const Trace& trace, const RegionSet& set,
                                const RegionMembers& members, const AnalyzeOptions& options);

}  // namespace attnprof
