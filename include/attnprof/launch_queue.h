#pragma once
// How long GPU work waits between its launch and its start, and how many launches a stream holds
// queued: HTA's launch delays and queue length (docs/BREAKDOWN.md), per region.

#include <cstdint>
#include <string>
#include <vector>

namespace attnprof {

// CUDA blocks a launch once a stream holds about this many launches not yet started (HTA's
// `max_queue_length` default); a queue at this length means the CPU waits on it.
inline constexpr int32_t kFullQueueLength = 1024;

// One of the activities that waited longest after its launch.
struct LaunchDelay {
  std::string kernel;  // short name
  int32_t stream = 0;
  int64_t start_ns = 0;            // from the region's start
  int64_t launch_to_start_ns = 0;  // the launch call's start to the activity's start
  int64_t op_to_launch_ns = -1;    // the innermost op's start to the launch call's; -1: no op
};

// Over a region's GPU activities whose launch call is in the trace.
struct LaunchDelays {
  int64_t launched = 0;  // activities counted
  // From the launch call's start to the activity's start (the call's own CPU time included).
  double median_ns = 0, p95_ns = 0;
  // From the launch call's end to the activity's start, at least 0: HTA's kernel launch delay
  // (cuda_kernel_launch_stats' launch_delay).
  double end_to_start_median_ns = 0;
  int64_t max_ns = 0;
  double op_to_launch_median_ns = -1;  // over those with an op; -1 when none has one
  std::vector<LaunchDelay> longest;    // the 5 longest launch-to-start delays, longest first
};

// A stream's queue in a region: launches made (the call's start) and not yet started (the
// activity's start), as a step function of time.
struct StreamQueue {
  int32_t stream = 0;
  int32_t max_length = 0;
  double mean_length = 0;  // weighted by time, from the stream's first launch to its last start
  // The mean over the series' points, one per launch and per start (HTA's queue length summary:
  // pandas' describe() of get_queue_length_time_series).
  double point_mean_length = 0;
  int64_t full_ns = 0;  // time at kFullQueueLength or more: the CPU blocked on the queue
};

}  // namespace attnprof
