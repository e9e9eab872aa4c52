#include "analysis/regions.h"
#include "analysis/summarize.h"
#include "attnprof/analysis.h"
#include "reader/read_trace.h"

namespace attnprof {

Result<TraceAnalysis> analyze_file(const std::string& path, const AnalyzeOptions& options) {
  auto trace = read_trace(path, options.limits, options.progress, options.reading_workers);
  if (!trace.ok()) return trace.take_error();
  ATTNPROF_RETURN_IF_ERROR(check_region_overlap(
      *trace, options.region_pattern, options.limits.max_region_overlap, path, options.explain));
  TraceAnalysis analysis = summarize_trace(*trace, options);
  // One rule for every command (issue 12): a pattern that matches nothing is bad input.
  if (!options.region_pattern.empty() && analysis.regions.empty())
    return no_region_matches(*trace, path, options.region_pattern);
  return analysis;
}

}  // namespace attnprof
