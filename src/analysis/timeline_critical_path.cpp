#include "analysis/timeline_critical_path.h"

#include <algorithm>

#include "analysis/critical_path/region_critical_paths.h"

namespace attnprof {

namespace {

// The depth of the span that starts at `start_ns` and lasts `dur_ns` on a CPU lane (spans are by
// start), or 0 where the lane left it out (capped).
int32_t depth_of(const TimelineLane& lane, int64_t start_ns, int64_t dur_ns) {
  auto it =
      std::lower_bound(lane.spans.begin(), lane.spans.end(), start_ns,
                       [](const TimelineSpan& s, int64_t start) { return s.start_ns < start; });
  for (; it != lane.spans.end() && it->start_ns == start_ns; ++it)
    if (it->duration_ns == dur_ns) return it->depth;
  return 0;
}

}  // namespace

void add_timeline_critical_path(const Trace& trace, const Region& region, const MemberSet& members,
                                RegionTimeline& timeline) {
  timeline.critical_path.clear();
  for (const PathSegment& s : critical_path_segments_of(trace, region, members)) {
    if (s.end_ns <= s.start_ns) continue;
    TimelinePathStep step;
    step.start_ns = s.start_ns - region.start_ns;
    step.end_ns = s.end_ns - region.start_ns;
    for (size_t l = 0; l < timeline.lanes.size() && step.lane < 0; ++l) {
      const TimelineLane& lane = timeline.lanes[l];
      if (s.activity != kNoId) {
        const GpuActivity& a = trace.gpu_activities[s.activity];
        if (lane.gpu && lane.device == a.device && lane.stream == a.stream)
          step.lane = static_cast<int32_t>(l);
      } else if (s.host != kNoId) {
        const HostEvent& e = trace.host_events[s.host];
        if (!lane.gpu && lane.pid == e.pid && lane.tid == e.tid) {
          step.lane = static_cast<int32_t>(l);
          step.depth = depth_of(lane, e.start_ns - region.start_ns, e.dur_ns);
        }
      }
    }
    timeline.critical_path.push_back(step);
  }
}

}  // namespace attnprof
