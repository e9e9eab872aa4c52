#pragma once
// The output of `attnprof check`: each expectation, whether it holds, and what the trace shows.

#include <string>
#include <vector>

#include "analysis/region_metrics.h"
#include "attnprof/expectations.h"

namespace attnprof {

// The JSON output's schema version (docs/check-and-diff.md).
inline constexpr int kCheckSchemaVersion = 1;

struct CheckReport {
  TraceAnalysis analysis;  // of the checked trace
  std::vector<ExpectationResult> results;
};

std::string render_check_text(const CheckReport& report);
// With every metric's value, so that a script (or a person writing expectations) can read them.
std::string render_check_json(const CheckReport& report);

}  // namespace attnprof
