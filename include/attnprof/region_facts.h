#pragma once
// The facts of a trace's regions: each quantity a median over the regions with its min..max, the
// GPU time and count per kernel class, and the main kernel of the typical region. The analysis
// computes them once (summarize_trace, src/analysis/regions/region_facts.cpp) and every output
// reads them: analyze's text, JSON and Markdown, check and diff (as metrics), the report's tables
// and the bench's table and summary.json. docs/ARCHITECTURE.md ("Adding a column") says how a new
// fact goes in.

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "attnprof/hardware_counters.h"

namespace attnprof {

// A quantity measured once per region: its median, and its spread (min..max) so that a reader can
// tell a change from noise.
struct Spread {
  double median = 0, min = 0, max = 0;
  int count = 0;  // how many values (regions) it summarizes; 0 gives all zeros

  // Half the range: how far a single region may stray from the middle.
  double half_range() const { return (max - min) / 2; }
  bool varies() const { return max != min; }
};

// What kind of work a GPU activity does (the rules: src/analysis/kernels/kernel_class.h).
enum class KernelClass : uint8_t {
  kFusedAttention,
  kGemm,
  kSoftmax,
  kMask,
  kElementwise,
  kReduction,
  kCopy,
  kMemset,
  kCommunication,  // collectives and point-to-point transfers between GPUs (NCCL, RCCL, HCCL)
  kOther,
};
inline constexpr size_t kKernelClassCount = 10;

// Every class, in the order reports list them.
inline constexpr std::array<KernelClass, kKernelClassCount> kAllKernelClasses = {
    KernelClass::kFusedAttention, KernelClass::kGemm,        KernelClass::kSoftmax,
    KernelClass::kMask,           KernelClass::kElementwise, KernelClass::kReduction,
    KernelClass::kCopy,           KernelClass::kMemset,      KernelClass::kCommunication,
    KernelClass::kOther};

// The time breakdown (attnprof/time_breakdown.h) over a trace's regions: a median and its range
// per quantity.
struct BreakdownFacts {
  Spread span_ns, idle_ns, compute_ns, communication_ns, memory_ns;
  // Over the regions that communicate only (count 0 when none does).
  Spread communication_overlap_pct;
};

// A region's waits as single numbers, named as check's metrics are (docs/BREAKDOWN.md): its idle
// time by cause summed over its streams, its launch delays, and its streams' queues. check, diff,
// the Python module's regions table and the report read these, so that each says the same.
struct RegionWaits {
  int64_t idle_host_wait_ns = 0, idle_kernel_gap_ns = 0, idle_other_ns = 0;
  // Launch call to GPU start; none when no activity's launch is in the trace.
  std::optional<double> launch_delay_median_ns, launch_delay_p95_ns, launch_delay_max_ns;
  std::optional<double> op_to_launch_median_ns;  // none when no launch has an op
  int32_t queue_max_length = 0;                  // the longest queue of any stream
  // The longest of the streams' mean queues: weighted by time, and over the queue's points
  // (HTA's mean, docs/BREAKDOWN.md).
  double queue_time_mean_length = 0, queue_point_mean_length = 0;
  int64_t full_queue_ns = 0;  // time at a full queue, summed over the streams
};

// RegionWaits over the regions: each spread over the regions that have the value.
struct WaitFacts {
  Spread idle_host_wait_ns, idle_kernel_gap_ns, idle_other_ns;
  Spread launch_delay_median_ns, launch_delay_p95_ns, launch_delay_max_ns, op_to_launch_median_ns;
  Spread queue_max_length, queue_time_mean_length, queue_point_mean_length, full_queue_ns;
};

struct KernelClassFacts {
  Spread count;    // activities of the class per region
  Spread time_ns;  // sum of their durations per region
};

// The typical region's kernel with the longest duration (the first of equals): in an attention
// forward, the attention kernel itself or its largest GEMM.
struct MainKernel {
  std::string short_name;
  std::string name;
  std::string launch_api;
  std::optional<double> occupancy_pct;         // attnprof's estimate
  std::string occupancy_limiter;               // what bounds it: "registers", ...
  std::optional<double> kineto_occupancy_pct;  // as Kineto wrote it
  int32_t registers = 0;
  int64_t shared_memory_bytes = 0;
  int64_t grid_blocks = 0;  // grid x * y * z
  int64_t duration_ns = 0;
};

struct RegionFacts {
  int64_t regions = 0;
  Spread kernels, memcpy, memset;
  // Copies per region by kind ("DtoD"), for the kinds some region made.
  std::map<std::string, Spread> memcpy_by_kind;
  Spread gpu_busy_ns;  // the union of the region's GPU activity intervals
  Spread wall_ns;      // the region annotation's duration on the CPU
  Spread cpu_ns;       // time in the region's top-level CPU ops, all threads of its process
  // Indexed by KernelClass, over every region.
  std::array<KernelClassFacts, kKernelClassCount> by_class;
  BreakdownFacts breakdown;
  WaitFacts waits;
  std::optional<MainKernel> main_kernel;  // none when the typical region ran no kernel
  // The highest "Total Allocated" of each region's [memory] events (the most over its CUDA
  // devices), over the regions that have such events; none when no region has.
  std::optional<Spread> peak_allocated_bytes;
  // What Nsight Compute measured of one typical call (bench --counters, docs/counters.md): the
  // call's kernels summed. A trace alone has none; the bench and `check` on a study folder (from
  // its summary.json) attach them.
  std::optional<CounterTotals> counters;
};

}  // namespace attnprof
