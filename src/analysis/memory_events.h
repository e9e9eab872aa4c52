#pragma once
// The trace's CUDA [memory] events (profile_memory=True) indexed for the analyses: by process and
// device in time order (what a region's memory is read from: the allocator's totals are per
// process and device), and by thread in time order (what an op's span holds). Events whose totals
// are below zero are left out, with a diagnostic (docs/MEMORY.md).

#include <cstdint>
#include <span>
#include <vector>

#include "attnprof/diagnostics.h"
#include "model/trace.h"

namespace attnprof {

class MemoryEvents {
 public:
  // One process's events on one CUDA device, in time order (the trace's order at equal times).
  struct Stream {
    int32_t pid = 0;
    int32_t device = 0;
    std::vector<uint32_t> events;  // indices into Trace::instants
  };

  // Counts the events with negative totals into `diagnostics`.
  MemoryEvents(const Trace& trace, Diagnostics& diagnostics);

  bool empty() const { return streams_.empty(); }
  // By pid, then device.
  const std::vector<Stream>& streams() const { return streams_; }
  // The events of `stream` with start_ns <= ts <= end_ns.
  std::span<const uint32_t> in_span(const Stream& stream, int64_t start_ns, int64_t end_ns) const;
  // The events of thread (pid, tid) with start_ns <= ts <= end_ns, in time order.
  std::span<const uint32_t> on_thread(int32_t pid, int32_t tid, int64_t start_ns,
                                      int64_t end_ns) const;

 private:
  const Trace& trace_;
  std::vector<Stream> streams_;
  std::vector<uint32_t> by_thread_;  // by pid, tid, then time
};

// Whether `e` is a [memory] event of a CUDA device whose totals can be read.
inline bool is_cuda_memory_event(const InstantEvent& e) {
  return e.memory && e.device_type == kMemoryDeviceCuda && e.device >= 0 &&
         e.total_allocated >= 0 && e.total_reserved >= 0;
}

}  // namespace attnprof
