#include "libtorch/peak_memory.h"

#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAFunctions.h>

namespace attnprof::bench {

std::optional<int64_t> peak_allocated_bytes(DeviceKind device, const std::function<void()>& call) {
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
}

}  // namespace attnprof::bench
