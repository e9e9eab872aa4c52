#pragma once
// What switching attention would save in the trace a `bench --from-trace` run measured
// (study/analysis/trace_projection.h), in words: a heading and a line per call, then the total; the
// same lines in the bench's table, the report's text, Markdown and HTML.

#include <string>
#include <vector>

#include "study/analysis/report_data.h"

namespace attnprof {

struct ProjectionWords {
  std::string heading;             // "From examples/models/llama-train-sdpa.json.gz, ..."
  std::vector<std::string> lines;  // a call each, then the total; skipped calls last
};

// None for a run not made --from-trace.
std::optional<ProjectionWords> projection_words(const RunSummary& run,
                                                const StudyConclusions& conclusions);

// The step's line of the headline: "The trace's step is 47.30 ms on its critical path, bound by
// CPU: switching to naive saves 41.25 ms of it (87.2 %)."; empty where the step was not timed.
std::string step_headline(const TraceProjection& projection);

}  // namespace attnprof
