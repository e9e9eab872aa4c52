#pragma once
// The study's table: what docs/STUDY.md's table reports, from this machine's measurements.

#include <string>
#include <string_view>
#include <vector>

#include "study/render/study_columns.h"
#include "study_result.h"

namespace attnprof::bench {

// A measurement's status as the run model (summary.json's `status`) holds it.
RunStatus run_status(VariantStatus status);

// One row per variant, the columns of study/render/study_columns.h (the report's run table prints
// the same). For the terminal, long kernel names and PyTorch's reasons are cut; for summary.md
// whole.
StudyTable study_table(const StudyPoint& point, CellWidth width);

// Which column is measured how (CUDA events, the trace, the datasheet, the float64 reference).
std::vector<std::string> method_notes(const StudyReport& report);

// The expectations checked on each variant's trace (bench --expectations), failures first, one
// line each after `bullet`; empty without --expectations. The table (study/render/report.h) does
// not know them: the bench prints them under it.
std::string render_expectations(const StudyReport& report, std::string_view bullet);

}  // namespace attnprof::bench
