// `attnprof report`'s output file: gathered, rendered, then written whole or not at all.

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "render/report.h"

namespace attnprof {

namespace {

// A temporary file beside `path` (same folder, so the rename stays on one file system), renamed
// over it: a reader never sees half a report (STYLE.md, practice 10).
Status write_atomically(const std::string& path, const std::string& contents) {
  const std::string temporary = path + ".tmp." + std::to_string(::getpid());
  std::FILE* file = std::fopen(temporary.c_str(), "wb");
  if (!file) return make_error("cannot write {}: {}", path, std::strerror(errno));
  const bool written = std::fwrite(contents.data(), 1, contents.size(), file) == contents.size();
  const int write_errno = errno;
  if (std::fclose(file) != 0 || !written) {
    const int error = written ? errno : write_errno;
    std::remove(temporary.c_str());
    return make_error("cannot write {}: {}", path, std::strerror(error));
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    std::remove(temporary.c_str());
    return make_error("cannot write {}: {}", path, std::strerror(error));
  }
  return Status::success();
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
  return write_atomically(out_path, format == ReportFormat::kHtml ? render_report_html(*data)
                                                                  : render_report_markdown(*data));
}

}  // namespace attnprof
