#pragma once
// Launch delays and queue lengths (attnprof/launch_queue.h) of a list of GPU activities: one sort
// each, then a single pass.

#include <vector>

#include "analysis/kernels/kernel_names.h"
#include "attnprof/launch_queue.h"
#include "model/trace.h"

namespace attnprof {

// `ids`: a region's activities; `region_start`: its start on the trace clock; `names`: the kernels'
// short names, shared by every call over one trace.
LaunchDelays launch_delays(const Trace& trace, const std::vector<GpuActivityId>& ids,
                           int64_t region_start, KernelShortNames& names);
// By stream number; activities without a launch in the trace are left out.
std::vector<StreamQueue> stream_queues(const Trace& trace, const std::vector<GpuActivityId>& ids);

}  // namespace attnprof
