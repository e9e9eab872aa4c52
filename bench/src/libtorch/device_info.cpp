#include "device_info.h"

#include <ATen/Context.h>
#include <ATen/detail/CUDAHooksInterface.h>
#include <torch/headeronly/version.h>

#include "libtorch/cuda_build.h"

#if ATTNPROF_BENCH_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAFunctions.h>
#endif

#include <exception>
#include <thread>

#include "libtorch/error_text.h"

namespace attnprof::bench {
namespace {

// LibTorch gives versions as the libraries encode them: CUDA 13.0 is 13000; cuDNN 9.19.0 is
// 91900 (from cuDNN 9 on: major·10000 + minor·100 + patch), cuDNN 8.9.7 was 8907.
std::string cuda_version_text(long v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}
std::string cudnn_version_text(long v) {
  const long major_unit = v >= 90000 ? 10000 : 1000;
  return std::to_string(v / major_unit) + "." + std::to_string((v % major_unit) / 100) + "." +
         std::to_string(v % 100);
}

}  // namespace

DeviceInfo query_device(DeviceKind device) {
  DeviceInfo info;
  if (device == DeviceKind::kCpu) {
    info.available = true;
    info.name = "CPU (" + std::to_string(std::thread::hardware_concurrency()) + " threads)";
    return info;
  }
#if !ATTNPROF_BENCH_CUDA
  info.unavailable_reason = "this LibTorch has no CUDA support (a CPU-only build)";
#else
  try {
    if (!at::globalContext().hasCUDA()) {
      info.unavailable_reason = "this LibTorch has no CUDA support (a CPU-only build)";
      return info;
    }
    if (c10::cuda::device_count() == 0) {
      info.unavailable_reason = "LibTorch sees no CUDA GPU on this machine";
      return info;
    }
    const cudaDeviceProp* props = at::cuda::getCurrentDeviceProperties();
    info.available = true;
    info.name = props->name;
    info.sm_count = props->multiProcessorCount;
    info.compute_major = props->major;
    info.compute_minor = props->minor;
    info.l2_bytes = props->l2CacheSize;
    info.memory_bytes = static_cast<int64_t>(props->totalGlobalMem);
    info.tf32_matmul = at::globalContext().allowTF32CuBLAS();
  } catch (const std::exception& e) {
    info.available = false;
    info.unavailable_reason = std::string("CUDA could not be initialized: ") + error_text(e);
  }
#endif
  return info;
}

LibraryVersions library_versions() {
  LibraryVersions versions;
  versions.torch = std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) +
                   "." + std::to_string(TORCH_VERSION_PATCH);
  try {
    const auto& hooks = at::detail::getCUDAHooks();
    if (hooks.hasCUDA()) {
      versions.cuda_runtime = cuda_version_text(hooks.versionCUDART());
      if (hooks.hasCuDNN()) versions.cudnn = cudnn_version_text(hooks.versionRuntimeCuDNN());
    }
  } catch (const std::exception&) {  // versions are informative: leave them empty
  }
  return versions;
}

}  // namespace attnprof::bench
