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

// One stretch of a region's critical path (analysis/critical_path/path_segments.h) on the
// timeline: consecutive stretches of one event are one mark; the GPU's idle time between
// dependent work (kernel_gap) is left out, so the marks' time is the path's length less its gaps.
struct PathMark {
  int64_t start_ns = 0, end_ns = 0;
  std::string name;           // the event's, or what the time was ("CPU outside ops")
  std::string_view category;  // JSON's category key without "_us": "cpu", "compute", ...
  // The event the stretch belongs to, where it has one: its track, and a time inside both the
  // event and the stretch, where a flow arrow meets it.
  bool on_event = false;
  TraceThreadId event_pid, event_tid;
  int64_t event_at_ns = 0;
};

struct RegionPathMarks {
  int region = 0;  // into the analysis' regions: the first of those that hold the same work
  std::string name;
  TraceThreadId pid;  // the region's process, where its track goes
  int track = 0;      // which of that process's critical-path tracks: regions that overlap differ
  std::vector<PathMark> marks;
};

struct TraceAnnotations {
  TraceAnalysis analysis;  // with its findings
  std::optional<TypicalRegionMark> typical;
  int64_t findings_at_ns = 0;  // where the findings are placed: the typical region's start
  TraceThreadId findings_pid;
  std::vector<CopyLink> copies;                 // every region's
  std::vector<RegionPathMarks> critical_paths;  // with annotate --critical-path only
};

// Analyzes `trace` (findings included) and places what annotate adds; with `critical_path`, each
// region's critical path too.
TraceAnnotations annotate_trace(const Trace& trace, const AnalyzeOptions& options,
                                bool critical_path = false);

}  // namespace attnprof
