// `attnprof report`'s output file: gathered, rendered, then written whole or not at all.

#include "pipeline/report_file.h"

#include <filesystem>

#include "io/output_file.h"
#include "render/text_wrap.h"

namespace attnprof {

std::string render_report(const ReportData& data, OutputFormat format, size_t text_width) {
  switch (format) {
    case OutputFormat::kMarkdown:
      return render_report_markdown(data);
    case OutputFormat::kText: {
      std::string text = render_report_text(data, text_width);
      return text_width > 0 ? wrap_text(text, text_width) : text;
    }
    case OutputFormat::kHeadline: {
      std::string text = render_report_headlines(data);
      return text_width > 0 ? wrap_text(text, text_width) : text;
    }
    case OutputFormat::kHtml:
      break;
    // The report writes no other format: the command and the Python module refuse them first.
    case OutputFormat::kJson:
    case OutputFormat::kCsv:
    case OutputFormat::kSummary:
    case OutputFormat::kJunit:
      break;
  }
  return render_report_html(data);
}

Result<std::string> report_output(const std::vector<std::string>& inputs,
                                  const ReportOptions& options, OutputFormat format,
                                  size_t text_width) {
  Result<ReportData> data = load_report(inputs, options);
  if (!data.ok()) return data.take_error();
  return render_report(*data, format, text_width);
}

Status write_report(const std::vector<std::string>& inputs, const ReportOptions& options,
                    OutputFormat format, const std::string& out_path, size_t text_width) {
  // Opened first: a bad -o ('' included) is said before the inputs are read.
  Result<OutputFile> out = OutputFile::open(out_path);
  if (!out) return out.take_error();
  Result<ReportData> data = load_report(inputs, options);
  if (!data.ok()) return data.take_error();
  // Each variant's trace, linked relative to the page, so that the page and its run folder can
  // move together. Standard output's page links from the current folder.
  namespace fs = std::filesystem;
  std::error_code error;
  const bool to_stdout = out_path == "-" || out_path == "/dev/stdout";
  const fs::path page_dir =
      to_stdout ? fs::current_path(error) : fs::absolute(fs::path(out_path), error).parent_path();
  for (ReportVariant& v : data->variants) {
    if (v.trace_path.empty() || page_dir.empty()) continue;
    const fs::path trace = fs::absolute(v.trace_path, error);
    if (error) continue;
    const fs::path link = fs::proximate(trace, page_dir, error);
    if (!error) v.trace_href = link.generic_string();
  }
  // Each model study's own page (its summary.md), linked the same way.
  for (ReportModel& m : data->models) {
    if (page_dir.empty()) continue;
    const fs::path page = fs::absolute(fs::path(m.folder) / "summary.md", error);
    if (error || !fs::is_regular_file(page, error)) continue;
    const fs::path link = fs::proximate(page, page_dir, error);
    if (!error) m.page_href = link.generic_string();
  }
  ATTNPROF_RETURN_IF_ERROR(out->write(render_report(*data, format, text_width)));
  return out->commit();
}

}  // namespace attnprof
