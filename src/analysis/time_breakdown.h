#pragma once
// The time breakdown (attnprof/time_breakdown.h) of a list of GPU activities: sorted once, then
// each kind's intervals merged in one sweep; unions and overlaps of merged lists are linear.

#include <cstdint>
#include <vector>

#include "attnprof/analysis.h"
#include "attnprof/time_breakdown.h"

namespace attnprof {

// Copies and memsets (the activities, whatever their name) are memory; a copy KERNEL such as
// direct_copy_kernel runs on the SMs and is compute, as HTA counts it.
enum class WorkKind : uint8_t { kCompute, kCommunication, kMemory };

struct TimedWork {
  int64_t start_ns = 0, end_ns = 0;
  WorkKind kind = WorkKind::kCompute;
};

// `work` in any order; it is sorted here.
TimeBreakdown time_breakdown(std::vector<TimedWork> work);

// One activity of a stream, with the start of the call that launched it (-1: none in the trace).
struct StreamWork {
  int32_t stream = 0;
  int64_t start_ns = 0, end_ns = 0;
  int64_t launch_ns = -1;
};

// The idle time of each stream by cause (StreamIdle), by stream number. `work` in any order.
std::vector<StreamIdle> idle_by_stream(std::vector<StreamWork> work);

// Each quantity's median and range over the regions.
BreakdownFacts breakdown_facts(const std::vector<RegionSummary>& regions);

}  // namespace attnprof
