#pragma once
// The attention computations of a region, found by their ops, so that attention findings speak
// of attention only (a CNN's step has none) and of each attention op with its share of the
// region's GPU time:
// - an SDPA op (aten::scaled_dot_product_attention, its backends' ops, their backward), with
//   every GPU activity under it;
// - the chain matmul -> (scale, mask, ...) -> softmax -> (dropout, ...) -> matmul among the
//   outermost ops under one parent (an op, an annotation such as `forward`, or a thread's top
//   level), as naive attention writes it; its backward, on the autograd thread, is the same chain
//   of BmmBackward0 / SoftmaxBackward0 functions.

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/findings/finding_context.h"

namespace attnprof {

struct AttentionOp {
  bool sdpa = false;  // an SDPA op; else a chain of ops
  // "aten::scaled_dot_product_attention", or the chain's ops: "aten::matmul -> aten::mul ->
  // aten::masked_fill -> aten::softmax -> aten::matmul"
  std::string label;
  std::string parent;  // the annotation or op it runs under; "" at a thread's top level
  std::vector<GpuActivityId> activities;  // in GPU start order
  int kernels = 0, gemms = 0, softmax = 0;
  bool fused = false;  // one fused attention kernel does the work
  int64_t busy_ns = 0;
};

// The attention ops of region `region`, in the order they started.
std::vector<AttentionOp> find_attention_ops(const FindingContext& c, size_t region);

}  // namespace attnprof
