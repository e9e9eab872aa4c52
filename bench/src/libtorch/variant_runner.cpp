#include "variant_runner.h"

#include <c10/util/Exception.h>
#include <unistd.h>

#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "libtorch/cuda_build.h"
#include "libtorch/custom_call.h"
#include "libtorch/device_sync.h"
#include "libtorch/error_text.h"
#include "libtorch/inputs.h"
#include "libtorch/peak_memory.h"
#include "libtorch/reference.h"
#include "libtorch/sdpa_support.h"
#include "libtorch/timing.h"
#include "libtorch/trace_capture.h"
#include "libtorch/variants.h"

#if ATTNPROF_BENCH_CUDA
#include <ATen/cuda/CUDAContext.h>
#endif

namespace attnprof::bench {
namespace {

// The cache that rotating input sets must defeat (the GPU's L2; on the CPU its last level), and
// how much memory the sets may take (an eighth of the GPU's).
struct RotationLimits {
  int64_t cache_bytes = 0;
  int64_t memory_budget = 0;
};

RotationLimits rotation_limits([[maybe_unused]] DeviceKind device) {
#if ATTNPROF_BENCH_CUDA
  if (device == DeviceKind::kCuda) {
    const cudaDeviceProp* props = at::cuda::getCurrentDeviceProperties();
    return {props->l2CacheSize, static_cast<int64_t>(props->totalGlobalMem) / 8};
  }
#endif
  const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
  return {l3 > 0 ? l3 : 0, int64_t{8} << 30};
}

std::string format_error(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

// Gives the caching allocator's blocks back however run_variant leaves, so that one variant's
// cache (or an out-of-memory failure's leftovers) does not shrink what the next can allocate.
class ReleaseCachedMemoryOnExit {
 public:
  explicit ReleaseCachedMemoryOnExit(DeviceKind device) : device_(device) {}
  ~ReleaseCachedMemoryOnExit() {
    try {
      release_cached_memory(device_);
    } catch (const std::exception&) {  // a device that cannot free memory fails the next variant
    }
  }
  ReleaseCachedMemoryOnExit(const ReleaseCachedMemoryOnExit&) = delete;
  ReleaseCachedMemoryOnExit& operator=(const ReleaseCachedMemoryOnExit&) = delete;

 private:
  DeviceKind device_;
};

std::string cpu_unsupported_reason(Variant variant) {
  return "PyTorch has no CPU kernel for the " +
         std::string(variant == Variant::kSdpaCudnn ? "cuDNN" : "memory-efficient") +
         " SDPA backend";
}

std::string failure_reason(const Correctness& c) {
  return "relative error " + format_error(c.output_error) +
         (c.grad_error ? " (gradients " + format_error(*c.grad_error) + ")" : std::string()) +
         " above " + format_error(c.threshold);
}

// What every row measures the same way, whatever runs the call: correctness against float64,
// peak memory, timing over rotated input sets, the trace. Sets `has_run` once the call has run
// on real inputs (a later LibTorch error is then a failure, not a backend's refusal). Throws what
// the call throws.
void measure_call(const AttentionCall& call, const RunSettings& settings,
                  const std::function<void(std::string_view)>& phase, VariantMeasurement& m,
                  bool& has_run) {
  const Problem& problem = call.problem();
  phase("correctness");
  m.correctness = check_correctness(call, settings.seed + 1);
  has_run = true;
  if (!m.correctness->passed) {
    m.status = VariantStatus::kFailed;
    m.reason = failure_reason(*m.correctness);
  }
  // The float64 reference's blocks would otherwise stay cached through the timing.
  release_cached_memory(problem.device);

  phase("inputs");
  const RotationLimits limits = rotation_limits(problem.device);
  const int64_t set_bytes = input_set_bytes(problem);
  const int sets = rotation_set_count(set_bytes, limits.cache_bytes, limits.memory_budget);
  std::vector<InputSet> inputs;
  inputs.reserve(sets);
  for (int i = 0; i < sets; ++i) inputs.push_back(make_input_set(problem, settings.seed + 2 + i));

  phase("memory");
  m.peak_allocated_bytes = peak_allocated_bytes(problem.device, [&] { call.run(inputs[0]); });

  phase("timing");
  const TimingPlan plan{settings.time_budget_s, settings.min_reps, settings.max_reps};
  TimingStats timing = time_calls(problem.device, plan, [&](int i) { call.run(inputs[i % sets]); });
  timing.input_sets = sets;
  timing.input_set_bytes = set_bytes;
  m.timing = timing;

  if (!settings.trace_json_path.empty()) {
    phase("trace");
    record_trace(call, inputs, settings.trace_iterations, settings.trace_json_path);
    m.trace_json_path = settings.trace_json_path;
  }
}

// A custom kernel's first call, on the problem's real inputs: the library's UNSUPPORTED, or an
// AOTInductor package's error (its shapes and dtype were fixed when it was exported), is the
// row's reason, as PyTorch's check is for a pinned backend. Throws anything else.
std::optional<std::string> first_call_refusal(const CustomKernelCall& call, bool aoti_package,
                                              uint64_t seed) {
  const Problem& problem = call.problem();
  try {
    call.forward(make_input_set(problem, seed));
    synchronize(problem.device);
  } catch (const CustomKernelRefusal& e) {
    if (e.unsupported()) return std::string(e.what());
    throw;
  } catch (const c10::OutOfMemoryError&) {
    throw;
  } catch (const c10::Error& e) {
    if (aoti_package) return "the package cannot run this problem: " + error_text(e);
    throw;
  }
  return std::nullopt;
}

}  // namespace

VariantMeasurement run_variant(Variant variant, const Problem& problem, const RunSettings& settings,
                               const PhaseCallback& on_phase) {
  VariantMeasurement m;
  m.variant = variant;
  const auto phase = [&](std::string_view name) {
    if (on_phase) on_phase(name);
  };
  // The command checks every shape before it runs; this is for callers that build a Problem.
  if (const std::string error = shape_error(problem); !error.empty()) {
    m.status = VariantStatus::kError;
    m.reason = error;
    return m;
  }
  if (problem.device == DeviceKind::kCpu && !runs_on_cpu(variant)) {
    m.status = VariantStatus::kUnsupported;
    m.reason = cpu_unsupported_reason(variant);
    return m;
  }

  const ReleaseCachedMemoryOnExit release(problem.device);
  bool variant_has_run = false;
  try {
    const SdpaBackendPin pin(variant);
    const Masks masks = make_masks(problem);
    const AttentionCall call(variant, problem, masks);

    if (is_sdpa(variant)) {
      phase("support");
      const InputSet probe = make_input_set(problem, settings.seed);
      if (auto reason = sdpa_unsupported_reason(variant, problem, probe, masks)) {
        m.status = VariantStatus::kUnsupported;
        m.reason = *reason;
        return m;
      }
      if (variant == Variant::kSdpaAuto) m.chosen_backend = sdpa_choice(problem, probe, masks);
    }

    measure_call(call, settings, phase, m, variant_has_run);
  } catch (const c10::OutOfMemoryError& e) {
    m.status = VariantStatus::kOutOfMemory;
    m.reason = error_text(e);
  } catch (const c10::Error& e) {
    // A pinned backend refusing its first call is unsupported: on CUDA the check above has
    // PyTorch's reasons already, on the CPU the refusal's own message is the only reason given.
    const bool refused = is_sdpa(variant) && variant != Variant::kSdpaAuto && !variant_has_run;
    m.status = refused ? VariantStatus::kUnsupported : VariantStatus::kError;
    m.reason = error_text(e);
  } catch (const std::exception& e) {
    m.status = VariantStatus::kError;
    m.reason = error_text(e);
  }
  return m;
}

VariantMeasurement run_custom_kernel(const CustomKernel& kernel, const Problem& problem,
                                     const RunSettings& settings, const PhaseCallback& on_phase) {
  VariantMeasurement m;
  m.variant = Variant::kCustom;
  m.custom_name = kernel.name;
  m.custom_library = kernel.path;
  const auto phase = [&](std::string_view name) {
    if (on_phase) on_phase(name);
  };
  // As run_variant: the command checks every shape first; this is for callers that build one.
  if (const std::string error = shape_error(problem); !error.empty()) {
    m.status = VariantStatus::kError;
    m.reason = error;
    return m;
  }
  if (auto reason = custom_unsupported_reason(problem)) {
    m.status = VariantStatus::kUnsupported;
    m.reason = *reason;
    return m;
  }

  const ReleaseCachedMemoryOnExit release(problem.device);
  bool has_run = false;
  try {
    const Masks masks = make_masks(problem);
    phase(kernel.aoti_package ? "loading the package" : "loading");
    const CustomKernelCall call(kernel, problem, masks);
    phase("support");
    if (auto reason = first_call_refusal(call, kernel.aoti_package, settings.seed)) {
      m.status = VariantStatus::kUnsupported;
      m.reason = *reason;
      return m;
    }
    measure_call(call, settings, phase, m, has_run);
  } catch (const CustomKernelRefusal& e) {
    m.status = VariantStatus::kError;
    m.reason = e.what();
  } catch (const c10::OutOfMemoryError& e) {
    m.status = VariantStatus::kOutOfMemory;
    m.reason = error_text(e);
  } catch (const std::exception& e) {
    m.status = VariantStatus::kError;
    m.reason = error_text(e);
  }
  return m;
}

}  // namespace attnprof::bench
