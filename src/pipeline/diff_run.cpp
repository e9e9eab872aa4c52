#include "pipeline/diff_run.h"

#include <filesystem>

#include "attnprof/analysis.h"
#include "study/analysis/counter_diff.h"
#include "study/analysis/run_workload_mismatch.h"
#include "study/render/counter_diff_output.h"
#include "study/run/run_summary.h"

namespace attnprof {

namespace {

bool is_run_folder(const std::string& path) {
  return std::filesystem::is_directory(path) &&
         std::filesystem::exists(std::filesystem::path(path) / "summary.json");
}

Result<std::string> counter_diff_text(const DiffRequest& request) {
  auto a = read_run_summary((std::filesystem::path(request.a) / "summary.json").string(),
                            request.limits);
  if (!a.ok()) return a.take_error();
  auto b = read_run_summary((std::filesystem::path(request.b) / "summary.json").string(),
                            request.limits);
  if (!b.ok()) return b.take_error();
  return render_unlike_text(workload_mismatches(*a, *b)) +
         render_counter_diff_text(diff_counters(*a, *b));
}

}  // namespace

Result<TraceDiff> run_diff(const DiffRequest& request) {
  AnalyzeOptions options;
  options.region_pattern = request.region;
  // Each activity's spread over every region, for the aligned activities' noise; the top tables
  // and attention calls of every region (the defaults), for the views' noise.
  options.activities_of_every_region = true;
  options.tables_of_every_region = true;
  options.attention_of_every_region = true;
  options.limits = request.limits;
  auto a = analyze_file(request.a, options);
  if (!a.ok()) return a.take_error();
  auto b = analyze_file(request.b, options);
  if (!b.ok()) return b.take_error();
  return diff_traces(*a, *b);
}

Result<std::string> diff_output(const DiffRequest& request, OutputFormat format,
                                const DiffTextOptions& text, DiffCsvTable table) {
  if (is_run_folder(request.a) && is_run_folder(request.b)) {
    if (format != OutputFormat::kText)
      return make_error(ErrorKind::kUsage,
                        "diff of two run folders writes text only; --format {} is for two "
                        "traces (give their trace files)",
                        output_format_name(format));
    return counter_diff_text(request);
  }
  if (table != DiffCsvTable::kActivities && format != OutputFormat::kCsv)
    return make_error(ErrorKind::kUsage, "diff --table is for --format csv, not {}",
                      output_format_name(format));
  auto diff = run_diff(request);
  if (!diff.ok()) return diff.take_error();
  switch (format) {
    case OutputFormat::kJson:
      return render_diff_json(*diff);
    case OutputFormat::kMarkdown:
      return render_diff_markdown(*diff, text);
    case OutputFormat::kHtml:
      return render_diff_html(*diff, text);
    case OutputFormat::kCsv:
      return render_diff_csv(*diff, table);
    default:
      return render_diff_text(*diff, text);
  }
}

}  // namespace attnprof
