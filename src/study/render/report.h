#pragma once
// `attnprof report` (and `attnprof bench --report`): the study as one self-contained HTML page
// (inline CSS and SVG, system fonts, no script, nothing fetched), or its table and findings as
// Markdown for a pull request. Rendered from the inputs in memory; reading them and writing the
// file are pipeline/report_file.h's.

#include <string>

#include "render/output_format.h"
#include "study/analysis/report_data.h"

namespace attnprof {

// The page: the study's table with the findings as notes; GPU time per variant by kernel class;
// with a sweep, time and memory against its size (log-log); per variant, the timeline of its
// typical region and that region's GPU activities.
std::string render_report_html(const ReportData& data);
// The table(s) and the findings.
std::string render_report_markdown(const ReportData& data);
// The table(s), findings and methods as plain text, as the bench prints them (its table.txt);
// a table wider than `width` columns in panels of the columns that fit (0, as the bench prints
// it: whole).
std::string render_report_text(const ReportData& data, size_t width = 0);
// The headline of the run and of each study beside it (backward/, then the other subfolders),
// one line each, its folder first: what a terminal shows of a folder of studies at a glance.
std::string render_report_headlines(const ReportData& data);

}  // namespace attnprof
