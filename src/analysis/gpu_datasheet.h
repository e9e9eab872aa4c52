#pragma once
// The datasheet peaks of the GPUs people profile on: dense (never the "with sparsity" figures)
// TFLOP/s per precision and the memory bandwidth, matched from the name deviceProperties gives
// ("NVIDIA H200", "NVIDIA H100 80GB HBM3", "AMD Instinct MI300X"). The one table of the project:
// the ops' % of roof (top_tables.h), the bench (bench/src/gpu_peaks.cpp) and scripts/gpu/
// record_flex.py (through `attnprof datasheet`) all read it. Sources: docs/GPU_DATASHEET.md.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace attnprof {

enum class PeakPrecision : uint8_t { kFp32, kTf32, kBf16, kFp16, kFp8 };

struct GpuDatasheet {
  std::string_view name;  // as the vendor names the part: "H100 SXM", "A100 PCIe 80GB"
  // Dense TFLOP/s: fp32 on the CUDA cores (AMD: the matrix cores' fp32 rate), the others on the
  // Tensor (matrix) cores; 0 where the GPU has no such rate (no fp8 before Hopper and CDNA 3).
  double fp32 = 0, tf32 = 0, bf16 = 0, fp16 = 0, fp8 = 0;
  double memory_gb_per_s = 0;  // HBM (GDDR on L4 and L40S), GB/s of 1e9 bytes
  std::string_view source;     // the datasheet the numbers come from
  // The GPU-to-GPU link within a host and its total bandwidth, both directions, GB/s; "" and 0
  // where the part has none of its own or it depends on the board (PCIe parts, their bridges).
  std::string_view link;
  double link_gb_per_s = 0;
  double tflops(PeakPrecision p) const;
};

// Every row, in the order docs/GPU_DATASHEET.md lists them.
std::span<const GpuDatasheet> gpu_datasheets();

// The row for a device name as Kineto writes it; none for a GPU the table does not hold (then no
// percentage is given: a guess from a neighbouring part would mislead, the PCIe and SXM parts of
// one chip differ by a third).
const GpuDatasheet* find_gpu_datasheet(std::string_view device_name);

// The precision whose peak bounds an op on operands of `type` (as the trace spells it:
// "c10::BFloat16", "c10::Half", "float", "c10::Float8_e4m3fn"); fp32 counts the CUDA-core rate,
// PyTorch's default for fp32 matmuls (TF32 off). None for other types (double, integers).
std::optional<PeakPrecision> peak_precision(std::string_view type);

std::string_view precision_name(PeakPrecision p);  // "bf16"

}  // namespace attnprof
