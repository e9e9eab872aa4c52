#pragma once
// The device memory a call allocates at its peak.

#include <cstdint>
#include <functional>
#include <optional>

#include "problem.h"

namespace attnprof::bench {

// Runs `call` once and returns the most bytes the CUDA caching allocator had allocated during it,
// above what was allocated before: the call's own intermediates, workspaces and outputs (what
// torch.cuda.max_memory_allocated shows after reset_peak_memory_stats). Bytes the allocator keeps
// cached but unused do not count. nullopt on the CPU, where LibTorch keeps no such statistics.
std::optional<int64_t> peak_allocated_bytes(DeviceKind device, const std::function<void()>& call);

}  // namespace attnprof::bench
