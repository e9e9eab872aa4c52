#pragma once
// The attention calls of each region (include/attnprof/attention_calls.h): the attention ops and
// unfused chains that find_attention_ops finds, and the attention kernels no op of theirs
// launched (a compiled region's), each with its backend, shapes, FLOPs and GPU time.

#include <functional>
#include <optional>
#include <vector>

#include "analysis/findings/finding_context.h"
#include "analysis/forward_ops.h"
#include "analysis/memory_events.h"
#include "analysis/op_cost.h"
#include "attnprof/attention_calls.h"

namespace attnprof {

// An op's recorded arguments (analysis/op_arguments.h's op_arguments on the trace); none where
// the trace recorded no shapes for it.
using OpArgumentsOf = std::function<std::optional<std::vector<OpArgument>>(HostEventId)>;

// The calls of region `region`, in the order they started, and the union of their GPU time. A
// backward chain (the math backend's, an unfused chain's) takes its shapes from its forward,
// which `forwards` finds.
// Each call's memory is what `memory` holds inside its ops on their thread.
AttentionCalls attention_calls_of(const FindingContext& c, size_t region,
                                  const OpArgumentsOf& arguments, const ForwardOps& forwards,
                                  const MemoryEvents& memory);

// The typical region's calls, each with its GPU time the median over the regions, when every
// region holds the same calls (op and backend, in order); else the typical region's as they are.
MedianAttentionCalls median_attention_calls(const std::vector<const AttentionCalls*>& regions,
                                            const std::vector<int64_t>& region_busy_ns,
                                            int typical);

// Why SDPA ran its math backend, from the recorded arguments of
// aten::scaled_dot_product_attention (query, key, value, attn_mask, dropout_p, is_causal, ...):
// what rules out the fused backends, in words a user acts on.
std::string math_fallback_note(const std::vector<OpArgument>& sdpa_args);

// "bf16", "fp16", "fp32", ... for a type as Kineto spells it ("c10::BFloat16"); the type itself
// when it is none of those.
std::string dtype_label(std::string_view type);

}  // namespace attnprof
