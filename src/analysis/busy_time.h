#pragma once
// Time the GPU spent on any of a list of activities: the union of their intervals.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "analysis/duration_sum.h"
#include "model/trace.h"

namespace attnprof {

// `ids` sorted by start.
inline int64_t busy_time(const Trace& trace, const std::vector<GpuActivityId>& ids) {
  int64_t busy = 0, cover_start = 0, cover_end = 0;
  bool open = false;
  for (GpuActivityId id : ids) {
    const GpuActivity& a = trace.gpu_activities[id];
    if (!open || a.start_ns > cover_end) {
      if (open) add_duration(busy, cover_end - cover_start);
      cover_start = a.start_ns;
      cover_end = a.end_ns();
      open = true;
    } else {
      cover_end = std::max(cover_end, a.end_ns());
    }
  }
  if (open) add_duration(busy, cover_end - cover_start);
  return busy;
}

}  // namespace attnprof
