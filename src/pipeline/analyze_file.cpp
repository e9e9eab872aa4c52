#include "pipeline/analyze_trace.h"

#include "analysis/regions/regions.h"
#include "analysis/summarize.h"
#include "attnprof/analysis.h"
#include "reader/graph_signatures.h"
#include "reader/read_trace.h"

namespace attnprof {

Result<TraceAnalysis> analyze_file(const std::string& path, const AnalyzeOptions& options) {
  auto trace = read_trace(path, options.limits, options.progress, options.reading_workers);
  if (!trace.ok()) return trace.take_error();
  return analyze_read_trace(*trace, path, options);
}

Result<TraceAnalysis> analyze_read_trace(Trace& trace, const std::string& path,
                                         const AnalyzeOptions& options) {
  if (!options.graph_capture.empty()) {
    auto capture = read_trace(options.graph_capture, options.limits);
    if (!capture.ok()) {
      Error error = capture.take_error();
      error.message = "--graph-capture: " + error.message;  // which of the inputs it is
      return error;
    }
    auto signatures = graph_signatures(*capture);
    if (!signatures.ok()) return signatures.take_error();
    attribute_by_signature(trace, *signatures);
  }
  ATTNPROF_RETURN_IF_ERROR(
      check_region_overlap(trace, options.region_pattern, options.limits.max_region_overlap, path));
  TraceAnalysis analysis = summarize_trace(trace, options);
  // One rule for every command (docs/SECURITY.md): a pattern that matches nothing is bad input.
  if (!options.region_pattern.empty() && analysis.regions.empty())
    return no_region_matches(trace, path, options.region_pattern);
  return analysis;
}

}  // namespace attnprof
