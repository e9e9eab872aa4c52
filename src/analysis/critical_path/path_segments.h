#pragma once
// The critical path of a timed dependency graph as its stretches of time, in order: the walk back
// from the region's end through each node's last arrival (docs/CRITICAL_PATH.md, "Its times and
// its path"). Each stretch runs from a node's dependency to the node and belongs to that edge: its
// category, and the event whose time it is. The stretches tile the region from its start to its
// end. The categories (path_categories.h), annotate's marks and the report's drawing all read
// this one walk.

#include <cstdint>
#include <string_view>
#include <vector>

#include "analysis/critical_path/dependency_graph.h"
#include "analysis/critical_path/path_timing.h"
#include "model/trace.h"

namespace attnprof {

struct PathSegment {
  int64_t start_ns = 0, end_ns = 0;  // the stretch, inside the region
  // The part of it that is the edge's own time (the GPU work's, the open CPU event's); the rest
  // is the time its end waited beyond it.
  int64_t weight_ns = 0;
  PathCategory category = PathCategory::kCpu;
  EdgeKind kind = EdgeKind::kRegion;
  // The event the stretch belongs to (GraphEdge's): the GPU work, or the CPU event open on the
  // thread, the launching call, the waiting call. kNoId for none (a gap, the thread between
  // top-level events).
  GpuActivityId activity = kNoId;
  HostEventId host = kNoId;
};

// The category's key in JSON's `critical_path.categories`, without its "_us": "cpu", "sync", ...
std::string_view path_category_id(PathCategory category);

// The path from the region's start to its end, the earliest stretch first.
std::vector<PathSegment> critical_path_segments(const DependencyGraph& g, const PathTiming& timing);

}  // namespace attnprof
