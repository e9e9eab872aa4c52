#pragma once
// Every region's critical path (attnprof/critical_path.h) and, with what-if rules, its length
// timed again: one dependency graph per member set (regions that hold the same work share it,
// and take the first such region's span), built, timed and walked in time linear in its nodes
// and edges but for a sort of each region's work by launch.

#include <cstdint>
#include <vector>

#include "analysis/critical_path/path_segments.h"
#include "analysis/kernels/kernel_names.h"
#include "analysis/regions/regions.h"
#include "attnprof/analysis.h"
#include "model/trace.h"

namespace attnprof {

// Fills each region's `critical_path` (and `what_if` when `rules` is not empty) in `regions`,
// indexed as `set.regions`. `class_of` is each activity's KernelClass, `attention_of_set` each
// member set's attention kernels. Dependencies against the clock and waits whose record is not
// in the trace are counted in `diagnostics`. The member sets' paths are made on up to `workers`
// threads (base/parallel_tasks.h: 0 for one per core).
void add_critical_paths(const Trace& trace, const RegionSet& set, const RegionMembers& members,
                        const std::vector<uint8_t>& class_of,
                        const std::vector<std::vector<GpuActivityId>>& attention_of_set,
                        const std::vector<WhatIfRule>& rules, KernelShortNames& kernel_names,
                        std::vector<RegionSummary>& regions, Diagnostics& diagnostics,
                        size_t workers);

// A region's critical path as its stretches, for what draws it (annotate, the report).
struct RegionPathSegments {
  size_t region = 0;  // into set.regions
  std::vector<PathSegment> segments;
};

// The path of the first region of each member set that a region holds (the others hold the
// same work, and share its path as they share its `critical_path`), in the regions' order. Built
// as add_critical_paths builds them, without what-if.
std::vector<RegionPathSegments> critical_path_segments_of_regions(const Trace& trace,
                                                                  const RegionSet& set,
                                                                  const RegionMembers& members);

// The path of one region, whose members are `members`.
std::vector<PathSegment> critical_path_segments_of(const Trace& trace, const Region& region,
                                                   const MemberSet& members);

}  // namespace attnprof
