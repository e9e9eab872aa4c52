#include "gpu_peaks.h"

#include <array>

namespace attnprof::bench {
namespace {

struct DatasheetPeaks {
  std::string_view device_name;
  double bf16, fp16, tf32, fp32;  // TFLOP/s, dense
  double memory_tb_per_s;         // HBM bandwidth, TB/s
};

// H200 SXM and H100 SXM5 share the Hopper SXM rates; A100 (SXM4, the study's GPU) for reference.
constexpr std::array<DatasheetPeaks, 4> kPeaks{{
    {"NVIDIA H200", 989.4, 989.4, 494.7, 66.9, 4.8},
    {"NVIDIA H100 80GB HBM3", 989.4, 989.4, 494.7, 66.9, 3.35},
    {"NVIDIA A100-SXM4-80GB", 312.0, 312.0, 156.0, 19.5, 2.039},
    {"NVIDIA A100-SXM4-40GB", 312.0, 312.0, 156.0, 19.5, 1.555},
}};

}  // namespace

std::optional<PeakRate> dense_peak(std::string_view device_name, Dtype dtype, bool tf32_matmul) {
  for (const DatasheetPeaks& peaks : kPeaks) {
    if (peaks.device_name != device_name) continue;
    switch (dtype) {
      case Dtype::kBf16:
        return PeakRate{peaks.bf16, "bf16"};
      case Dtype::kFp16:
        return PeakRate{peaks.fp16, "fp16"};
      case Dtype::kFp32:
        return tf32_matmul ? PeakRate{peaks.tf32, "tf32"} : PeakRate{peaks.fp32, "fp32"};
    }
  }
  return std::nullopt;
}

std::optional<double> datasheet_memory_bandwidth(std::string_view device_name) {
  for (const DatasheetPeaks& peaks : kPeaks)
    if (peaks.device_name == device_name) return peaks.memory_tb_per_s * 1e12;
  return std::nullopt;
}

}  // namespace attnprof::bench
