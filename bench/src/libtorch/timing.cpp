#include "libtorch/timing.h"

#include "libtorch/cuda_build.h"

#if ATTNPROF_BENCH_CUDA
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAStream.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "libtorch/device_sync.h"

namespace attnprof::bench {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

TimingStats summarize(std::vector<double> times_ms) {
  TimingStats stats;
  if (times_ms.empty()) return stats;
  std::sort(times_ms.begin(), times_ms.end());
  const size_t n = times_ms.size();
  stats.reps = static_cast<int>(n);
  stats.min_ms = times_ms.front();
  stats.max_ms = times_ms.back();
  stats.median_ms = n % 2 ? times_ms[n / 2] : 0.5 * (times_ms[n / 2 - 1] + times_ms[n / 2]);
  double sum = 0;
  for (double t : times_ms) sum += t;
  stats.mean_ms = sum / static_cast<double>(n);
  return stats;
}

// Runs calls until at least 3 have run and `seconds` have passed; returns the next index.
int warm_up(DeviceKind device, double seconds, const std::function<void(int)>& call) {
  const auto start = Clock::now();
  int i = 0;
  while (true) {
    call(i++);
    if (i < 3) continue;
    synchronize(device);
    if (seconds_since(start) >= seconds) return i;
  }
}

#if ATTNPROF_BENCH_CUDA
std::vector<double> time_cuda(int first, int reps, const std::function<void(int)>& call) {
  const c10::cuda::CUDAStream stream = c10::cuda::getCurrentCUDAStream();
  std::vector<at::cuda::CUDAEvent> starts, ends;
  starts.reserve(reps);
  ends.reserve(reps);
  for (int r = 0; r < reps; ++r) {
    // cudaEventDefault: timing enabled (LibTorch's default events have timing off).
    starts.emplace_back(cudaEventDefault);
    ends.emplace_back(cudaEventDefault);
  }
  for (int r = 0; r < reps; ++r) {
    starts[r].record(stream);
    call(first + r);
    ends[r].record(stream);
  }
  ends.back().synchronize();
  std::vector<double> times_ms(reps);
  for (int r = 0; r < reps; ++r) times_ms[r] = starts[r].elapsed_time(ends[r]);
  return times_ms;
}
#endif

std::vector<double> time_cpu(int first, int reps, const std::function<void(int)>& call) {
  std::vector<double> times_ms(reps);
  for (int r = 0; r < reps; ++r) {
    const auto start = Clock::now();
    call(first + r);
    times_ms[r] = 1e3 * seconds_since(start);
  }
  return times_ms;
}

std::vector<double> time_reps(DeviceKind device, int first, int reps,
                              const std::function<void(int)>& call) {
#if ATTNPROF_BENCH_CUDA
  if (device == DeviceKind::kCuda) return time_cuda(first, reps, call);
#endif
  (void)device;  // a CPU-only LibTorch has no CUDA device to time (query_device says so first)
  return time_cpu(first, reps, call);
}

}  // namespace

int rotation_set_count(int64_t set_bytes, int64_t l2_bytes, int64_t memory_budget) {
  constexpr int64_t kMinSets = 3, kMaxSets = 4096;
  int64_t sets = kMinSets;
  if (set_bytes > 0 && l2_bytes > 0) sets = std::max(sets, (2 * l2_bytes) / set_bytes + 1);
  if (set_bytes > 0 && memory_budget > 0) sets = std::min(sets, memory_budget / set_bytes);
  return static_cast<int>(std::clamp(sets, kMinSets, kMaxSets));
}

TimingStats time_calls(DeviceKind device, const TimingPlan& plan,
                       const std::function<void(int)>& call) {
  int next = warm_up(device, std::min(0.5, plan.budget_s / 10), call);
  // Estimate one call's time from three, then choose the repetitions that fill the budget.
  const std::vector<double> probe = time_reps(device, next, 3, call);
  next += 3;
  const double per_call_ms = std::max(1e-3, *std::max_element(probe.begin(), probe.end()));
  const double wanted = std::ceil(1e3 * plan.budget_s / per_call_ms);
  const int reps = static_cast<int>(
      std::clamp(wanted, static_cast<double>(plan.min_reps), static_cast<double>(plan.max_reps)));
  return summarize(time_reps(device, next, reps, call));
}

}  // namespace attnprof::bench
