#pragma once
// The output of `attnprof check`: each expectation, whether it holds, and what the trace shows.

#include <string>
#include <vector>

#include "analysis/regions/region_metrics.h"
#include "attnprof/expectations.h"

namespace attnprof {

// The JSON output's schema version (docs/check-and-diff.md). 2: `actual` holds the values (numbers
// as numbers), `actual_text` the words. 3: the metrics take analyze's names and units
// (gpu_busy_us, not gpu_time_ms: docs/METRICS.md).
inline constexpr int kCheckSchemaVersion = 3;

struct CheckReport {
  std::string variant;     // the variant's name when a study folder is checked, else ""
  TraceAnalysis analysis;  // of the checked trace
  std::vector<ExpectationResult> results;
};

std::string render_check_text(const CheckReport& report);
// With every metric's value, so that a script (or a person writing expectations) can read them.
std::string render_check_json(const CheckReport& report);

// A study folder checked variant by variant (`attnprof check STUDY_DIR --expectations FILE`).
std::string render_study_check_text(const std::vector<CheckReport>& reports);
std::string render_study_check_json(const std::string& study,
                                    const std::vector<CheckReport>& reports);

// Markdown for a pull request: the trace and its regions, then a table of the expectations
// (ok or FAIL, the expression, the actual value, its source) and how many hold.
std::string render_check_markdown(const CheckReport& report);
// A study folder: a section and a table per variant, then the study's count.
std::string render_study_check_markdown(const std::string& study,
                                        const std::vector<CheckReport>& reports);

// One row per metric of each expectation: trace, variant, expression, source, holds, metric,
// value (a number's median, or a text), min, max, regions.
std::string render_check_csv(const std::vector<CheckReport>& reports);

// JUnit XML for CI: a test suite per report (per variant of a study), a test case per
// expectation, a <failure> where it does not hold. `checked` names the trace or study folder.
std::string render_check_junit(const std::string& checked, const std::vector<CheckReport>& reports);

}  // namespace attnprof
