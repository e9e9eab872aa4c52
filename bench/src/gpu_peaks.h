#pragma once
// Datasheet peak rates, for the table's "% of peak" column and the roofline's roofs: the core's
// table (src/analysis/gpu_datasheet.h), the project's only one.

#include <optional>
#include <string>
#include <string_view>

#include "problem.h"

namespace attnprof::bench {

struct PeakRate {
  double tflops = 0;
  std::string precision;  // the rate's precision: "bf16", "fp16", "tf32" or "fp32"
};

inline constexpr std::string_view kPeakSource = "NVIDIA datasheet, dense, without sparsity";

// The dense peak of `device_name` (as CUDA reports it) for `dtype`: the Tensor Core rate for bf16
// and fp16; for fp32 the TF32 Tensor Core rate when LibTorch lets fp32 matmuls use TF32,
// otherwise the CUDA-core fp32 rate. nullopt for a GPU not in the table: the column then says
// "n/a" rather than guess. Names are matched as the core matches them: the PCIe and NVL parts of
// one chip are told apart, as their peaks are lower.
std::optional<PeakRate> dense_peak(std::string_view device_name, Dtype dtype, bool tf32_matmul);

// The datasheet's memory (HBM) bandwidth of `device_name`, bytes/s; nullopt for a GPU not in the
// table. Only a reference: the roofline uses the bandwidth a copy kernel reaches (counted_call.h).
std::optional<double> datasheet_memory_bandwidth(std::string_view device_name);

}  // namespace attnprof::bench
