#include "problem.h"

#include <algorithm>
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

// The keys seen by the queries at absolute positions first..last (inclusive), summed in closed
// form: position t sees t + 1 keys under the causal pattern, min(t + 1, window) with a window,
// all seq keys without a mask.
double keys_seen_sum(const Problem& p, int64_t first, int64_t last) {
  if (first > last) return 0.0;
  const auto n = static_cast<double>(last - first + 1);
  if (!causal_pattern(p.mask)) return n * static_cast<double>(p.seq);
  auto ramp = [](int64_t a, int64_t b) {  // (a+1) + ... + (b+1)
    return (static_cast<double>(a + 1) + static_cast<double>(b + 1)) *
           static_cast<double>(b - a + 1) / 2.0;
  };
  if (p.window <= 0 || last + 1 <= p.window) return ramp(first, last);
  const int64_t full_from = std::max(first, p.window - 1);  // the first position that sees W keys
  const double flat = static_cast<double>(last - full_from + 1) * static_cast<double>(p.window);
  return (full_from > first ? ramp(first, full_from - 1) : 0.0) + flat;
}

}  // namespace

bool causal_pattern(MaskKind mask) {
  return mask != MaskKind::kNone;
}

void fill_defaults(Problem& p, int64_t kv_heads_given, int64_t q_seq_given) {
  p.kv_heads = kv_heads_given > 0 ? kv_heads_given : p.heads;
  p.q_seq = q_seq_given > 0 ? q_seq_given : p.seq;
}

std::string shape_error(const Problem& p) {
  if (p.batch <= 0 || p.heads <= 0 || p.seq <= 0 || p.head_dim <= 0 || p.kv_heads <= 0 ||
      p.q_seq <= 0)
    return "--batch, --heads, --kv-heads, --seq, --q-seq and --head-dim must be positive";
  if (p.heads % p.kv_heads != 0) {
    return "--kv-heads " + std::to_string(p.kv_heads) + " does not divide --heads " +
           std::to_string(p.heads) + ": each KV head serves the same number of query heads";
  }
  if (p.q_seq > p.seq) {
    return "--q-seq " + std::to_string(p.q_seq) + " is longer than --seq " + std::to_string(p.seq) +
           " (the keys, which include the queries' own positions)";
  }
  if (p.window < 0) return "--window must be 0 (none) or positive";
  if (p.window > 0 && !causal_pattern(p.mask))
    return "--window needs the causal pattern (--mask causal or explicit), not --mask none";
  return {};
}

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

SdpaMaskForm sdpa_mask_form(const Problem& p) {
  switch (p.mask) {
    case MaskKind::kNone:
      return SdpaMaskForm::kNone;
    case MaskKind::kExplicit:
      return SdpaMaskForm::kTensor;
    case MaskKind::kCausal:
      if (p.window > 0) return SdpaMaskForm::kTensor;
      if (p.q_seq == p.seq) return SdpaMaskForm::kIsCausal;
      if (p.q_seq == 1) return SdpaMaskForm::kNone;
      // PyTorch's bottom-right causal kernels are CUDA's; on the CPU the chunk is a tensor.
      return p.device == DeviceKind::kCuda ? SdpaMaskForm::kLowerRight : SdpaMaskForm::kTensor;
  }
  return SdpaMaskForm::kNone;
}

bool masks_any_pair(const Problem& p) {
  return visible_pairs(p) < static_cast<double>(p.q_seq) * static_cast<double>(p.seq);
}

int64_t gqa_group(const Problem& p) {
  return p.kv_heads > 0 ? p.heads / p.kv_heads : 1;
}

std::string describe(const Problem& p) {
  std::string mask = p.mask == MaskKind::kCausal ? "causal"
                     : p.mask == MaskKind::kNone ? "no mask"
                                                 : "explicit causal mask";
  if (p.window > 0) mask += ", window " + std::to_string(p.window);
  std::string heads = std::to_string(p.heads) + " heads";
  if (p.kv_heads != p.heads) heads += " (" + std::to_string(p.kv_heads) + " KV)";
  std::string seq = "seq " + std::to_string(p.seq);
  if (p.q_seq != p.seq)
    seq = std::to_string(p.q_seq) + (p.q_seq == 1 ? " query" : " queries") + " against " +
          std::to_string(p.seq) + " keys";
  return std::string(name(p.dtype)) + ", batch " + std::to_string(p.batch) + ", " + heads + ", " +
         seq + ", head dim " + std::to_string(p.head_dim) + ", " + mask + ", " +
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
  if (p.kv_heads != p.heads) {
    label += "_kv";
    label += std::to_string(p.kv_heads);
  }
  if (p.q_seq != p.seq) {
    label += "_q";
    label += std::to_string(p.q_seq);
  }
  if (p.window > 0) {
    label += "_w";
    label += std::to_string(p.window);
  }
  return label;
}

double visible_pairs(const Problem& p) {
  // Query i sits at absolute position i + seq - q_seq (the queries are the sequence's last ones).
  return keys_seen_sum(p, p.seq - p.q_seq, p.seq - 1);
}

double attention_flops(const Problem& p) {
  const double forward = 4.0 * static_cast<double>(p.batch) * static_cast<double>(p.heads) *
                         visible_pairs(p) * static_cast<double>(p.head_dim);
  return p.backward ? 3.5 * forward : forward;
}

double kv_bytes(const Problem& p) {
  return 2.0 * static_cast<double>(p.batch) * static_cast<double>(p.kv_heads) *
         static_cast<double>(p.seq) * static_cast<double>(p.head_dim) *
         static_cast<double>(element_bytes(p.dtype));
}

double minimal_bytes(const Problem& p) {
  const double q = static_cast<double>(p.batch) * static_cast<double>(p.heads) *
                   static_cast<double>(p.q_seq) * static_cast<double>(p.head_dim) *
                   static_cast<double>(element_bytes(p.dtype));
  const double forward = 2.0 * q + kv_bytes(p);  // q in, out out, k and v in
  // The backward reads q, k, v, out and d_out and writes dq, dk and dv.
  return p.backward ? forward + 4.0 * q + 2.0 * kv_bytes(p) : forward;
}

int64_t input_set_bytes(const Problem& p) {
  const int64_t q = p.batch * p.heads * p.q_seq * p.head_dim * element_bytes(p.dtype);
  const int64_t kv = p.batch * p.kv_heads * p.seq * p.head_dim * element_bytes(p.dtype);
  return q + 2 * kv + (p.backward ? q : 0);
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
