#pragma once
// Estimated occupancy of a kernel launch from what the trace records (registers per thread,
// shared memory, block and grid) and the device's limits: the CUDA occupancy calculator's rules.
// Kineto computes the same figure but leaves 0 for launches it cannot query (cuLaunchKernelEx).

#include <optional>
#include <string_view>

#include "model/trace.h"

namespace attnprof {

struct OccupancyEstimate {
  int blocks_per_sm = 0;       // resident blocks the limits allow
  double theoretical_pct = 0;  // warps of those blocks over the SM's maximum
  double achieved_pct = 0;     // the same, capped by how many blocks the grid has per SM
  std::string_view limiter;    // "registers", "shared memory", "threads", "blocks", "grid"
  // What caps blocks_per_sm, the grid aside: limiter, or for a grid-limited launch what would cap
  // it with blocks enough.
  std::string_view resource_limiter;
};

// nullopt when the activity is not a kernel or lacks a block size.
std::optional<OccupancyEstimate> estimate_occupancy(const GpuActivity& kernel,
                                                    const DeviceProperties& device);

}  // namespace attnprof
