#pragma once
// Timing of single calls: CUDA events on the GPU, the steady clock on the CPU.

#include <cstdint>
#include <functional>

#include "problem.h"
#include "variant_runner.h"

namespace attnprof::bench {

struct TimingPlan {
  double budget_s = 1.0;
  int min_reps = 30;
  int max_reps = 5000;
};

// How many input sets timing rotates through: at least 3, and enough that together they exceed
// twice the L2, so that a small shape's inputs are not still in L2 from the previous call (which
// would flatter it); at most 4096 sets and `memory_budget` bytes in all.
int rotation_set_count(int64_t set_bytes, int64_t l2_bytes, int64_t memory_budget);

// Times call(i) for i = 0, 1, 2, ... (the caller maps i to an input set). Warm-up first (cuBLAS
// handles, cuDNN plans and lazily loaded kernels are paid there): at least 3 calls and a tenth of
// the budget. Then one measurement per call, enough calls to fill about the budget within
// [min_reps, max_reps]: on CUDA an event recorded before and after each call on the current
// stream, so a time is the GPU's, including any gap where the GPU waited for the CPU to launch;
// on the CPU the steady clock around each (synchronous) call.
TimingStats time_calls(DeviceKind device, const TimingPlan& plan,
                       const std::function<void(int)>& call);

}  // namespace attnprof::bench
