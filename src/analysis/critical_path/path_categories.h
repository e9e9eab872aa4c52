#pragma once
// The critical path of a timed dependency graph, told by category: each stretch of the path
// (path_segments.h) given to its edge's category, its weight and the wait beyond it (its end's
// slack) alike. The stretches tile the region from its start to its end, so the categories add up
// to the length.

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/critical_path/dependency_graph.h"
#include "analysis/critical_path/path_timing.h"
#include "analysis/kernels/kernel_names.h"
#include "attnprof/critical_path.h"
#include "model/trace.h"

namespace attnprof {

// The innermost cpu_op at or above host event `e` (a runtime call sits under the op that made
// it); kNoId for none.
HostEventId innermost_op(const Trace& trace, HostEventId e);

// GPU work as the path names it: a kernel by its short name, a copy or memset without its detail
// ("Memcpy DtoH (Device -> Pageable)" -> "Memcpy DtoH", as the activity rows name copies).
std::string gpu_work_name(const Trace& trace, GpuActivityId id, KernelShortNames& kernel_names);

// `is_attention` by activity index (empty: none is).
CriticalPath critical_path_of(const Trace& trace, const DependencyGraph& g,
                              const PathTiming& timing, const std::vector<uint8_t>& is_attention,
                              KernelShortNames& kernel_names);

}  // namespace attnprof
