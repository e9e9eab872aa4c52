#pragma once
// The attention problem the bench runs and the study's variants, as plain data.
// Both halves of the bench share this header, so it includes neither LibTorch nor fmt
// (bench/README.md: LibTorch ships its own fmt, which must never meet the core's).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace attnprof::bench {

enum class Dtype : uint8_t { kBf16, kFp16, kFp32 };
enum class MaskKind : uint8_t {
  kCausal,    // is_causal=true for SDPA; an explicit boolean mask for naive and inplace
  kNone,      // no mask at all
  kExplicit,  // the causal pattern as a boolean tensor, passed to SDPA as attn_mask
};
enum class DeviceKind : uint8_t { kCuda, kCpu };

// The study's implementations (docs/STUDY.md), plus SDPA left to choose its backend itself.
enum class Variant : uint8_t {
  kNaive,     // matmul -> * scale -> masked_fill (out of place) -> softmax -> matmul
  kInplace,   // the same with the scale and the mask applied in place
  kSdpaMath,  // scaled_dot_product_attention with only one backend enabled
  kSdpaEfficient,
  kSdpaFlash,
  kSdpaCudnn,
  kSdpaAuto,  // scaled_dot_product_attention with the backends as PyTorch enables them
  // A kernel of the user's, `--custom [NAME=]PATH` (docs/CUSTOM_KERNELS.md): the row carries its
  // own name. Not in kAllVariants, and no --variants name reaches it.
  kCustom,
};
inline constexpr std::array<Variant, 7> kAllVariants{
    Variant::kNaive,     Variant::kInplace,   Variant::kSdpaMath, Variant::kSdpaEfficient,
    Variant::kSdpaFlash, Variant::kSdpaCudnn, Variant::kSdpaAuto};

std::string_view name(Dtype dtype);
std::string_view name(MaskKind mask);
std::string_view name(DeviceKind device);
std::string_view name(Variant variant);
std::optional<Dtype> parse_dtype(std::string_view text);
std::optional<MaskKind> parse_mask(std::string_view text);
std::optional<DeviceKind> parse_device(std::string_view text);
std::optional<Variant> parse_variant(std::string_view text);

int64_t element_bytes(Dtype dtype);
bool is_sdpa(Variant variant);
// PyTorch has CPU kernels for the unfused variants, SDPA's math and flash backends, and SDPA's
// own choice among those; the efficient (CUTLASS) and cuDNN backends are CUDA only, and so is a
// --custom kernel (its ABI hands it device pointers and a CUDA stream).
bool runs_on_cpu(Variant variant);

struct Problem {
  int64_t batch = 4;
  int64_t heads = 16;
  int64_t seq = 2048;
  int64_t head_dim = 64;
  Dtype dtype = Dtype::kBf16;
  MaskKind mask = MaskKind::kCausal;
  bool backward = false;  // time and trace the forward and the backward
  DeviceKind device = DeviceKind::kCuda;
};

// "bf16, batch 4, 16 heads, seq 2048, head dim 64, causal, forward"
std::string describe(const Problem& problem);
// A folder name for one point of a sweep: "b4_h16_s2048_d64".
std::string point_label(const Problem& problem);

// The useful floating-point work of one call: 4·B·H·S²·D for the forward (q·kᵀ and p·v, 2·S²·D
// each per head), half of it when the mask is causal (given as is_causal or as the explicit causal
// tensor), and with the backward 2.5 times the forward more (five matmuls of the same size
// against the forward's two), 3.5 times in all. Softmax and masking are not counted, as in the
// FlashAttention papers' convention.
double attention_flops(const Problem& problem);
// Bytes of one input set: q, k, v, and the output gradient when the backward runs.
int64_t input_set_bytes(const Problem& problem);

// Relative Frobenius error against the float64 reference below which a variant passes:
// bf16 2e-2, fp16 5e-3, fp32 1e-4.
double error_threshold(Dtype dtype);

}  // namespace attnprof::bench
