#pragma once
// Each region's memory per CUDA device (include/attnprof/region_memory.h), from the trace's
// [memory] events: the peak of the allocator's "Total Allocated" and the first event that reached
// it, the op and nn.Module around that event, the totals at the region's first and last event,
// and the ops whose blocks are live at the peak (a replay of each device's allocations and frees
// from the trace's start, paired by address). docs/MEMORY.md defines each figure.

#include <vector>

#include "analysis/memory_events.h"
#include "analysis/regions/regions.h"
#include "attnprof/diagnostics.h"
#include "attnprof/region_memory.h"
#include "model/trace.h"

namespace attnprof {

// How many holders a peak lists, the most bytes first.
inline constexpr size_t kTopAllocators = 10;

// Per region of `set`, in its order: its memory on each device with events in its span, by
// device. Adds to `diagnostics` the frees of blocks the trace never allocated and the devices
// that ran GPU work without any [memory] event (when the trace has some).
std::vector<std::vector<RegionMemory>> region_memory(const Trace& trace, const RegionSet& set,
                                                     const MemoryEvents& events,
                                                     Diagnostics& diagnostics);

}  // namespace attnprof
