#pragma once
// A problem's random inputs and masks as LibTorch tensors. LibTorch half of the bench only.

#include <ATen/ATen.h>

#include <cstdint>
#include <optional>

#include "problem.h"

namespace attnprof::bench {

at::ScalarType scalar_type(Dtype dtype);
at::Device torch_device(DeviceKind device);

// One set of inputs: q of shape (batch, heads, q_seq, head_dim), k and v of (batch, kv_heads,
// seq, head_dim); the output (and its gradient) has q's shape.
struct InputSet {
  at::Tensor q, k, v;
  at::Tensor grad_out;  // the output's gradient; undefined without the backward
};

// The masks every call of a problem shares; undefined where the problem's mask kind uses none.
struct Masks {
  // (q_seq, seq) bool, true where the pattern hides the pair: what naive and inplace fill with
  // -inf (the study's torch.triu(ones, diagonal=1) for the square; the diagonal moves right by
  // seq - q_seq for end-aligned queries, and the window hides the keys more than W - 1 behind).
  // Undefined when nothing is hidden (no mask; one causal query without a window).
  at::Tensor masked_out;
  // Its negation, SDPA's attn_mask where true means "attend"; defined only where SDPA may take
  // the mask as a tensor (sdpa_mask_form: kTensor, and kLowerRight for math and cuDNN).
  at::Tensor keep;
};

// The arguments SDPA gets for the problem's mask and heads, the same for the call, its support
// check and sdpa-auto's choice.
struct SdpaArguments {
  std::optional<at::Tensor> attn_mask;
  bool is_causal = false;
  bool enable_gqa = false;  // K and V have fewer heads than q
  // A chunk of a prefill (SdpaMaskForm::kLowerRight): attn_mask holds its tensor form, for the
  // backends without a bottom-right causal kernel; flash and efficient run without it.
  bool lower_right = false;
};
SdpaArguments sdpa_arguments(const Problem& problem, const Masks& masks);

Masks make_masks(const Problem& problem);

// Fresh standard-normal q, k, v (and the output gradient with the backward), reproducible from
// `seed`. With the backward, q, k and v are leaves that require grad.
InputSet make_input_set(const Problem& problem, uint64_t seed);

}  // namespace attnprof::bench
