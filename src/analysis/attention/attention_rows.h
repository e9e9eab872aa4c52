#pragma once
// How many queries and keys an attention op or its first matrix product saw, from the op's
// recorded "Input Dims" (traces recorded with record_shapes=True, analysis/op_arguments.h): a
// decode step has one query row per head, square attention as many as keys.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "analysis/op_cost.h"
#include "model/trace.h"

namespace attnprof {

struct AttentionRows {
  int64_t query_rows = 0;  // per head and sequence
  int64_t keys = 0;
};

// The rows of op `op` with arguments `args`: of a product (aten::matmul, aten::bmm), whose inputs
// are [..., M, K] and [..., K, N] (queries M, keys N), or of scaled_dot_product_attention and its
// backends' ops, whose are query [..., L, E] and key [..., S, E]. None for another op, or unless
// the first two inputs both have two or more sizes, all positive.
std::optional<AttentionRows> attention_rows(std::string_view op,
                                            const std::vector<OpArgument>& args);

// The same for cpu_op `op` of `trace`, from its recorded inputs; none where none were recorded.
std::optional<AttentionRows> attention_rows(const Trace& trace, HostEventId op);

}  // namespace attnprof
