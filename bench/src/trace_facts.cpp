#include "trace_facts.h"

#include <utility>

#include "attnprof/analysis.h"
#include "pipeline/report_inputs.h"

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

// The trace is read and analyzed by the pipeline (read_variant_trace), as `report` and `analyze`
// read it: the bench computes no fact of its own.
Result<TraceReading> read_trace_facts(const std::string& path, bool backward,
                                      const std::vector<Expectation>& expectations,
                                      const std::string& kept_as,
                                      const std::optional<CounterTotals>& counters) {
  const std::string name = kept_as.empty() ? path : kept_as;
  Result<VariantTrace> trace = read_variant_trace(path, name, backward);
  if (!trace.ok()) return Error{trace.error().kind, renamed(trace.error().message, path, name)};

  TraceReading reading;
  reading.report = std::move(trace->forward);
  reading.report.analysis->facts.counters = counters;
  const TraceAnalysis& forward = *reading.report.analysis;
  if (forward.regions.empty() || forward.typical_region < 0)
    return make_error(ErrorKind::kUnmatched, "{}: no `forward` region in the trace", name);
  reading.forward = facts_of(forward);
  if (!expectations.empty())
    reading.forward.expectations = check_expectations(expectations, forward);

  if (trace->backward && trace->backward->typical_region >= 0)
    reading.backward = facts_of(*trace->backward);
  else if (trace->backward_error && trace->backward_error->kind != ErrorKind::kUnmatched)
    reading.backward_error = trace->backward_error->message;  // the region overlap limit
  else if (backward)
    reading.backward_error = name + ": no `backward` region in the trace";
  return reading;
}

}  // namespace attnprof::bench
