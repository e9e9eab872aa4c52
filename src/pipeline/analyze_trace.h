#pragma once
// analyze_file's work once the trace is read (pipeline/analyze_file.cpp), for a caller in the
// pipeline that reads a trace once and analyzes it more than one way (read_variant_trace: a bench
// variant's forward and backward regions), so that each analysis is `analyze`'s own.

#include <string>

#include "attnprof/analysis.h"
#include "attnprof/result.h"

namespace attnprof {

struct Trace;

// What analyze_file does after reading `trace` (named `path` in messages): --graph-capture's
// attribution, the region overlap limit, the summary, and the rule that a region pattern that
// matches nothing is bad input. Fails as analyze_file does.
Result<TraceAnalysis> analyze_read_trace(Trace& trace, const std::string& path,
                                         const AnalyzeOptions& options);

}  // namespace attnprof
