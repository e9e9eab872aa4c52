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
      if (cat == "fwdbwd") return Category::kFlowFwdBwd;
      if (cat == "Kernel") return Category::kKernel;
      break;
    case 4:
      if (cat == "ac2g") return Category::kFlowAc2g;
      break;
    case 10:
      if (cat == "gpu_memcpy") return Category::kGpuMemcpy;
      if (cat == "gpu_memset") return Category::kGpuMemset;
      break;
    case 11:
      if (cat == "cuda_driver") return Category::kCudaDriver;
      break;
    case 12:
      if (cat == "cuda_runtime") return Category::kCudaRuntime;
      break;
    case 15:
      if (cat == "python_function") return Category::kPythonFunction;
      if (cat == "user_annotation") return Category::kUserAnnotation;
      break;
    case 19:
      if (cat == "gpu_user_annotation") return Category::kGpuUserAnnotation;
      break;
    case 17:
      if (cat == "cpu_instant_event") return Category::kCpuInstantEvent;
      break;
    case 8:
      if (cat == "Operator") return Category::kLegacyOperator;
      break;
    case 7:
      if (cat == "Runtime") return Category::kCudaRuntime;
      break;
    default:
      break;
  }
  // Every spelling, with the libkineto output_json.cpp / ActivityType.cpp that wrote it (dates
  // of pytorch/kineto commits; PyTorch releases pick them up a few months later).
  static constexpr std::pair<std::string_view, Category> kNames[] = {
      {"cpu_op", Category::kCpuOp},                           // 2021-06 on
      {"user_annotation", Category::kUserAnnotation},         // 2021-06 on
      {"gpu_user_annotation", Category::kGpuUserAnnotation},  // 2022-05 on
      {"cuda_runtime", Category::kCudaRuntime},               // 2021-11 on
      {"cuda_driver", Category::kCudaDriver},                 // 2023-04 on
      {"kernel", Category::kKernel},                          // 2022-04 on
      {"gpu_memcpy", Category::kGpuMemcpy},                   // 2022-04 on
      {"gpu_memset", Category::kGpuMemset},                   // 2022-04 on
      {"python_function", Category::kPythonFunction},         // 2021-11 on
      {"overhead", Category::kOverhead},
      {"cpu_instant_event", Category::kCpuInstantEvent},
      {"ac2g", Category::kFlowAc2g},      // 2022-10 on
      {"fwdbwd", Category::kFlowFwdBwd},  // 2022-10 on
      {"Trace", Category::kTraceSpan},
      {"attnprof", Category::kAttnprof},  // attnprof annotate's markers: read back, not modeled
      // PyTorch 1.8-1.9 (2020-09 to 2021-06): "Operator" for every CPU event.
      {"Operator", Category::kLegacyOperator},
      // Up to 2021-11: runtime calls; up to 2022-04: kernels, copies and memsets.
      {"Runtime", Category::kCudaRuntime},
      {"Kernel", Category::kKernel},
      {"Memcpy", Category::kGpuMemcpy},
      {"Memset", Category::kGpuMemset},
      // GPU user annotations: "User" (2021-04), "gpu_user_Annotation" (2021-06 to 2022-05).
      {"User", Category::kGpuUserAnnotation},
      {"gpu_user_Annotation", Category::kGpuUserAnnotation},
      // Launch flows: "async" named "launch" (up to 2021-11), then "async_cpu_to_gpu" (to 2022-10).
      {"async", Category::kFlowAc2g},
      {"async_cpu_to_gpu", Category::kFlowAc2g},
      {"forward_backward", Category::kFlowFwdBwd},  // 2021-11 to 2022-10
      {"cpu_to_cuda", Category::kFlowAc2g},  // the autograd profiler before Kineto (no "cat" on X)
      // The other devices of libkineto's ActivityType list (include/ActivityType.h): their host
      // runtime and driver calls launch work by correlation id as CUDA's do.
      {"mtia_runtime", Category::kCudaRuntime},         // Meta MTIA, 2023 on
      {"mtia_ccp_events", Category::kMtiaDeviceEvent},  // MTIA's device timeline
      {"xpu_runtime", Category::kCudaRuntime},          // Intel XPU (XPUPTI)
      {"xpu_driver", Category::kCudaDriver},
      {"privateuse1_runtime", Category::kCudaRuntime},  // out-of-tree backends (PrivateUse1)
      {"privateuse1_driver", Category::kCudaDriver},
      {"hpu_op", Category::kCudaRuntime},        // Intel Gaudi's host-side runtime events
      {"glow_runtime", Category::kCudaRuntime},  // Glow's host-side runtime events
      {"cuda_sync", Category::kGpuSync},         // 2023-02 on
      {"xpu_sync", Category::kGpuSync},
      {"cuda_profiler_range", Category::kGpuRange},  // the CUPTI range profiler, 2022-2025
      {"cuda_event", Category::kNotModeled},         // cudaEventRecord and friends as activities
      {"mtia_insight", Category::kNotModeled},
      {"mtia_counters", Category::kNotModeled},
      {"hardware_counters", Category::kNotModeled},
      {"xpu_scope_profiler", Category::kNotModeled},
      {"collective_comm", Category::kNotModeled},
      {"external_correlation", Category::kNotModeled},
  };
  for (const auto& [name, category] : kNames)
    if (name == cat) return category;
  return Category::kUnknown;
}

MtiaDeviceEventKind mtia_device_event_kind(std::string_view name) {
  if (name.find("dma") != std::string_view::npos) return MtiaDeviceEventKind::kTransfer;
  if (name == "event_wait" || name == "event_record") return MtiaDeviceEventKind::kSync;
  return MtiaDeviceEventKind::kKernel;
}

bool legacy_scope_is_step(std::string_view name) {
  return name.starts_with("ProfilerStep#");
}

bool is_kernel_launch_api(std::string_view name) {
  return name == "cudaLaunchKernel" || name == "cudaLaunchKernelExC" || name == "cuLaunchKernel" ||
         name == "cuLaunchKernelEx" || name == "cudaLaunchCooperativeKernel" ||
         name == "cudaGraphLaunch";
}

bool is_graph_launch_api(std::string_view name) {
  return name == "cudaGraphLaunch" || name == "cuGraphLaunch" || name == "hipGraphLaunch";
}

std::optional<GpuKind> captured_node_kind(std::string_view name) {
  if (is_graph_launch_api(name)) return std::nullopt;
  if (is_kernel_launch_api(name)) return GpuKind::kKernel;
  // cudaMemsetAsync, cudaMemset2DAsync, cuMemsetD32Async, cudaMemcpyAsync, cuMemcpyHtoDAsync...
  if (name.find("Memset") != std::string_view::npos) return GpuKind::kMemset;
  if (name.find("Memcpy") != std::string_view::npos) return GpuKind::kMemcpy;
  return std::nullopt;
}

}  // namespace attnprof::kineto
