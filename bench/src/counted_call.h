#pragma once
// What the child run under Nsight Compute executes (`attnprof bench --counters`, docs/counters.md),
// and the copy kernel that measures the bandwidth the roofline uses. Implemented in
// libtorch/counted_call.cpp; this header includes no LibTorch.

#include <cstdint>
#include <optional>
#include <string>

#include "custom_kernel.h"
#include "problem.h"

namespace attnprof::bench {

// The kernel the bandwidth is measured with: an element-wise pass that reads each byte of a
// buffer once and writes each byte of another once (a copy that is a kernel, which ncu can
// profile; cudaMemcpy's is not).
inline constexpr const char* kCopyKernelOp = "at::neg_out on float32";
// Each of the two buffers: far larger than the L2, so every byte comes from and goes to HBM.
inline constexpr int64_t kCopyBufferBytes = int64_t{2} << 30;

struct CopyBandwidth {
  int64_t bytes_per_call = 0;  // read plus written
  double median_ms = 0;
  int reps = 0;
  double bytes_per_s() const { return median_ms > 0 ? bytes_per_call / (median_ms * 1e-3) : 0; }
};

// Runs `variant` on `problem` a few times (cuDNN plans, cuBLAS handles and lazily loaded kernels
// are paid there), then once more between cuProfilerStart and cuProfilerStop, so that ncu started
// with --profile-from-start off measures exactly the kernels of one typical call. Returns "" or why
// it could not (a backend that cannot run the case, out of memory, no profiler API).
std::string run_counted_call(Variant variant, const Problem& problem, uint64_t seed);
// The same for a --custom kernel.
std::string run_counted_call(const CustomKernel& kernel, const Problem& problem, uint64_t seed);

// The copy kernel on fresh buffers of kCopyBufferBytes each: with `profiled`, one call between
// cuProfilerStart and Stop (for ncu); otherwise timed with CUDA events (median of 30 calls after
// 3 warm-ups). An error message when there is no CUDA device or the memory is not there.
std::optional<CopyBandwidth> measure_copy_bandwidth(bool profiled, std::string& error);

}  // namespace attnprof::bench
