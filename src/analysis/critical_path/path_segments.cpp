#include "analysis/critical_path/path_segments.h"

#include <algorithm>

namespace attnprof {

std::string_view path_category_id(PathCategory category) {
  switch (category) {
    case PathCategory::kCpu:
      return "cpu";
    case PathCategory::kLaunchOverhead:
      return "launch_overhead";
    case PathCategory::kSync:
      return "sync";
    case PathCategory::kCompute:
      return "compute";
    case PathCategory::kCommunication:
      return "communication";
    case PathCategory::kMemory:
      return "memory";
    case PathCategory::kKernelGap:
      return "kernel_gap";
  }
  return "cpu";
}

std::vector<PathSegment> critical_path_segments(const DependencyGraph& g,
                                                const PathTiming& timing) {
  std::vector<PathSegment> path;
  const int64_t start = timing.time_ns[g.start];
  uint32_t v = g.end;
  while (v != g.start) {
    const int32_t b = timing.binding[v];
    const int64_t at = timing.time_ns[v];
    if (b < 0) {
      // Nothing before it: only the region's start has no dependency, but a cut cycle can leave
      // one; its time back to the start is the thread's.
      path.push_back({start, at, 0, PathCategory::kCpu, EdgeKind::kRegion, kNoId, kNoId});
      break;
    }
    const GraphEdge& e = g.edges[static_cast<size_t>(b)];
    const int64_t from = std::max(timing.time_ns[e.from], start);
    const int64_t stretch = std::max<int64_t>(at - from, 0);
    path.push_back({from, from + stretch, std::min(e.weight_ns, stretch), e.category, e.kind,
                    e.activity, e.host});
    if (timing.time_ns[e.from] <= start) break;
    v = e.from;
  }
  std::reverse(path.begin(), path.end());
  return path;
}

}  // namespace attnprof
