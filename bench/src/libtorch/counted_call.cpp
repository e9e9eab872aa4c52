#include "counted_call.h"

#include <c10/util/Exception.h>
#include <dlfcn.h>

#include <algorithm>
#include <exception>
#include <vector>

#include "libtorch/cuda_build.h"
#include "libtorch/custom_call.h"
#include "libtorch/device_sync.h"
#include "libtorch/error_text.h"
#include "libtorch/inputs.h"
#include "libtorch/sdpa_support.h"
#include "libtorch/variants.h"

#if ATTNPROF_BENCH_CUDA
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAStream.h>
#endif

namespace attnprof::bench {
namespace {

constexpr int kWarmUpCalls = 3;
constexpr int kCopyReps = 30;

// cuProfilerStart/Stop from the driver LibTorch has loaded already: the driver API's pair needs no
// CUDA headers here, and ncu honours it as it does cudaProfilerStart.
class ProfilerRange {
 public:
  ProfilerRange() {
    void* driver = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!driver) return;
    start_ = reinterpret_cast<Fn>(::dlsym(driver, "cuProfilerStart"));
    stop_ = reinterpret_cast<Fn>(::dlsym(driver, "cuProfilerStop"));
  }
  bool available() const { return start_ && stop_; }
  void start() const { start_(); }
  void stop() const { stop_(); }

 private:
  using Fn = int (*)();
  Fn start_ = nullptr, stop_ = nullptr;
};

// The warm-up, then one call between cuProfilerStart and cuProfilerStop. Throws what the call
// throws.
std::string profile_one_call(const AttentionCall& call, const InputSet& inputs) {
  const DeviceKind device = call.problem().device;
  for (int i = 0; i < kWarmUpCalls; ++i) call.run(inputs);
  synchronize(device);
  // After the warm-up: LibTorch loads the driver with its first CUDA call.
  const ProfilerRange range;
  if (!range.available()) return "the CUDA driver's cuProfilerStart was not found";
  range.start();
  call.run(inputs);
  synchronize(device);
  range.stop();
  return "";
}

}  // namespace

std::string run_counted_call(Variant variant, const Problem& problem, uint64_t seed) {
  try {
    const SdpaBackendPin pin(variant);
    const Masks masks = make_masks(problem);
    const AttentionCall call(variant, problem, masks);
    const InputSet inputs = make_input_set(problem, seed);
    if (is_sdpa(variant)) {
      if (auto reason = sdpa_unsupported_reason(variant, problem, inputs, masks)) return *reason;
    }
    return profile_one_call(call, inputs);
  } catch (const std::exception& e) {
    return error_text(e);
  }
}

std::string run_counted_call(const CustomKernel& kernel, const Problem& problem, uint64_t seed) {
  if (auto reason = custom_unsupported_reason(problem)) return *reason;
  try {
    const Masks masks = make_masks(problem);
    const CustomKernelCall call(kernel, problem, masks);
    return profile_one_call(call, make_input_set(problem, seed));
  } catch (const std::exception& e) {
    return error_text(e);
  }
}

std::optional<CopyBandwidth> measure_copy_bandwidth([[maybe_unused]] bool profiled,
                                                    std::string& error) {
#if ATTNPROF_BENCH_CUDA
  try {
    const auto options = at::TensorOptions().dtype(at::kFloat).device(at::kCUDA);
    const int64_t elements = kCopyBufferBytes / 4;
    const at::Tensor source = at::randn({elements}, options);
    at::Tensor target = at::empty({elements}, options);
    for (int i = 0; i < kWarmUpCalls; ++i) at::neg_out(target, source);
    synchronize(DeviceKind::kCuda);
    CopyBandwidth copy;
    copy.bytes_per_call = 2 * kCopyBufferBytes;
    if (profiled) {
      const ProfilerRange range;
      if (!range.available()) {
        error = "the CUDA driver's cuProfilerStart was not found";
        return std::nullopt;
      }
      range.start();
      at::neg_out(target, source);
      synchronize(DeviceKind::kCuda);
      range.stop();
      return copy;
    }
    const c10::cuda::CUDAStream stream = c10::cuda::getCurrentCUDAStream();
    std::vector<double> times;
    for (int r = 0; r < kCopyReps; ++r) {
      at::cuda::CUDAEvent start(cudaEventDefault), end(cudaEventDefault);
      start.record(stream);
      at::neg_out(target, source);
      end.record(stream);
      end.synchronize();
      times.push_back(start.elapsed_time(end));
    }
    std::sort(times.begin(), times.end());
    copy.median_ms = 0.5 * (times[kCopyReps / 2 - 1] + times[kCopyReps / 2]);
    copy.reps = kCopyReps;
    release_cached_memory(DeviceKind::kCuda);
    return copy;
  } catch (const std::exception& e) {
    error = error_text(e);
    return std::nullopt;
  }
#else
  error = "this LibTorch has no CUDA";
  return std::nullopt;
#endif
}

}  // namespace attnprof::bench
