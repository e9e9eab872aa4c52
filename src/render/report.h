#pragma once
// `attnprof report` (and `attnprof bench --report`): the study as one self-contained HTML page
// (inline CSS and SVG, system fonts, no script, nothing fetched), or its table and findings as
// Markdown for a pull request.

#include <string>
#include <vector>

#include "analysis/report_data.h"
#include "attnprof/result.h"
// write_report reads its inputs (load_report) and writes a file: it belongs in pipeline/, where
// it moves once the safe output writer lands in io/; until then this one include runs upward.
#include "pipeline/report_inputs.h"

namespace attnprof {

enum class ReportFormat { kHtml, kMarkdown };

// The page: the study's table with the findings as notes; GPU time per variant by kernel class;
// with a sweep, time and memory against its size (log-log); per variant, the timeline of its
// typical region and that region's GPU activities.
std::string render_report_html(const ReportData& data);
// The table(s) and the findings.
std::string render_report_markdown(const ReportData& data);

// load_report, render, then write `out_path` atomically (a temporary file beside it, renamed).
// Fails with one line when the inputs cannot be read (load_report) or the file cannot be written.
Status write_report(const std::vector<std::string>& inputs, const ReportOptions& options,
                    ReportFormat format, const std::string& out_path);

}  // namespace attnprof
