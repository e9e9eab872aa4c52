#include "problem.h"

#include <utility>

namespace attnprof::bench {
namespace {

// One table per enum: the names the flags accept and the output shows.
constexpr std::array<std::pair<Dtype, std::string_view>, 3> kDtypeNames{
    {{Dtype::kBf16, "bf16"}, {Dtype::kFp16, "fp16"}, {Dtype::kFp32, "fp32"}}};
constexpr std::array<std::pair<MaskKind, std::string_view>, 3> kMaskNames{
    {{MaskKind::kCausal, "causal"}, {MaskKind::kNone, "none"}, {MaskKind::kExplicit, "explicit"}}};
constexpr std::array<std::pair<DeviceKind, std::string_view>, 2> kDeviceNames{
    {{DeviceKind::kCuda, "cuda"}, {DeviceKind::kCpu, "cpu"}}};
constexpr std::array<std::pair<Variant, std::string_view>, 8> kVariantNames{
    {{Variant::kNaive, "naive"},
     {Variant::kInplace, "inplace"},
     {Variant::kSdpaMath, "sdpa-math"},
     {Variant::kSdpaEfficient, "sdpa-efficient"},
     {Variant::kSdpaFlash, "sdpa-flash"},
     {Variant::kSdpaCudnn, "sdpa-cudnn"},
     {Variant::kSdpaAuto, "sdpa-auto"},
     {Variant::kCustom, "custom"}}};

template <typename Enum, size_t N>
std::string_view lookup_name(const std::array<std::pair<Enum, std::string_view>, N>& table,
                             Enum value) {
  for (const auto& [e, text] : table) {
    if (e == value) return text;
  }
  return "?";
}

template <typename Enum, size_t N>
std::optional<Enum> lookup_value(const std::array<std::pair<Enum, std::string_view>, N>& table,
                                 std::string_view text) {
  for (const auto& [e, name] : table) {
    if (name == text) return e;
  }
  return std::nullopt;
}

bool causal_pattern(MaskKind mask) {
  return mask != MaskKind::kNone;
}

}  // namespace

std::string_view name(Dtype dtype) {
  return lookup_name(kDtypeNames, dtype);
}
std::string_view name(MaskKind mask) {
  return lookup_name(kMaskNames, mask);
}
std::string_view name(DeviceKind device) {
  return lookup_name(kDeviceNames, device);
}
std::string_view name(Variant variant) {
  return lookup_name(kVariantNames, variant);
}
std::optional<Dtype> parse_dtype(std::string_view text) {
  return lookup_value(kDtypeNames, text);
}
std::optional<MaskKind> parse_mask(std::string_view text) {
  return lookup_value(kMaskNames, text);
}
std::optional<DeviceKind> parse_device(std::string_view text) {
  return lookup_value(kDeviceNames, text);
}
std::optional<Variant> parse_variant(std::string_view text) {
  const auto variant = lookup_value(kVariantNames, text);
  if (variant == Variant::kCustom) return std::nullopt;  // --custom names its kernels' rows
  return variant;
}

int64_t element_bytes(Dtype dtype) {
  return dtype == Dtype::kFp32 ? 4 : 2;
}

bool is_sdpa(Variant variant) {
  return variant != Variant::kNaive && variant != Variant::kInplace && variant != Variant::kCustom;
}

bool runs_on_cpu(Variant variant) {
  return variant != Variant::kSdpaEfficient && variant != Variant::kSdpaCudnn &&
         variant != Variant::kCustom;
}

std::string describe(const Problem& p) {
  std::string mask = p.mask == MaskKind::kCausal ? "causal"
                     : p.mask == MaskKind::kNone ? "no mask"
                                                 : "explicit causal mask";
  return std::string(name(p.dtype)) + ", batch " + std::to_string(p.batch) + ", " +
         std::to_string(p.heads) + " heads, seq " + std::to_string(p.seq) + ", head dim " +
         std::to_string(p.head_dim) + ", " + mask + ", " +
         (p.backward ? "forward+backward" : "forward") + " on " + std::string(name(p.device));
}

std::string point_label(const Problem& p) {
  // Appended piece by piece: `"b" + std::to_string(...)` trips g++ 12's false -Wrestrict at -O3.
  std::string label = "b";
  label += std::to_string(p.batch);
  label += "_h";
  label += std::to_string(p.heads);
  label += "_s";
  label += std::to_string(p.seq);
  label += "_d";
  label += std::to_string(p.head_dim);
  return label;
}

double attention_flops(const Problem& p) {
  const double s = static_cast<double>(p.seq);
  double forward = 4.0 * static_cast<double>(p.batch) * static_cast<double>(p.heads) * s * s *
                   static_cast<double>(p.head_dim);
  if (causal_pattern(p.mask)) forward *= 0.5;
  return p.backward ? 3.5 * forward : forward;
}

int64_t input_set_bytes(const Problem& p) {
  const int64_t one = p.batch * p.heads * p.seq * p.head_dim * element_bytes(p.dtype);
  return (p.backward ? 4 : 3) * one;
}

double error_threshold(Dtype dtype) {
  switch (dtype) {
    case Dtype::kBf16:
      return 2e-2;
    case Dtype::kFp16:
      return 5e-3;
    case Dtype::kFp32:
      return 1e-4;
  }
  return 0.0;
}

}  // namespace attnprof::bench
