#pragma once
// Launch delays and queue lengths (attnprof/launch_queue.h) of a list of GPU activities: one sort
// each, then a single pass.

#include <string>
#include <unordered_map>
#include <vector>

#include "attnprof/launch_queue.h"
#include "model/trace.h"

namespace attnprof {

// The short names of kernels (short_kernel_name), each worked out once: every region names its
// longest delays, and a name takes thousands of instructions to fold (1 % of analyze's on a
// 716-step trace, docs/PERFORMANCE.md).
class KernelShortNames {
 public:
  const std::string& of(const Trace& trace, StringId name);

 private:
  std::unordered_map<StringId, std::string> names_;
};

// `ids`: a region's activities; `region_start`: its start on the trace clock.
LaunchDelays launch_delays(const Trace& trace, const std::vector<GpuActivityId>& ids,
                           int64_t region_start, KernelShortNames& names);
// By stream number; activities without a launch in the trace are left out.
std::vector<StreamQueue> stream_queues(const Trace& trace, const std::vector<GpuActivityId>& ids);

}  // namespace attnprof
