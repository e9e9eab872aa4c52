#include "gpu_peaks.h"

#include "analysis/gpu_datasheet.h"

namespace attnprof::bench {

// The core's datasheet (src/analysis/gpu_datasheet.h, docs/GPU_DATASHEET.md) is the project's
// one table of peaks; the bench reads it under its own names.
std::optional<PeakRate> dense_peak(std::string_view device_name, Dtype dtype, bool tf32_matmul) {
  const GpuDatasheet* sheet = find_gpu_datasheet(device_name);
  if (!sheet) return std::nullopt;
  switch (dtype) {
    case Dtype::kBf16:
      return PeakRate{sheet->bf16, "bf16"};
    case Dtype::kFp16:
      return PeakRate{sheet->fp16, "fp16"};
    case Dtype::kFp32:
      return tf32_matmul ? PeakRate{sheet->tf32, "tf32"} : PeakRate{sheet->fp32, "fp32"};
  }
  return std::nullopt;
}

std::optional<double> datasheet_memory_bandwidth(std::string_view device_name) {
  const GpuDatasheet* sheet = find_gpu_datasheet(device_name);
  if (!sheet) return std::nullopt;
  return sheet->memory_gb_per_s * 1e9;
}

}  // namespace attnprof::bench
