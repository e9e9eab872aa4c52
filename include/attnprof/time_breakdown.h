#pragma once
// Where a region's GPU time goes: its span cut into compute, communication, memory and idle, each
// instant counted once (docs/BREAKDOWN.md has the definitions and how they compare with HTA's).

#include <cstdint>
#include <optional>

namespace attnprof {

// Over a region's own GPU work (kernels, copies, memsets; not the synchronizations on the GPU
// timeline). compute + communication + memory == busy, and busy + idle == span, exactly in ns.
struct TimeBreakdown {
  int64_t span_ns = 0;     // first activity's start to the last one's end; 0 when there is none
  int64_t busy_ns = 0;     // the union of the activities' intervals
  int64_t idle_ns = 0;     // span - busy
  int64_t compute_ns = 0;  // the union of every kernel that is not communication
  // The union of the communication kernels, less what overlaps compute.
  int64_t communication_ns = 0;
  // The union of copies and memsets, less what overlaps compute or communication.
  int64_t memory_ns = 0;
  // The communication kernels' union, whole, and the part of it that overlaps compute.
  int64_t communication_union_ns = 0;
  int64_t communication_overlap_ns = 0;

  // The share of communication time that overlaps compute, %; none without communication.
  std::optional<double> communication_overlap_pct() const {
    if (communication_union_ns == 0) return std::nullopt;
    return 100.0 * static_cast<double>(communication_overlap_ns) /
           static_cast<double>(communication_union_ns);
  }
};

}  // namespace attnprof
