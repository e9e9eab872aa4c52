#pragma once
// `attnprof report` (and `attnprof bench --report`) as a file: its inputs read (report_inputs.h),
// the page rendered from them (study/render/report.h), then written whole or not at all.

#include <string>
#include <vector>

#include "attnprof/result.h"
#include "pipeline/report_inputs.h"
#include "study/render/report.h"

namespace attnprof {

// The report in `format`, from inputs load_report read. `text_width` above 0 fits the text and
// headline formats to it: tables in panels, lines wrapped (render/text_wrap.h); 0 leaves them
// whole.
std::string render_report(const ReportData& data, OutputFormat format, size_t text_width);

// load_report, then render_report: the report as text, its variants' traces not linked (the
// Python module's attnprof.report without an output file).
Result<std::string> report_output(const std::vector<std::string>& inputs,
                                  const ReportOptions& options, OutputFormat format,
                                  size_t text_width);

// load_report, render, then write `out_path` atomically (a temporary file beside it, renamed).
// Fails with one line when the inputs cannot be read (load_report) or the file cannot be written.
// `text_width` as render_report takes it.
Status write_report(const std::vector<std::string>& inputs, const ReportOptions& options,
                    OutputFormat format, const std::string& out_path, size_t text_width = 0);

}  // namespace attnprof
