#pragma once
// Waiting for the device, and giving its cached memory back, from the LibTorch half.

#include "problem.h"

namespace attnprof::bench {

// Waits until the device has finished all queued work (nothing to wait for on the CPU).
void synchronize(DeviceKind device);

// Returns the CUDA caching allocator's unused blocks to the driver, so one variant's cache (or an
// out-of-memory failure's leftovers) does not shrink what the next variant can allocate.
void release_cached_memory(DeviceKind device);

}  // namespace attnprof::bench
