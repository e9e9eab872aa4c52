#include "trace_facts.h"

#include <utility>

#include "analysis/summarize.h"
#include "attnprof/analysis.h"
#include "pipeline/report_inputs.h"
#include "reader/read_trace.h"

namespace attnprof::bench {

namespace {

TraceFacts facts_of(const TraceAnalysis& analysis) {
  TraceFacts f;
  f.facts = analysis.facts;
  f.diagnostics = analysis.diagnostics.total();
  f.findings = analysis.findings;
  return f;
}

// The core names the file it read; the run keeps it as `kept_as`.
std::string renamed(std::string message, const std::string& path, const std::string& kept_as) {
  if (message.compare(0, path.size(), path) == 0) message.replace(0, path.size(), kept_as);
  return message;
}

}  // namespace

Result<TraceReading> read_trace_facts(const std::string& path, bool backward,
                                      const std::vector<Expectation>& expectations,
                                      const std::string& kept_as,
                                      const std::optional<CounterTotals>& counters) {
  const std::string name = kept_as.empty() ? path : kept_as;
  Result<Trace> trace = read_trace(path, Limits{});
  if (!trace.ok()) return Error{trace.error().kind, renamed(trace.error().message, path, name)};
  trace->path = name;

  TraceReading reading;
  reading.report.trace_path = name;
  describe_variant(reading.report, *trace, ReportOptions{}, "forward");
  reading.report.analysis->facts.counters = counters;
  const TraceAnalysis& forward = *reading.report.analysis;
  if (forward.regions.empty() || forward.typical_region < 0)
    return make_error(ErrorKind::kUnmatched, "{}: no `forward` region in the trace", name);
  reading.forward = facts_of(forward);
  if (!expectations.empty())
    reading.forward.expectations = check_expectations(expectations, forward);

  if (backward) {
    AnalyzeOptions options;
    options.region_pattern = "backward";
    options.explain = true;
    const TraceAnalysis analysis = summarize_trace(*trace, options);
    if (analysis.regions.empty() || analysis.typical_region < 0)
      reading.backward_error = name + ": no `backward` region in the trace";
    else
      reading.backward = facts_of(analysis);
  }
  return reading;
}

}  // namespace attnprof::bench
