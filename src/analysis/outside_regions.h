#pragma once
// GPU work that no region holds: work launched before the profiler's window opened (its launch
// was dropped, its kernels kept), work whose launch a hand cut removed, and work launched by a
// process or at a time that no matched annotation covers. Each is said, with its count and GPU
// time, rather than silently left out or placed by its GPU time.

#include "analysis/regions/regions.h"
#include "attnprof/analysis.h"
#include "model/trace.h"

namespace attnprof {

WorkOutsideRegions work_outside_regions(const Trace& trace, const RegionSet& set,
                                        const RegionMembers& members);

// Warnings that say so, into `out` (nothing when every piece of work is in a region).
void diagnose_work_outside_regions(const WorkOutsideRegions& outside, Diagnostics& out);

}  // namespace attnprof
