#include "analysis/summarize.h"
#include "attnprof/analysis.h"
#include "reader/read_trace.h"

namespace attnprof {

Result<TraceAnalysis> analyze_file(const std::string& path, const AnalyzeOptions& options) {
  auto trace = read_trace(path, options.limits, options.progress, options.reading_workers);
  if (!trace.ok()) return trace.take_error();
  return summarize_trace(*trace, options);
}

}  // namespace attnprof
