#include "analysis/gpu_datasheet.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace attnprof {

namespace {

constexpr std::string_view kA100 = "NVIDIA A100 Tensor Core GPU datasheet (2021)";
constexpr std::string_view kH100 = "NVIDIA H100 Tensor Core GPU datasheet (2023)";
constexpr std::string_view kH200 = "NVIDIA H200 Tensor Core GPU datasheet (2024)";
constexpr std::string_view kB200 = "NVIDIA HGX B200 datasheet (2024), per GPU";
constexpr std::string_view kL4 = "NVIDIA L4 Tensor Core GPU datasheet (2023)";
constexpr std::string_view kL40S = "NVIDIA L40S GPU datasheet (2023)";
constexpr std::string_view kMi250x = "AMD Instinct MI250X accelerator data sheet (2021)";
constexpr std::string_view kMi300x = "AMD Instinct MI300X accelerator data sheet (2023)";

// name, fp32, tf32, bf16, fp16, fp8, GB/s, source, link, link GB/s (both directions). Dense
// figures: where a datasheet gives only the rate with sparsity (L4, L40S, B200 and the Tensor Core
// rates of A100/H100/H200 beside it), the dense rate is half of it.
constexpr std::array<GpuDatasheet, 12> kRows{{
    {"A100 SXM 40GB", 19.5, 156, 312, 312, 0, 1555, kA100, "NVLink 3", 600},
    {"A100 SXM 80GB", 19.5, 156, 312, 312, 0, 2039, kA100, "NVLink 3", 600},
    {"A100 PCIe 40GB", 19.5, 156, 312, 312, 0, 1555, kA100, "", 0},
    {"A100 PCIe 80GB", 19.5, 156, 312, 312, 0, 1935, kA100, "", 0},
    {"H100 SXM", 66.9, 494.7, 989.4, 989.4, 1978.9, 3350, kH100, "NVLink 4", 900},
    {"H100 PCIe", 51.2, 378, 756, 756, 1513, 2000, kH100, "", 0},
    {"H200", 66.9, 494.7, 989.4, 989.4, 1978.9, 4800, kH200, "NVLink 4", 900},
    {"B200", 75, 1125, 2250, 2250, 4500, 8000, kB200, "NVLink 5", 1800},
    {"L4", 30.3, 60, 121, 121, 242.5, 300, kL4, "", 0},
    {"L40S", 91.6, 183, 362.05, 362.05, 733, 864, kL40S, "", 0},
    {"MI250X", 95.7, 0, 383, 383, 0, 3276.8, kMi250x, "Infinity Fabric", 800},
    {"MI300X", 163.4, 653.7, 1307.4, 1307.4, 2614.9, 5300, kMi300x, "Infinity Fabric", 896},
}};

const GpuDatasheet* row(std::string_view name) {
  for (const GpuDatasheet& r : kRows)
    if (r.name == name) return &r;
  return nullptr;
}

bool has(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

double GpuDatasheet::tflops(PeakPrecision p) const {
  switch (p) {
    case PeakPrecision::kFp32:
      return fp32;
    case PeakPrecision::kTf32:
      return tf32;
    case PeakPrecision::kBf16:
      return bf16;
    case PeakPrecision::kFp16:
      return fp16;
    case PeakPrecision::kFp8:
      return fp8;
  }
  return 0;
}

std::span<const GpuDatasheet> gpu_datasheets() {
  return kRows;
}

// Kineto writes the CUDA or HIP device name: "NVIDIA A100-SXM4-80GB", "NVIDIA A100-PCIE-40GB",
// "NVIDIA A100 80GB PCIe", "NVIDIA H100 80GB HBM3", "NVIDIA H100 PCIe", "NVIDIA H200",
// "NVIDIA B200", "NVIDIA L4", "NVIDIA L40S", "AMD Instinct MI250X / MI250", "AMD Instinct
// MI300X". Parts the table does not hold (H100 NVL, H200 NVL, GH200, MI250) get none.
const GpuDatasheet* find_gpu_datasheet(std::string_view device_name) {
  std::string n(device_name);
  std::transform(n.begin(), n.end(), n.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (has(n, "nvl") || has(n, "gh200")) return nullptr;
  if (has(n, "a100")) {
    const bool pcie = has(n, "pcie");
    const bool big = has(n, "80gb");
    return row(pcie ? (big ? "A100 PCIe 80GB" : "A100 PCIe 40GB")
                    : (big ? "A100 SXM 80GB" : "A100 SXM 40GB"));
  }
  if (has(n, "h100")) {
    if (has(n, "pcie")) return row("H100 PCIe");
    if (has(n, "hbm3") || has(n, "sxm")) return row("H100 SXM");
    return nullptr;
  }
  if (has(n, "h200")) return row("H200");
  if (has(n, "b200")) return row("B200");
  if (has(n, "l40s")) return row("L40S");
  if (n == "nvidia l4") return row("L4");
  if (has(n, "mi250x")) return row("MI250X");
  if (has(n, "mi300x")) return row("MI300X");
  return nullptr;
}

std::optional<PeakPrecision> peak_precision(std::string_view type) {
  if (type == "c10::BFloat16") return PeakPrecision::kBf16;
  if (type == "c10::Half") return PeakPrecision::kFp16;
  if (type == "float") return PeakPrecision::kFp32;
  if (type.starts_with("c10::Float8")) return PeakPrecision::kFp8;
  return std::nullopt;
}

std::string_view precision_name(PeakPrecision p) {
  switch (p) {
    case PeakPrecision::kFp32:
      return "fp32";
    case PeakPrecision::kTf32:
      return "tf32";
    case PeakPrecision::kBf16:
      return "bf16";
    case PeakPrecision::kFp16:
      return "fp16";
    case PeakPrecision::kFp8:
      return "fp8";
  }
  return "";
}

}  // namespace attnprof
