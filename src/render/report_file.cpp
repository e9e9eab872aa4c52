// `attnprof report`'s output file: gathered, rendered, then written whole or not at all.

#include "io/output_file.h"
#include "render/report.h"

namespace attnprof {

Status write_report(const std::vector<std::string>& inputs, const ReportOptions& options,
                    ReportFormat format, const std::string& out_path) {
  Result<ReportData> data = load_report(inputs, options);
  if (!data.ok()) return data.take_error();
  return write_output_file(out_path, format == ReportFormat::kHtml ? render_report_html(*data)
                                                                   : render_report_markdown(*data));
}

}  // namespace attnprof
