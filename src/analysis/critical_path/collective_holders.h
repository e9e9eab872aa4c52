#pragma once
// What held a rank's path before each of its collectives (CollectiveVisit::held_by): across ranks,
// the rank that reached a collective last held every other rank there, and this says with what
// (cross_trace.h, JobPathAcrossRanks).

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/critical_path/path_segments.h"
#include "analysis/kernels/kernel_names.h"
#include "attnprof/analysis.h"
#include "model/trace.h"

namespace attnprof {

// The op (the innermost cpu_op of a stretch's host event) or kernel with the most of the path's
// time in [from_ns, to_ns); "" where no stretch there has one.
std::string path_holder(const Trace& trace, const std::vector<PathSegment>& path, int64_t from_ns,
                        int64_t to_ns, KernelShortNames& kernel_names);

// Each of the region's collective visits' held_by, from the previous one's end (the region's
// start for the first) to its start, and what held the path after the last, to `end_ns`.
void add_collective_holders(const Trace& trace, const std::vector<PathSegment>& path,
                            int64_t start_ns, int64_t end_ns, RegionSummary& region,
                            KernelShortNames& kernel_names);

}  // namespace attnprof
