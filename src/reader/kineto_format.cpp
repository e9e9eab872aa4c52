#include "reader/kineto_format.h"

#include <array>
#include <utility>

namespace attnprof::kineto {

Category category_from_name(std::string_view cat) {
  // The common spellings first, told apart by length and a byte, without string compares.
  switch (cat.size()) {
    case 6:
      if (cat == "cpu_op") return Category::kCpuOp;
      if (cat == "kernel") return Category::kKernel;
      break;
    case 4:
      if (cat == "ac2g") return Category::kFlowAc2g;
      break;
    case 12:
      if (cat == "cuda_runtime") return Category::kCudaRuntime;
      break;
    case 15:
      if (cat == "python_function") return Category::kPythonFunction;
      break;
    case 17:
      if (cat == "cpu_instant_event") return Category::kCpuInstantEvent;
      break;
    default:
      break;
  }
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
