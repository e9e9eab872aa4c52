#include "pipeline/merge_run.h"

#include "attnprof/trace_summary.h"
#include "io/side_file.h"
#include "render/merge_output.h"

namespace attnprof {

namespace {

Status add_summaries(TracesRead& traces, const TraceSummaryText& summary) {
  return for_each_trace_summary(summary.text, summary.origin, [&](SummarizedTrace&& s) {
    traces.add(s.path, std::move(s.outcome));
  });
}

}  // namespace

Result<TracesRead> merge_trace_summaries(const std::vector<TraceSummaryText>& summaries) {
  TracesRead traces;
  for (const TraceSummaryText& summary : summaries)
    ATTNPROF_RETURN_IF_ERROR(add_summaries(traces, summary));
  traces.compare_ranks();
  return traces;
}

Result<TracesRead> merge_trace_summary_files(const std::vector<std::string>& paths,
                                             const Limits& limits) {
  TracesRead traces;
  for (const std::string& path : paths) {
    Result<std::string> text =
        read_side_file(path, limits.max_side_file_bytes, "trace summary file");
    if (!text.ok()) return text.take_error();
    ATTNPROF_RETURN_IF_ERROR(
        add_summaries(traces, {std::move(text).value(), path == "-" ? "standard input" : path}));
  }
  traces.compare_ranks();
  return traces;
}

std::string render_merge(const TracesRead& traces, OutputFormat format) {
  const AnalyzeOutput output = traces.output();
  if (format == OutputFormat::kJson) return render_merge_json(output);
  if (format == OutputFormat::kMarkdown) return render_merge_markdown(output);
  return render_merge_text(output);
}

}  // namespace attnprof
