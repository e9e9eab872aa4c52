#pragma once
// What a kernel's name says about it, for the finding rules. Names are as Kineto writes them
// (demangled); the families are those of cuBLAS (nvjet, xmma, sgemm), cuDNN, FlashAttention,
// xformers' cutlass FMHA, FlexAttention's Triton templates and ATen.

#include <string_view>

#include "analysis/text_match.h"

namespace attnprof::kernel_traits {

inline bool contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

inline bool is_gemm(std::string_view n) {
  return contains(n, "nvjet") || contains(n, "gemm") || contains(n, "xmma") ||
         contains(n, "cutlass::Kernel");
}
// FP32 arithmetic on CUDA cores: cuBLAS names its FP32 kernels f32f32 (or sgemm).
inline bool is_fp32_gemm(std::string_view n) {
  return is_gemm(n) && (contains(n, "f32f32") || contains(n, "sgemm"));
}
// An op (not a kernel) that changes a tensor's dtype: the casts of an upcast to FP32 and back.
inline bool is_cast_op(std::string_view op) {
  return op == "aten::to" || op == "aten::_to_copy";
}
inline bool is_softmax(std::string_view n) {
  return contains(n, "softmax");
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
  return t;
}

}  // namespace attnprof::kernel_traits
