#pragma once
// A region's collectives one by one (attnprof/collectives.h, CollectiveVisit), for the job's path
// across ranks: its communication kernels where it has any, else the collectives its CPU ran
// (gloo's, which make no kernel: the gloo: and nccl: ops the backends record).

#include <vector>

#include "attnprof/collectives.h"
#include "model/trace.h"

namespace attnprof {

class KernelShortNames;

// The communication kernels among `activities` (class_of: per GPU activity, its KernelClass as
// uint8_t), named as collective_totals names them, in start order.
std::vector<CollectiveVisit> kernel_collective_visits(const Trace& trace,
                                                      const std::vector<GpuActivityId>& activities,
                                                      const std::vector<uint8_t>& class_of,
                                                      KernelShortNames& kernel_names);

// The CPU collectives of a trace, sorted by start, found once; then those of each region.
class CpuCollectives {
 public:
  explicit CpuCollectives(const Trace& trace);
  // Those of process `pid` (any with `any_process`) that start in [start_ns, end_ns), in order.
  std::vector<CollectiveVisit> within(int32_t pid, bool any_process, int64_t start_ns,
                                      int64_t end_ns) const;

 private:
  const Trace& trace_;
  std::vector<HostEventId> events_;  // by start
};

}  // namespace attnprof
