#include "libtorch/variants.h"

#include <ATen/Context.h>
#include <ATen/ScalarOps.h>
#include <ATen/core/grad_mode.h>
#include <torch/csrc/autograd/autograd.h>

#include <cmath>
#include <limits>
#include <optional>
#include <tuple>

#include "libtorch/sdpa_support.h"

namespace attnprof::bench {

SdpaBackendPin::SdpaBackendPin(Variant variant) {
  if (!is_sdpa(variant) || variant == Variant::kSdpaAuto) return;
  auto& ctx = at::globalContext();
  flash_ = ctx.userEnabledFlashSDP();
  mem_efficient_ = ctx.userEnabledMemEfficientSDP();
  math_ = ctx.userEnabledMathSDP();
  cudnn_ = ctx.userEnabledCuDNNSDP();
  overrideable_ = ctx.userEnabledOverrideableSDP();
  pinned_ = true;
  ctx.setSDPUseFlash(variant == Variant::kSdpaFlash);
  ctx.setSDPUseMemEfficient(variant == Variant::kSdpaEfficient);
  ctx.setSDPUseMath(variant == Variant::kSdpaMath);
  ctx.setSDPUseCuDNN(variant == Variant::kSdpaCudnn);
  // The "overrideable" backend is for out-of-tree devices; off, so the pin leaves one choice.
  ctx.setSDPUseOverrideable(false);
}

SdpaBackendPin::~SdpaBackendPin() {
  if (!pinned_) return;
  auto& ctx = at::globalContext();
  ctx.setSDPUseFlash(flash_);
  ctx.setSDPUseMemEfficient(mem_efficient_);
  ctx.setSDPUseMath(math_);
  ctx.setSDPUseCuDNN(cudnn_);
  ctx.setSDPUseOverrideable(overrideable_);
}

AttentionCall::AttentionCall(Variant variant, const Problem& problem, const Masks& masks)
    : variant_(variant),
      problem_(problem),
      masks_(masks),
      scale_(1.0 / std::sqrt(static_cast<double>(problem.head_dim))) {}

at::Tensor AttentionCall::forward(const InputSet& in) const {
  std::optional<at::NoGradGuard> no_grad;
  if (!problem_.backward) no_grad.emplace();
  switch (variant_) {
    case Variant::kNaive:
      return unfused(in, /*in_place=*/false);
    case Variant::kInplace:
      return unfused(in, /*in_place=*/true);
    default:
      return sdpa(in);
  }
}

at::Tensor AttentionCall::unfused(const InputSet& in, bool in_place) const {
  const double minus_inf = -std::numeric_limits<double>::infinity();
  // GQA written out as a user would: each K/V head repeated for its group of query heads, inside
  // the call (the copies are part of what the variant costs).
  const int64_t group = gqa_group(problem_);
  const at::Tensor k = group > 1 ? in.k.repeat_interleave(group, /*dim=*/1) : in.k;
  const at::Tensor v = group > 1 ? in.v.repeat_interleave(group, /*dim=*/1) : in.v;
  at::Tensor s = at::matmul(in.q, k.transpose(-2, -1));
  if (!in_place) {
    s = at::mul(s, at::native::wrapped_scalar_tensor(scale_));  // Python's `s * SCALE`
    // Out of place: masked_fill clones s first, the DtoD copy the study finds in the trace.
    if (masks_.masked_out.defined()) s = s.masked_fill(masks_.masked_out, minus_inf);
  } else {
    // As torch.mul(s, SCALE, out=s) in the study; out= ops refuse autograd, so with the
    // backward the in-place method, which autograd accepts (bmm saves q and k, not s).
    if (s.requires_grad()) {
      s.mul_(scale_);
    } else {
      // Python passes the scalar as a wrapped-number tensor to mul.out, whose structured kernel
      // writes into s; mul.Scalar_out is another op. Same op, same trace as the study.
      at::mul_out(s, s, at::native::wrapped_scalar_tensor(scale_));
    }
    if (masks_.masked_out.defined()) s.masked_fill_(masks_.masked_out, minus_inf);
  }
  const at::Tensor p = at::softmax(s, -1);
  return at::matmul(p, v);
}

at::Tensor AttentionCall::sdpa(const InputSet& in) const {
  switch (lower_right_kernel(variant_, problem_, in, masks_)) {
    case LowerRightKernel::kFlash:
      return flash_lower_right(in);
    case LowerRightKernel::kEfficient:
      return efficient_lower_right(in);
    case LowerRightKernel::kNone:
      break;
  }
  const SdpaArguments args = sdpa_arguments(problem_, masks_);
  return at::scaled_dot_product_attention(in.q, in.k, in.v, args.attn_mask, 0.0, args.is_causal,
                                          /*scale=*/std::nullopt, args.enable_gqa);
}

at::Tensor AttentionCall::flash_lower_right(const InputSet& in) const {
  // The flash op's is_causal is the bottom-right form. Its head dim must be a multiple of 8:
  // padded with zeros and cut back, as PyTorch pads for SDPA, with the scale of the real one.
  const int64_t head_dim = problem_.head_dim;
  const int64_t pad = (8 - head_dim % 8) % 8;
  const auto padded = [pad](const at::Tensor& t) {
    return pad == 0 ? t : at::constant_pad_nd(t, {0, pad});
  };
  const at::Tensor out = std::get<0>(at::_scaled_dot_product_flash_attention(
      padded(in.q), padded(in.k), padded(in.v), /*dropout_p=*/0.0, /*is_causal=*/true,
      /*return_debug_mask=*/false, scale_));
  return pad == 0 ? out : out.narrow(-1, 0, head_dim);
}

at::Tensor AttentionCall::efficient_lower_right(const InputSet& in) const {
  // The kernel takes (batch, seq, heads, dim); custom_mask_type 2 is CausalFromBottomRight (the
  // value of CausalVariant.LOWER_RIGHT). The backward needs the log-sum-exp kept.
  constexpr int64_t kCausalFromBottomRight = 2;
  const auto result = at::_efficient_attention_forward(
      in.q.transpose(1, 2), in.k.transpose(1, 2), in.v.transpose(1, 2), /*bias=*/std::nullopt,
      /*cu_seqlens_q=*/std::nullopt, /*cu_seqlens_k=*/std::nullopt, /*max_seqlen_q=*/std::nullopt,
      /*max_seqlen_k=*/std::nullopt, /*dropout_p=*/0.0, kCausalFromBottomRight,
      /*compute_log_sumexp=*/problem_.backward, scale_);
  return std::get<0>(result).transpose(1, 2);
}

std::vector<at::Tensor> AttentionCall::backward(const at::Tensor& out, const InputSet& in) const {
  return torch::autograd::grad({out}, {in.q, in.k, in.v}, {in.grad_out});
}

void AttentionCall::run(const InputSet& in) const {
  at::Tensor out = forward(in);
  if (problem_.backward) backward(out, in);
}

}  // namespace attnprof::bench
