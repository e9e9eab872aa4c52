#include "reader/kineto_format.h"

#include <array>
#include <utility>

namespace attnprof::kineto {

Category category_from_name(std::string_view cat) {
  static constexpr std::array<std::pair<std::string_view, Category>, 19> kNames{{
      {"cpu_op", Category::kCpuOp},
      {"user_annotation", Category::kUserAnnotation},
      {"gpu_user_annotation", Category::kGpuUserAnnotation},
      {"cuda_runtime", Category::kCudaRuntime},
      {"cuda_driver", Category::kCudaDriver},
      {"kernel", Category::kKernel},
      {"gpu_memcpy", Category::kGpuMemcpy},
      {"gpu_memset", Category::kGpuMemset},
      {"python_function", Category::kPythonFunction},
      {"overhead", Category::kOverhead},
      {"cpu_instant_event", Category::kCpuInstantEvent},
      {"ac2g", Category::kFlowAc2g},
      {"fwdbwd", Category::kFlowFwdBwd},
      {"Trace", Category::kTraceSpan},
      // Spellings of older PyTorch versions (1.x): "Operator", "Runtime", "Kernel", "Memcpy",
      // "Memset", "user_annotation" was "User annotation".
      {"Operator", Category::kCpuOp},
      {"Runtime", Category::kCudaRuntime},
      {"Kernel", Category::kKernel},
      {"Memcpy", Category::kGpuMemcpy},
      {"Memset", Category::kGpuMemset},
  }};
  for (const auto& [name, category] : kNames)
    if (name == cat) return category;
  return Category::kUnknown;
}

bool is_kernel_launch_api(std::string_view name) {
  return name == "cudaLaunchKernel" || name == "cudaLaunchKernelExC" || name == "cuLaunchKernel" ||
         name == "cuLaunchKernelEx" || name == "cudaLaunchCooperativeKernel" ||
         name == "cudaGraphLaunch";
}

}  // namespace attnprof::kineto
