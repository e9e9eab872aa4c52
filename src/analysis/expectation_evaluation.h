#pragma once
// Evaluating a parsed expectation (analysis/expectation_parser.h) on the metrics of a trace's
// regions. check_expectations (attnprof/expectations.h) computes the metrics and calls this.

#include "analysis/region_metrics.h"
#include "attnprof/expectations.h"

namespace attnprof {

ExpectationResult evaluate_expectation(const Expectation& expectation,
                                       const RegionMetrics& metrics);

}  // namespace attnprof
