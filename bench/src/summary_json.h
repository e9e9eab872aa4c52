#pragma once
// summary.json: every measurement of a bench run, for tools and plots.

#include <string>

#include "attnprof/result.h"
#include "study/run/run_summary.h"
#include "study_result.h"

namespace attnprof::bench {

// Bumped when a key changes meaning or goes away; new keys keep the version.
inline constexpr int kSummarySchemaVersion = 2;

// The run model of the report: what summary.json holds, every addition of schemaVersion 2.
RunSummary run_summary(const StudyReport& report);

// The report as JSON, written by the core's writer (study/run/run_summary_json.h): schemaVersion,
// environment, settings, methods (which column is measured how), sweep, and per point its problem
// and per variant its status, correctness, timing (milliseconds), throughput, memory and trace
// facts. Absent measurements are null.
std::string summary_json(const StudyReport& report);

// Writes summary_json(report) at `path` atomically.
Status write_summary_json(const StudyReport& report, const std::string& path);

}  // namespace attnprof::bench
