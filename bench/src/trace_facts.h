#pragma once
// The study's per-variant facts, read from the variant's own trace by the core library: once per
// trace, for the forward regions, the backward regions and the report's timeline alike.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attnprof/expectations.h"
#include "attnprof/findings.h"
#include "attnprof/region_facts.h"
#include "attnprof/result.h"
#include "study/analysis/report_data.h"

namespace attnprof::bench {

// What the study shows of one region kind (`forward` or `backward`) of a variant's trace.
struct TraceFacts {
  RegionFacts facts;                            // the core's: medians, the main kernel
  uint64_t diagnostics = 0;                     // oddities the reader counted in the trace
  std::vector<Finding> findings;                // what the trace means (analyze --explain)
  std::vector<ExpectationResult> expectations;  // --expectations, checked on these regions
};

// Everything the study takes from one trace.
struct TraceReading {
  TraceFacts forward;
  std::optional<TraceFacts> backward;  // when asked for and found
  std::string backward_error;          // why not, when asked for and not found
  // The forward regions as `attnprof report` describes them (analysis, timeline), so that
  // `bench --report` does not read the trace again.
  ReportVariant report;
};

// Reads the trace at `path` (.json or .json.gz) once and summarizes its `forward` regions (and
// with `backward`, its `backward` ones). `kept_as` is the name the facts and messages give the
// trace, when the run keeps it under another (LibTorch writes plain JSON, the run keeps it
// gzipped); empty: `path`. Fails (one line naming the file) when the core cannot read the trace,
// or when it holds no `forward` region. `expectations` are checked against the forward regions
// (bench --expectations), with `counters` (bench --counters: the call's kernels as ncu measured
// them) in the forward facts, so that expressions can use them.
Result<TraceReading> read_trace_facts(const std::string& path, bool backward,
                                      const std::vector<Expectation>& expectations = {},
                                      const std::string& kept_as = "",
                                      const std::optional<CounterTotals>& counters = std::nullopt);

}  // namespace attnprof::bench
