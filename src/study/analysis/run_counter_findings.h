#pragma once
// What a run's hardware counters show, per study point: the findings of counter_findings.h over
// the point's variants as summary.json records them. One place builds their inputs, so the bench's
// table.txt, the report's text, Markdown and HTML say the same (docs/counters.md).

#include <vector>

#include "analysis/counter_findings.h"
#include "study/run/run_summary.h"

namespace attnprof {

// Empty for a point without counters. `run` gives the measured bandwidth.
std::vector<CounterFinding> run_counter_findings(const RunSummary& run, const RunPoint& point);

}  // namespace attnprof
