// `attnprof report`'s output file: gathered, rendered, then written whole or not at all.

#include "pipeline/report_file.h"

#include <filesystem>

#include "io/output_file.h"

namespace attnprof {

namespace {

std::string render(const ReportData& data, ReportFormat format) {
  switch (format) {
    case ReportFormat::kMarkdown:
      return render_report_markdown(data);
    case ReportFormat::kText:
      return render_report_text(data);
    case ReportFormat::kHeadline:
      return render_report_headlines(data);
    case ReportFormat::kHtml:
      break;
  }
  return render_report_html(data);
}

}  // namespace

Status write_report(const std::vector<std::string>& inputs, const ReportOptions& options,
                    ReportFormat format, const std::string& out_path) {
  Result<ReportData> data = load_report(inputs, options);
  if (!data.ok()) return data.take_error();
  // Each variant's trace, linked relative to the page, so that the page and its run folder can
  // move together.
  namespace fs = std::filesystem;
  const fs::path page_dir = fs::absolute(fs::path(out_path)).parent_path();
  for (ReportVariant& v : data->variants) {
    if (v.trace_path.empty()) continue;
    std::error_code error;
    const fs::path link = fs::proximate(fs::absolute(v.trace_path), page_dir, error);
    if (!error) v.trace_href = link.generic_string();
  }
  return write_output_file(out_path, render(*data, format));
}

}  // namespace attnprof
