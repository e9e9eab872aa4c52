#pragma once
// The steps beside a report's headline of traces: a trace ranked by its GPU busy time can hold
// the longest step, when the CPU or waits bound it. Each trace's step is its regions' median
// critical path (attnprof/critical_path.h), which is their wall time.

#include <vector>

#include "analysis/headline.h"
#include "study/analysis/report_data.h"

namespace attnprof {

// Fills h.steps from the variants' analyses (those with regions), the shortest first, and moves
// from h.as_fast to h.as_fast_on_gpu_only the variants whose step is longer than kHeadlineTie
// times the fastest's. Nothing unless every variant with regions has steps that hold their GPU
// work (its median GPU busy time within its median step).
void add_headline_steps(Headline& h, const std::vector<ReportVariant>& variants);

}  // namespace attnprof
