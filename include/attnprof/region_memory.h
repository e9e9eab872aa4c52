#pragma once
// A region's memory on each CUDA device, from the trace's [memory] events (traces recorded with
// profile_memory=True): the peak, when it was reached, what holds it. Made by
// src/analysis/regions/region_memory.cpp; docs/MEMORY.md defines each figure.

#include <cstdint>
#include <string>
#include <vector>

namespace attnprof {

// An op name and the bytes its calls allocated that are still live at a region's peak.
struct MemoryHolder {
  std::string op;  // the innermost op (or annotation) the allocations were made in; "" for none
  int64_t bytes = 0;
  int64_t allocations = 0;  // live blocks
};

// One point of a device's allocated memory over a region: after an event.
struct MemorySample {
  int64_t at_ns = 0;  // from the region's start
  int64_t allocated_bytes = 0;
};

// One CUDA device's memory over one region. Every figure is read from the caching allocator's
// own totals ("Total Allocated", "Total Reserved") of the region's events, never summed from
// their "Bytes".
struct RegionMemory {
  int32_t device = 0;
  int64_t events = 0;                // [memory] events of the region on this device
  int64_t peak_allocated_bytes = 0;  // the highest "Total Allocated"
  int64_t peak_at_ns = 0;            // the first event that reached it, from the region's start
  // The innermost op (or user annotation other than the step) and nn.Module ("Linear_3")
  // enclosing that event on its thread; "" where none does.
  std::string peak_op;
  std::string peak_module;
  int64_t at_start_bytes = 0;       // "Total Allocated" at the region's first event
  int64_t at_end_bytes = 0;         // and at its last
  int64_t peak_reserved_bytes = 0;  // the highest "Total Reserved"
  // Ops by the bytes they allocated (in the trace, in this region or before it) that are still
  // live at the peak, the most first.
  std::vector<MemoryHolder> top_allocators;
  // Of the peak, the bytes whose allocation the trace does not hold (made before the profiler's
  // window opened): the peak less every live block the trace allocated.
  int64_t allocated_before_trace_bytes = 0;
  // "Total Allocated" after each of the region's events, in order (for the report's plot).
  std::vector<MemorySample> samples;
};

}  // namespace attnprof
