#pragma once
// The region's critical path placed on its timeline, for the report to draw over the spans: each
// stretch of the path (critical_path/path_segments.h) on the lane of the event it belongs to.

#include "analysis/regions/region_timeline.h"
#include "analysis/regions/regions.h"
#include "model/trace.h"

namespace attnprof {

// Fills `timeline.critical_path` with the path of `region`, whose members are `members` (the same
// region and members the timeline was built from).
void add_timeline_critical_path(const Trace& trace, const Region& region, const MemberSet& members,
                                RegionTimeline& timeline);

}  // namespace attnprof
