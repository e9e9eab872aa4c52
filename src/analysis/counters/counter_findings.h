#pragma once
// What a run's hardware counters show (bench --counters), as sentences with their numbers: the
// study's claims grounded in counters rather than in reasoning from the launch (docs/counters.md):
// low occupancy beside busy tensor pipes, memory-bound kernels and their share of the DRAM
// traffic, FP32 pipes where half precision was asked for, and the measured occupancy beside
// attnprof's estimate with why they differ.

#include <optional>
#include <string>
#include <vector>

#include "attnprof/hardware_counters.h"

namespace attnprof {

// One variant's call as measured, with what the trace estimated of its main kernel.
struct CounterSubject {
  std::string variant;
  std::vector<KernelCounters> kernels;
  std::optional<double> estimated_occupancy_pct;  // attnprof's estimate of the trace's main kernel
  // The problem's query rows and keys per head (a bench run's q_seq and seq); 0: unknown, and the
  // kernels' names tell whether the products are thin.
  int64_t query_rows = 0, keys = 0;
};

struct CounterFinding {
  std::string variant;
  std::string id;  // "occupancy-by-design", "memory-bound", "fp32-pipe", "occupancy-measured"
  std::string text;
};

// Thresholds, named so the rules read as they are documented (docs/counters.md).
inline constexpr double kLowOccupancyPct = 25;    // a kernel keeping fewer warps than this
inline constexpr double kBusyTensorPipePct = 30;  // ... while its tensor pipe is this busy
inline constexpr double kNoTensorWorkPct = 5;     // a kernel whose tensor pipe is idler than this
inline constexpr double kMemoryBoundShare = 0.2;  // ... and such kernels take this much of the call
inline constexpr double kBusyFp32PipePct = 50;    // FP32 pipe this busy, tensor pipe idle
inline constexpr double kOccupancyGapPct = 2;     // measured and estimated differ by this much

// `bandwidth_bytes_per_s`: the copy kernel's, to say how close memory-bound kernels come to it.
std::vector<CounterFinding> counter_findings(const std::vector<CounterSubject>& subjects,
                                             std::optional<double> bandwidth_bytes_per_s);

}  // namespace attnprof
