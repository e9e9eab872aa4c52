#include "libtorch/device_sync.h"

#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAFunctions.h>

namespace attnprof::bench {

void synchronize(DeviceKind device) {
  if (device == DeviceKind::kCuda) c10::cuda::device_synchronize();
}

void release_cached_memory(DeviceKind device) {
  if (device != DeviceKind::kCuda) return;
  c10::cuda::device_synchronize();
  c10::cuda::CUDACachingAllocator::emptyCache();
}

}  // namespace attnprof::bench
