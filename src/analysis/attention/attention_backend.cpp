#include "analysis/attention/attention_backend.h"

#include "analysis/findings/kernel_traits.h"
#include "analysis/text_match.h"

namespace attnprof {

namespace {

using kernel_traits::contains;

bool any_kernel(const std::vector<std::string_view>& kernels, bool (*pred)(std::string_view)) {
  for (std::string_view k : kernels)
    if (pred(k)) return true;
  return false;
}

// FlashAttention-3's Hopper kernels: flash::FlashAttnFwdSm90, FlashAttnBwdSm90 (inside
// cutlass::device_kernel<...>).
bool is_fa3_kernel(std::string_view k) {
  return contains(k, "FlashAttnFwdSm90") || contains(k, "FlashAttnBwdSm90") ||
         contains(k, "flash_attn_3");
}
// FlashAttention-4, written in the CuTe DSL: its kernels carry the Python class's name
// (FlashAttentionForwardSm100, ...Sm90) and module path (flash_attn.cute -> flash_attncute).
bool is_fa4_kernel(std::string_view k) {
  return contains(k, "FlashAttentionForwardSm") || contains(k, "FlashAttentionBackwardSm") ||
         contains(k, "flash_attncute");
}
bool is_cudnn_attention_kernel(std::string_view k) {
  return contains(k, "cudnn") && (contains(k, "sdpa") || contains(k, "fmha") ||
                                  contains(k, "flash_fprop") || contains(k, "flash_bprop"));
}
bool is_flashinfer_kernel(std::string_view k) {
  return contains_ignoring_case(k, "flashinfer");
}
// PyTorch's own copy of FlashAttention-2 lives in namespace pytorch_flash; the flash_attn
// package's in namespace flash.
bool is_pytorch_flash_kernel(std::string_view k) {
  return contains(k, "pytorch_flash");
}
bool is_flash_kernel(std::string_view k) {
  return contains(k, "flash_fwd") || contains(k, "flash_bwd");
}
bool is_efficient_kernel(std::string_view k) {
  return contains(k, "fmha_cutlass") || contains(k, "efficient_attention") ||
         contains(k, "AttentionKernel") || contains(k, "AttentionBackwardKernel");
}
// A kernel named after attention that no family above claims: Triton's own (the tutorial's
// _attn_fwd, vLLM's kernel_unified_attention_2d) have plain names, no namespace or template.
bool names_attention(std::string_view k) {
  return contains_ignoring_case(k, "attn") || contains_ignoring_case(k, "attention");
}
bool is_plain_name(std::string_view k) {
  return !contains(k, "::") && !contains(k, "<") && !contains(k, "(");
}

}  // namespace

std::string_view attention_backend_id(AttentionBackend b) {
  switch (b) {
    case AttentionBackend::kMath:
      return "math";
    case AttentionBackend::kEfficient:
      return "efficient";
    case AttentionBackend::kFlash:
      return "flash";
    case AttentionBackend::kCudnn:
      return "cudnn";
    case AttentionBackend::kFlex:
      return "flex";
    case AttentionBackend::kFa2:
      return "fa2";
    case AttentionBackend::kFa3:
      return "fa3";
    case AttentionBackend::kFa4:
      return "fa4";
    case AttentionBackend::kXformers:
      return "xformers";
    case AttentionBackend::kFlashInfer:
      return "flashinfer";
    case AttentionBackend::kTriton:
      return "triton";
    case AttentionBackend::kUnfused:
      return "unfused";
    case AttentionBackend::kUnknown:
      return "unknown";
  }
  return "unknown";
}

bool is_attention_op(std::string_view op) {
  return op.starts_with("aten::scaled_dot_product_attention") ||
         op.starts_with("aten::_scaled_dot_product_") ||
         op.starts_with("aten::_flash_attention_") ||
         op.starts_with("aten::_efficient_attention_") ||
         op.starts_with("aten::_cudnn_attention_") || op.starts_with("aten::_fused_sdp") ||
         op.starts_with("flash_attn::") || op.starts_with("flash_attn_3::") ||
         op.starts_with("xformers::") || op.starts_with("xformers_flash::") ||
         op.starts_with("flashinfer::") || op.starts_with("triton_tem_fused_flex_attention");
}

bool is_attention_kernel(std::string_view kernel) {
  return kernel_traits::is_fused_attention(kernel) || is_cudnn_attention_kernel(kernel) ||
         is_fa3_kernel(kernel) || is_fa4_kernel(kernel) || is_flashinfer_kernel(kernel) ||
         (names_attention(kernel) && !kernel_traits::is_inductor_pointwise(kernel) &&
          !kernel_traits::is_inductor_reduction(kernel));
}

AttentionBackend detect_attention_backend(std::string_view op,
                                          const std::vector<std::string_view>& kernels) {
  // Kernels that say which implementation ran, whatever op asked for it.
  if (any_kernel(kernels, is_fa4_kernel)) return AttentionBackend::kFa4;
  if (any_kernel(kernels, is_fa3_kernel) || op.starts_with("flash_attn_3::"))
    return AttentionBackend::kFa3;
  if (op.starts_with("xformers")) return AttentionBackend::kXformers;
  if (op.starts_with("flashinfer::") || any_kernel(kernels, is_flashinfer_kernel))
    return AttentionBackend::kFlashInfer;
  if (op.starts_with("flash_attn::")) return AttentionBackend::kFa2;
  if (op.starts_with("triton_tem_fused_flex_attention") ||
      any_kernel(kernels, kernel_traits::is_flex_attention))
    return AttentionBackend::kFlex;
  // SDPA's backend ops.
  if (contains(op, "attention_math")) return AttentionBackend::kMath;
  if (contains(op, "cudnn_attention") || any_kernel(kernels, is_cudnn_attention_kernel))
    return AttentionBackend::kCudnn;
  if (contains(op, "flash_attention") || any_kernel(kernels, is_pytorch_flash_kernel))
    return AttentionBackend::kFlash;
  if (contains(op, "efficient_attention") || any_kernel(kernels, is_efficient_kernel))
    return AttentionBackend::kEfficient;
  if (any_kernel(kernels, is_flash_kernel)) return AttentionBackend::kFa2;
  // An SDPA op with no fused kernel under it computed it the long way.
  if (op.starts_with("aten::scaled_dot_product_attention") &&
      !any_kernel(kernels, is_attention_kernel))
    return AttentionBackend::kMath;
  for (std::string_view k : kernels)
    if (names_attention(k) && is_plain_name(k) && !kernel_traits::is_inductor_reduction(k) &&
        !kernel_traits::is_inductor_pointwise(k))
      return AttentionBackend::kTriton;
  return AttentionBackend::kUnknown;
}

}  // namespace attnprof
