#pragma once
// What a kernel's name says about it, for the finding rules. Names are as Kineto writes them
// (demangled); the families are those of cuBLAS (nvjet, xmma, sgemm), cuDNN, FlashAttention,
// xformers' cutlass FMHA, FlexAttention's Triton templates and ATen.

#include <string_view>

#include "analysis/attention/attention_backend.h"
#include "analysis/text_match.h"

namespace attnprof::kernel_traits {

inline bool contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

// A matrix-vector product: cuBLAS runs a matrix product with a single row or column as gemv
// (gemvx, gemv2T_kernel_val, gemv2N_kernel; cublasGemvParams among the template arguments). In
// attention that row is a single query per head: a decode step under SDPA's math backend
// (examples/h200-study/decode/traces/sdpa-math.json.gz).
inline bool is_gemv(std::string_view n) {
  return contains(n, "gemv") || contains(n, "Gemv");  // ncu writes cublasGemvParamsEx only
}
// A product whose cuBLAS tile is at most 8 rows or columns wide (nvjet_sm90_tst_128x8_64x12_...):
// cuBLAS picks the thinnest tile when one side of the product is that thin, as one query per head
// against thousands of keys is (examples/h200-study/decode/traces/naive.json.gz). Square attention
// runs 64 to 512 wide tiles (nvjet_sm90_tst_256x128_...), but a tiny square one gets thin tiles
// too (S = 64: tests/data/small_launch_bound.json.gz): a guess for traces recorded without shapes,
// which the ops' recorded shapes override (analysis/attention/attention_rows.h).
inline bool has_thin_tile(std::string_view n) {
  const size_t at = n.find("nvjet_sm");
  if (at == std::string_view::npos) return false;
  // nvjet_sm90_tst_MxN_...: the tile follows the second underscore after "nvjet".
  size_t tile = n.find('_', n.find('_', at + 6) + 1);
  if (tile == std::string_view::npos) return false;
  ++tile;
  auto number = [&](size_t& i) {
    int v = 0, digits = 0;
    for (; i < n.size() && n[i] >= '0' && n[i] <= '9' && digits < 6; ++i, ++digits)
      v = v * 10 + (n[i] - '0');
    return digits > 0 ? v : -1;
  };
  const int m = number(tile);
  if (m < 0 || tile >= n.size() || n[tile] != 'x') return false;
  ++tile;
  const int cols = number(tile);
  return cols > 0 && (m <= 8 || cols <= 8);
}
inline bool is_gemm(std::string_view n) {
  return contains(n, "nvjet") || contains(n, "gemm") || contains(n, "xmma") ||
         contains(n, "cutlass::Kernel") || is_gemv(n);
}
// FP32 arithmetic on CUDA cores: cuBLAS names its FP32 kernels f32f32 (or sgemm).
inline bool is_fp32_gemm(std::string_view n) {
  return is_gemm(n) && (contains(n, "f32f32") || contains(n, "sgemm") ||
                        // cuBLAS's GEMV names its types: gemvx::kernel<int, int, float, float,
                        // float, float, ...> (SDPA's math backend in a decode step).
                        (is_gemv(n) && contains(n, "float, float, float, float")));
}
// An op (not a kernel) that changes a tensor's dtype: the casts of an upcast to FP32 and back.
inline bool is_cast_op(std::string_view op) {
  return op == "aten::to" || op == "aten::_to_copy";
}
// ATen names its softmax kernels softmax_warp_forward (rows of up to 1024) and
// cunn_SoftMaxForward, cunn_SoftMaxForwardSmem (longer rows: a decode step's 16384 keys).
inline bool is_softmax(std::string_view n) {
  return contains(n, "softmax") || contains(n, "SoftMax") || contains(n, "Softmax");
}
// Inductor's generated Triton kernels say what they are in their prefix: triton_poi_ (pointwise),
// triton_red_ and triton_per_ (a reduction, looped or persistent), triton_tem_ (a template: a
// matmul, or FlexAttention's attention).
inline bool is_inductor_pointwise(std::string_view n) {
  return contains(n, "triton_poi_");
}
inline bool is_inductor_reduction(std::string_view n) {
  return contains(n, "triton_red_") || contains(n, "triton_per_");
}
// FlexAttention's attention kernel: Inductor's template triton_tem_fused_flex_attention_0 (the
// backward's is ..._flex_attention_backward_1). For a short query block (decoding) the template
// splits the keys, and reductions named after it (triton_red_fused_flex_attention_1, _2) combine
// the splits: those are reductions beside the attention, not attention.
inline bool is_flex_attention(std::string_view n) {
  return (contains(n, "flex_attention") || contains(n, "flex_decoding")) &&
         !is_inductor_pointwise(n) && !is_inductor_reduction(n);
}
inline bool is_fused_attention(std::string_view n) {
  return contains(n, "flash_fwd") || contains(n, "flash_bwd") || contains(n, "fmha") ||
         contains(n, "_sdpa_") || contains(n, "efficient_attention") || contains(n, "flash_attn") ||
         is_flex_attention(n);
}
inline bool is_mask_builder(std::string_view n) {
  return contains(n, "triu_tril") || contains(n, "tril") || contains(n, "triu");
}
inline bool is_copy_kernel(std::string_view n) {
  return contains(n, "copy_kernel") || contains(n, "CopyKernel");
}
// A kernel of split-KV attention (FlashAttention's flash_fwd_splitkv_kernel and its combine
// kernel), which splits the keys of each query block across blocks of work.
inline bool is_split_kv(std::string_view n) {
  return contains_ignoring_case(n, "splitkv") || contains_ignoring_case(n, "split_kv");
}

// All of the above for one kernel name at once. The rules ask of every activity and a trace
// repeats each name thousands of times, so FindingContext works this out once per name: asking
// each question of each activity's 100-character name was half of the findings' time.
struct KernelNameTraits {
  bool gemm = false, fp32_gemm = false, softmax = false, fused_attention = false,
       mask_builder = false, copy_kernel = false, split_kv = false;
  bool gemv = false;          // a matrix-vector product: no tiles to reuse on chip
  bool thin_product = false;  // a GEMV or a thin-tiled GEMM: one side of the product is thin
  // A kernel that computes attention or is named after it (analysis/attention/attention_backend.h's
  // is_attention_kernel), asked of every kernel no attention op launched.
  bool attention = false;
};
inline KernelNameTraits traits_of(std::string_view n) {
  KernelNameTraits t;
  t.gemm = is_gemm(n);
  t.fp32_gemm = is_fp32_gemm(n);
  t.softmax = is_softmax(n);
  t.fused_attention = is_fused_attention(n);
  t.mask_builder = is_mask_builder(n);
  t.copy_kernel = is_copy_kernel(n);
  t.split_kv = is_split_kv(n);
  t.gemv = is_gemv(n);
  t.thin_product = t.gemv || has_thin_tile(n);
  t.attention = is_attention_kernel(n);
  return t;
}

}  // namespace attnprof::kernel_traits
