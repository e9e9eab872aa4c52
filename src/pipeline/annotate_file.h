#pragma once
// `attnprof annotate TRACE -o OUT` (tests/annotate_test.cpp): a copy of the trace with attnprof's
// findings, the typical region and the hidden copies' links added as events
// (render/annotate_events.h), for Perfetto UI. The original bytes are copied as they are, streamed:
// the new events go first in traceEvents, so that nothing of the original is parsed and written
// again.

#include <string>

#include "attnprof/analysis.h"
#include "attnprof/result.h"
#include "model/trace.h"

namespace attnprof {

struct AnnotateOutcome {
  TraceAnalysis analysis;  // what was annotated, findings included
  size_t events_added = 0;
  size_t hidden_copy_links = 0;
  size_t critical_paths = 0;  // regions whose path was marked (those that share one count once)
};

// Reads and analyzes `path`, then writes the annotated copy to `out_path` (gzip when it ends in
// .gz; written whole or not at all); with `critical_path`, each region's critical path is marked
// and linked by flows (docs/CRITICAL_PATH.md, "In Perfetto"). Fails with one line naming the
// file: the trace cannot be read, has no "traceEvents" array, was annotated by attnprof already,
// or OUT cannot be written.
Result<AnnotateOutcome> annotate_file(const std::string& path, const std::string& out_path,
                                      const AnalyzeOptions& options, bool critical_path = false);

// True when attnprof's markers are in `trace` already: annotate refuses to annotate it again.
bool annotated_by_attnprof(const Trace& trace);

}  // namespace attnprof
