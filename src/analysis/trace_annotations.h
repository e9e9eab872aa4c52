#pragma once
// What `attnprof annotate` adds to a trace (tests/annotate_test.cpp), as plain data: each finding
// placed on the timeline, the typical region, and each hidden copy linked to the op whose clone
// made it. The renderer (render/annotate_events.h) turns these into Chrome trace events that
// Perfetto UI shows, and attnprof reads back as markers (TraceAnalysis::markers).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attnprof/analysis.h"
#include "model/trace.h"

namespace attnprof {

// Every event attnprof writes has this category, and every instant's name starts with the prefix.
inline constexpr std::string_view kAnnotationCategory = "attnprof";
inline constexpr std::string_view kMarkerPrefix = "attnprof: ";

// A process or thread as the trace spells it: a number, or a name (the profiler's own "Spans").
struct TraceThreadId {
  int64_t number = 0;
  std::string text;  // non-empty for a named one
};

struct TypicalRegionMark {
  std::string name;
  int index = 0;  // into the regions
  int64_t start_ns = 0, end_ns = 0;
  TraceThreadId pid;
  bool whole_trace = false;  // no annotation: the whole trace is the region
};

struct CopyLink {
  std::string op;    // "aten::masked_fill"
  std::string copy;  // "Memcpy DtoD (Device -> Device)"
  int64_t op_start_ns = 0;
  TraceThreadId op_pid, op_tid;
  int64_t copy_start_ns = 0;
  TraceThreadId copy_pid, copy_tid;  // the GPU track: device and stream
  int region = 0;
};

struct TraceAnnotations {
  TraceAnalysis analysis;  // with its findings
  std::optional<TypicalRegionMark> typical;
  int64_t findings_at_ns = 0;  // where the findings are placed: the typical region's start
  TraceThreadId findings_pid;
  std::vector<CopyLink> copies;  // every region's
};

// Analyzes `trace` (findings included) and places what annotate adds.
TraceAnnotations annotate_trace(const Trace& trace, const AnalyzeOptions& options);

}  // namespace attnprof
