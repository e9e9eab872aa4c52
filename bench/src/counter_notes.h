#pragma once
// What the hardware counters show (bench --counters), as the lines printed under the study's
// table: the run's bandwidth and the findings of analysis/counter_findings.h per point.

#include <string>
#include <vector>

#include "study_result.h"

namespace attnprof::bench {

// Empty without --counters.
std::vector<std::string> counter_notes(const StudyReport& report);

}  // namespace attnprof::bench
