#pragma once
// What the LibTorch half of the bench measures for one variant, as plain data, and the one call
// that measures it. Implemented in libtorch/variant_runner.cpp; this header includes no LibTorch,
// so the study (tables, JSON, traces) compiles against the core's fmt only (bench/README.md).

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "custom_kernel.h"
#include "problem.h"

namespace attnprof::bench {

enum class VariantStatus : uint8_t {
  kOk,
  kFailed,       // ran, but its error against the float64 reference is above the threshold
  kUnsupported,  // the pinned backend cannot run this case; `reason` holds PyTorch's words
  kOutOfMemory,
  kError,  // anything else LibTorch threw; `reason` holds its message
};
inline std::string_view name(VariantStatus status) {
  switch (status) {
    case VariantStatus::kOk:
      return "ok";
    case VariantStatus::kFailed:
      return "failed";
    case VariantStatus::kUnsupported:
      return "unsupported";
    case VariantStatus::kOutOfMemory:
      return "oom";
    case VariantStatus::kError:
      return "error";
  }
  return "?";
}

// CUDA-event (or, on CPU, steady-clock) times of single calls after warm-up, in milliseconds.
struct TimingStats {
  double median_ms = 0, min_ms = 0, max_ms = 0, mean_ms = 0;
  int reps = 0;
  int input_sets = 0;           // sets of q, k, v rotated through so L2 cannot hold them all
  int64_t input_set_bytes = 0;  // bytes of one set
};

struct Correctness {
  double threshold = 0;
  double output_error = 0;  // relative Frobenius error of the output (NaN when it has NaNs)
  // With the backward: the largest relative error among dq, dk, dv.
  std::optional<double> grad_error;
  bool passed = false;
};

struct VariantMeasurement {
  Variant variant = Variant::kNaive;
  std::string custom_name;     // a --custom kernel's row (variant kCustom): its name
  std::string custom_library;  // and the shared library it came from, as given
  VariantStatus status = VariantStatus::kOk;
  std::string reason;          // for kUnsupported, kOutOfMemory, kError and kFailed
  std::string chosen_backend;  // sdpa-auto: the backend SDPA picked ("flash_attention", ...)
  std::optional<Correctness> correctness;
  std::optional<TimingStats> timing;
  std::optional<int64_t> peak_allocated_bytes;  // above what was allocated before the call
  std::string trace_json_path;  // Kineto's plain JSON as LibTorch saved it; empty when none
};

// The row's name: the variant's, or a --custom kernel's own.
inline std::string_view row_name(const VariantMeasurement& m) {
  return m.variant == Variant::kCustom ? std::string_view(m.custom_name) : name(m.variant);
}

struct RunSettings {
  double time_budget_s = 1.0;  // timing repetitions are chosen to fill about this much GPU time
  int min_reps = 30;
  int max_reps = 5000;
  int trace_iterations = 5;     // `forward` regions recorded in the trace
  uint64_t seed = 0;            // random inputs of each check and input set derive from it
  std::string trace_json_path;  // where to save the trace; empty: record none
};

// Called at the start of each phase ("correctness", "timing", ...) for progress display.
using PhaseCallback = std::function<void(std::string_view phase)>;

// Runs one variant end to end: support check, correctness against float64 on fresh random inputs,
// peak memory, timing, trace. SDPA backends are pinned for the duration and restored afterwards.
// Never throws: whatever LibTorch throws becomes the status (per-variant boundary, so the other
// variants go on).
VariantMeasurement run_variant(Variant variant, const Problem& problem, const RunSettings& settings,
                               const PhaseCallback& on_phase);

// The same for a --custom kernel (attnprof_bench/custom_attention.h): the library's own verdict
// on the problem first (its reason, when it cannot run it, makes the row unsupported), then the
// same correctness check, memory, timing and trace as run_variant. Forward only, CUDA only: the
// row is unsupported, with the reason, for --backward and --device cpu. Never throws.
VariantMeasurement run_custom_kernel(const CustomKernel& kernel, const Problem& problem,
                                     const RunSettings& settings, const PhaseCallback& on_phase);

}  // namespace attnprof::bench
