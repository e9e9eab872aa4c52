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
  int64_t heads = 16;  // query heads
  int64_t seq = 2048;  // keys and values (the KV length)
  int64_t head_dim = 64;
  // Key and value heads: fewer than `heads` is grouped-query attention (one is multi-query); each
  // K/V head serves heads / kv_heads consecutive query heads. Defaults to `heads`.
  int64_t kv_heads = 16;
  // Queries: fewer than `seq` is a decode step (1) or a chunk of a prefill. The queries are the
  // LAST q_seq positions of the sequence: query i sits at absolute position i + seq - q_seq, and
  // the causal mask is aligned to the end. Defaults to `seq`.
  int64_t q_seq = 2048;
  // Sliding window (0: none): with the causal pattern, query at position t sees the keys
  // t - window + 1 .. t, the `window` keys ending at its own position.
  int64_t window = 0;
  Dtype dtype = Dtype::kBf16;
  MaskKind mask = MaskKind::kCausal;
  bool backward = false;  // time and trace the forward and the backward
  DeviceKind device = DeviceKind::kCuda;
};

// Sets kv_heads and q_seq to heads and seq where a flag did not give them (0 = not given).
void fill_defaults(Problem& problem, int64_t kv_heads_given, int64_t q_seq_given);
// Empty when the shape can run; else one line saying which option is wrong and why.
std::string shape_error(const Problem& problem);
// Whether the mask is the causal pattern (is_causal or the explicit tensor), which a window
// narrows further.
bool causal_pattern(MaskKind mask);

// How SDPA gets the problem's mask. PyTorch's is_causal aligns the diagonal to the top left,
// right only for the square (q_seq == seq). The end-aligned pattern of fewer queries (a chunk of a
// prefill) goes the way torch.nn.attention.bias.causal_lower_right sends it on CUDA: flash and
// the memory-efficient kernel run their own bottom-right causal form and skip the hidden pairs;
// math and cuDNN, which have none, get it as a boolean attn_mask tensor (kLowerRight). The window
// goes in as a tensor. One query with the causal pattern and no window sees every key: no mask.
enum class SdpaMaskForm : uint8_t { kNone, kIsCausal, kLowerRight, kTensor };
SdpaMaskForm sdpa_mask_form(const Problem& problem);
// Whether the pattern hides any query-key pair (naive and inplace fill those with -inf).
bool masks_any_pair(const Problem& problem);
// Query heads per K/V head (heads / kv_heads): what naive and inplace repeat K and V by.
int64_t gqa_group(const Problem& problem);

// "bf16, batch 4, 16 heads, seq 2048, head dim 64, causal, forward"; the KV heads, the queries
// and the window only where they differ from the defaults ("16 heads (4 KV)", "1 query",
// "window 1024").
std::string describe(const Problem& problem);
// A folder name for one point of a sweep: "b4_h16_s2048_d64", with "_kv4", "_q1", "_w1024"
// appended only where those differ from the defaults.
std::string point_label(const Problem& problem);

// The query-key pairs one head computes that the mask keeps: q_seq·seq without a mask; with the
// causal pattern the query at absolute position t (t = i + seq - q_seq) sees keys 0..t, and with
// a window W only the min(W, t + 1) keys ending at t. Summed exactly, not approximated: the plain
// causal square gives S·(S+1)/2.
double visible_pairs(const Problem& problem);
// The useful floating-point work of one call: 4·B·H·P·D for the forward (q·kᵀ and p·v, 2·D per
// visible pair P each), and with the backward 2.5 times the forward more (five matmuls of the
// same size against the forward's two), 3.5 times in all. Softmax and masking are not counted, as
// in the FlashAttention papers' convention. GQA does not change it: every query head still does
// its own products.
double attention_flops(const Problem& problem);
// The least one forward must move from and to memory: q and out (B·H·Q·D elements each), k and v
// (B·KVH·S·D each), each read or written once. The backward adds the reads of q, k, v, out and
// d_out and the writes of dq, dk and dv: 4·(B·H·Q·D) + 2·(B·KVH·S·D) more.
double minimal_bytes(const Problem& problem);
// The bytes of K and V alone (2·B·KVH·S·D elements): what a decode step streams.
double kv_bytes(const Problem& problem);
// Bytes of one input set: q, k, v, and the output gradient when the backward runs.
int64_t input_set_bytes(const Problem& problem);

// Relative Frobenius error against the float64 reference below which a variant passes:
// bf16 2e-2, fp16 5e-3, fp32 1e-4.
double error_threshold(Dtype dtype);

}  // namespace attnprof::bench
