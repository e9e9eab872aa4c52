#pragma once
// The study's table: what docs/STUDY.md's table reports, from this machine's measurements.

#include <string>
#include <vector>

#include "render/study_columns.h"
#include "study_result.h"

namespace attnprof::bench {

// One row per variant, the columns of render/study_columns.h (the report's run table prints the
// same). For the terminal, long kernel names and PyTorch's reasons are cut; for summary.md whole.
StudyTable study_table(const StudyPoint& point, CellWidth width);

// Which column is measured how (CUDA events, the trace, the datasheet, the float64 reference).
std::vector<std::string> method_notes(const StudyReport& report);

// The device and library versions line.
std::string environment_line(const StudyReport& report);

// What stdout shows: the environment, one table per point, the method notes.
std::string render_text(const StudyReport& report);
// summary.md: the same as Markdown tables, cells whole.
std::string render_markdown(const StudyReport& report);

}  // namespace attnprof::bench
