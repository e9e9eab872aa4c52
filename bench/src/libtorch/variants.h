#pragma once
// The study's attention implementations (docs/STUDY.md), in LibTorch's C++ API, written as the
// Python reference recorder scripts/gpu/record_fixtures.py writes them.

#include <ATen/ATen.h>

#include <vector>

#include "libtorch/inputs.h"
#include "problem.h"

namespace attnprof::bench {

// Pins scaled_dot_product_attention to the variant's one backend while it lives, then restores
// the switches as they were: the C++ form of Python's torch.nn.attention.sdpa_kernel. Pins
// nothing for sdpa-auto and the unfused variants.
class SdpaBackendPin {
 public:
  explicit SdpaBackendPin(Variant variant);
  ~SdpaBackendPin();
  SdpaBackendPin(const SdpaBackendPin&) = delete;
  SdpaBackendPin& operator=(const SdpaBackendPin&) = delete;

 private:
  bool pinned_ = false;
  bool flash_ = false, mem_efficient_ = false, math_ = false, cudnn_ = false, overrideable_ = false;
};

// One call of a variant on one input set: the forward, and with the backward the gradients of
// q, k and v. Forward-only calls run under NoGradGuard, as the study's torch.no_grad(). A --custom
// kernel's call (libtorch/custom_call.h) replaces the forward; correctness, timing and the trace
// take either.
class AttentionCall {
 public:
  AttentionCall(Variant variant, const Problem& problem, const Masks& masks);
  virtual ~AttentionCall() = default;
  AttentionCall(const AttentionCall&) = delete;
  AttentionCall& operator=(const AttentionCall&) = delete;

  virtual at::Tensor forward(const InputSet& in) const;
  // dq, dk, dv of `out` for in.grad_out, returned rather than accumulated into .grad (no
  // accumulation kernels in the timings). Only with the backward.
  std::vector<at::Tensor> backward(const at::Tensor& out, const InputSet& in) const;
  // What timing and memory measure: forward, then backward when the problem has one.
  void run(const InputSet& in) const;

  bool has_backward() const { return problem_.backward; }
  const Problem& problem() const { return problem_; }
  const Masks& masks() const { return masks_; }

 private:
  at::Tensor unfused(const InputSet& in, bool in_place) const;
  at::Tensor sdpa(const InputSet& in) const;
  // A chunk of a prefill through PyTorch's bottom-right causal kernels, as causal_lower_right
  // calls them (the SDPA entry point has no such mask).
  at::Tensor flash_lower_right(const InputSet& in) const;
  at::Tensor efficient_lower_right(const InputSet& in) const;

  Variant variant_;
  Problem problem_;
  Masks masks_;
  double scale_;
};

}  // namespace attnprof::bench
