#pragma once
// The timeline of one region, as plain data for `attnprof report` to draw: CPU thread lanes (ops,
// user annotations, runtime and driver calls, nested) above GPU stream lanes (kernels, copies,
// memsets), on one time axis that starts at the region's start, with a link from each launch to
// the GPU work it launched.
//
// Which events: on the CPU, the region's process's cpu_op, user_annotation, cuda_runtime and
// cuda_driver events that start inside the region's span (python_function and overhead events are
// left out: with_stack traces nest hundreds of Python frames per op); on the GPU, the region's
// members (regions.h: launched inside the region), which may run long after the CPU span ends.
// The timeline runs to whichever ends last.

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/kernels/kernel_class.h"
#include "analysis/regions/regions.h"
#include "attnprof/analysis.h"
#include "model/trace.h"

namespace attnprof {

enum class SpanKind : uint8_t {
  kCpuOp,
  kUserAnnotation,
  kRuntime,  // cudaLaunchKernel, cudaMemcpyAsync, ...
  kDriver,   // cuLaunchKernelEx, ...
  kKernel,
  kMemcpy,
  kMemset,
};

struct TimelineSpan {
  SpanKind kind = SpanKind::kCpuOp;
  std::string name;      // CPU spans: as the trace gives it; GPU spans: the activity's short name
  int64_t start_ns = 0;  // from the region's start
  int64_t duration_ns = 0;
  int32_t depth = 0;      // CPU: how many of the lane's spans enclose it; GPU: 0
  int32_t activity = -1;  // GPU: index into RegionTimeline::activities
  KernelClass kernel_class = KernelClass::kOther;  // GPU
};

struct TimelineLane {
  bool gpu = false;
  std::string label;                // "thread 1040 (attnprof)", "GPU 0 stream 7"
  int32_t pid = 0, tid = 0;         // CPU lanes
  int32_t device = 0, stream = 0;   // GPU lanes
  int32_t levels = 1;               // CPU: deepest depth + 1
  std::vector<TimelineSpan> spans;  // by start
  int64_t spans_in_region = 0;      // before the cap: more than spans.size() when capped
};

// Launch -> GPU work, as indices into lanes and their spans.
struct TimelineLink {
  int32_t from_lane = 0, from_span = 0;
  int32_t to_lane = 0, to_span = 0;
};

// One stretch of the region's critical path (critical_path/path_segments.h) on the timeline: on
// the lane and at the nesting depth of the event it belongs to, or, for a stretch with no event
// (the GPU idle between dependent work, the CPU between ops), lane -1.
struct TimelinePathStep {
  int32_t lane = -1;
  int32_t depth = 0;                 // CPU lanes: the event's nesting depth
  int64_t start_ns = 0, end_ns = 0;  // from the region's start
};

struct RegionTimeline {
  std::string region_name;
  int64_t region_duration_ns = 0;   // the annotation's span on the CPU
  int64_t end_ns = 0;               // from the region's start: the last span's end
  std::vector<TimelineLane> lanes;  // CPU lanes (by first span), then GPU lanes (device, stream)
  std::vector<TimelineLink> links;
  // The region's GPU activities (grid, block, occupancy, op chain, ...), as summarize_trace made
  // them, in GPU start order; GPU spans point into it.
  std::vector<ActivityRow> activities;
  bool capped = false;  // a lane kept only its longest spans, or spans too deep were left out
  // The region's critical path, in time order (add_timeline_critical_path); empty: not drawn.
  std::vector<TimelinePathStep> critical_path;
};

struct TimelineOptions {
  // A lane with more spans keeps its longest ones (a CPU lane first keeps the calls that launched
  // the GPU work drawn, up to half of them): a whole training step can hold 10^5 events, which no
  // page can draw (nor a person read); the report says when it happened.
  size_t max_spans_per_lane = 600;
  // Deeper CPU spans are dropped (and counted as capped).
  int32_t max_depth = 12;
};

// `members` are the region's GPU activities (RegionMembers::activities of this region) and `rows`
// their rows as summarize_trace made them (RegionSummary::activities), one per member, in the same
// order; rows are reused, not rebuilt, so the page shows exactly what `analyze` prints.
RegionTimeline build_region_timeline(const Trace& trace, const Region& region,
                                     const std::vector<GpuActivityId>& members,
                                     const std::vector<ActivityRow>& rows,
                                     const TimelineOptions& options = {});

}  // namespace attnprof
