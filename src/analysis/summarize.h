#pragma once
// The pure part of `analyze`: from a linked trace to its region summaries.

#include "attnprof/analysis.h"
#include "model/trace.h"

namespace attnprof {

TraceAnalysis summarize_trace(const Trace& trace, const AnalyzeOptions& options);

}  // namespace attnprof
