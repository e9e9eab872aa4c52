#pragma once
// `attnprof report` (and `attnprof bench --report`) as a file: its inputs read (report_inputs.h),
// the page rendered from them (render/report.h), then written whole or not at all.

#include <string>
#include <vector>

#include "attnprof/result.h"
#include "pipeline/report_inputs.h"
#include "render/report.h"

namespace attnprof {

// load_report, render, then write `out_path` atomically (a temporary file beside it, renamed).
// Fails with one line when the inputs cannot be read (load_report) or the file cannot be written.
Status write_report(const std::vector<std::string>& inputs, const ReportOptions& options,
                    ReportFormat format, const std::string& out_path);

}  // namespace attnprof
