#pragma once
// A problem's random inputs and masks as LibTorch tensors. LibTorch half of the bench only.

#include <ATen/ATen.h>

#include <cstdint>

#include "problem.h"

namespace attnprof::bench {

at::ScalarType scalar_type(Dtype dtype);
at::Device torch_device(DeviceKind device);

// One set of inputs of shape (batch, heads, seq, head_dim).
struct InputSet {
  at::Tensor q, k, v;
  at::Tensor grad_out;  // the output's gradient; undefined without the backward
};

// The masks every call of a problem shares; undefined where the problem's mask kind uses none.
struct Masks {
  // (seq, seq) bool, true above the diagonal: what naive and inplace fill with -inf (the study's
  // torch.triu(ones, diagonal=1)).
  at::Tensor masked_out;
  // (seq, seq) bool, true on and below the diagonal: SDPA's attn_mask, where true means "attend".
  at::Tensor keep;
};

Masks make_masks(const Problem& problem);

// Fresh standard-normal q, k, v (and the output gradient with the backward), reproducible from
// `seed`. With the backward, q, k and v are leaves that require grad.
InputSet make_input_set(const Problem& problem, uint64_t seed);

}  // namespace attnprof::bench
