#include "libtorch/peak_memory.h"

#include "libtorch/cuda_build.h"

#if ATTNPROF_BENCH_CUDA
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAFunctions.h>
#endif

namespace attnprof::bench {

std::optional<int64_t> peak_allocated_bytes([[maybe_unused]] DeviceKind device,
                                            [[maybe_unused]] const std::function<void()>& call) {
#if !ATTNPROF_BENCH_CUDA
  return std::nullopt;
#else
  if (device != DeviceKind::kCuda) return std::nullopt;
  namespace allocator = c10::cuda::CUDACachingAllocator;
  constexpr auto kAll = static_cast<size_t>(c10::CachingAllocator::StatType::AGGREGATE);
  const c10::DeviceIndex index = c10::cuda::current_device();
  c10::cuda::device_synchronize();
  const int64_t before = allocator::getDeviceStats(index).allocated_bytes[kAll].current;
  allocator::resetPeakStats(index);
  call();
  c10::cuda::device_synchronize();
  return allocator::getDeviceStats(index).allocated_bytes[kAll].peak - before;
#endif
}

}  // namespace attnprof::bench
