#include "libtorch/device_sync.h"

#include "libtorch/cuda_build.h"

#if ATTNPROF_BENCH_CUDA
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAFunctions.h>
#endif

namespace attnprof::bench {

void synchronize([[maybe_unused]] DeviceKind device) {
#if ATTNPROF_BENCH_CUDA
  if (device == DeviceKind::kCuda) c10::cuda::device_synchronize();
#endif
}

void release_cached_memory([[maybe_unused]] DeviceKind device) {
#if ATTNPROF_BENCH_CUDA
  if (device != DeviceKind::kCuda) return;
  c10::cuda::device_synchronize();
  c10::cuda::CUDACachingAllocator::emptyCache();
#endif
}

}  // namespace attnprof::bench
