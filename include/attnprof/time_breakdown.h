#pragma once
// Where a region's GPU time goes: its span cut into compute, communication, memory and idle, each
// instant counted once (docs/BREAKDOWN.md has the definitions and how they compare with HTA's).

#include <cstdint>
#include <optional>
#include <vector>

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

// A gap shorter than this between two activities of a stream, whose launch came before the first
// ended, is the GPU's own delay between back-to-back kernels: HTA's `consecutive_kernel_delay`
// default (30, in its whole-microsecond times).
inline constexpr int64_t kKernelGapThresholdNs = 30'000;

// A stream's idle time within a region, by cause, as HTA's idle-time breakdown has it: each gap
// between consecutive activities of the stream goes to one cause.
struct StreamIdle {
  int32_t stream = 0;
  // The next activity's launch started on the CPU after the previous one ended: the GPU waited for
  // the host to issue work.
  int64_t host_wait_ns = 0;
  // Launched in time, and shorter than kKernelGapThresholdNs: the delay between back-to-back
  // kernels.
  int64_t kernel_gap_ns = 0;
  // Launched in time and longer (waiting on another stream, an event, a collective's peer), or
  // with no launch in the trace.
  int64_t other_ns = 0;
  int64_t busy_ns = 0;  // the union of the stream's activities in the region

  int64_t idle_ns() const { return host_wait_ns + kernel_gap_ns + other_ns; }
};

}  // namespace attnprof
