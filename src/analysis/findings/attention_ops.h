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

#include <vector>

#include "analysis/findings/attention_op.h"
#include "analysis/findings/finding_context.h"

namespace attnprof {

// The attention ops of each distinct member set (FindingContext::set_of), each set's in the order
// they started. The rules ask FindingContext::attention_ops, which finds them once.
std::vector<std::vector<AttentionOp>> find_attention_ops(const FindingContext& c);

}  // namespace attnprof
