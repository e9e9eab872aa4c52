#pragma once
// Evaluating a parsed expectation (analysis/expectations/expectation_parser.h) on the metrics of a
// trace's region facts (analysis/regions/region_metrics.h). check_expectations
// (attnprof/expectations.h) calls this.

#include "analysis/regions/region_metrics.h"
#include "attnprof/expectations.h"

namespace attnprof {

// `baseline` (check --baseline) is what `baseline.METRIC` values read; null when none was given,
// and then such a comparison fails, saying so.
ExpectationResult evaluate_expectation(const Expectation& expectation,
                                       const TraceAnalysis& analysis,
                                       const TraceAnalysis* baseline = nullptr);

}  // namespace attnprof
