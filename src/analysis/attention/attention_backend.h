#pragma once
// Which backend computed an attention call, from the innermost attention op that ran and the
// names of the kernels it launched (docs/ATTENTION_CALLS.md, "Backends"). The op says what it
// asked for; the kernels say what ran: PyTorch's flash op runs FlashAttention-3 kernels once
// FA3 is activated, and a compiled region's op says nothing of its kernels.

#include <string_view>
#include <vector>

#include "attnprof/attention_calls.h"

namespace attnprof {

// An op that computes attention itself: SDPA and its backends' ops (forward and backward),
// flash_attn's, xformers', FlashInfer's, and FlexAttention's template op
// (triton_tem_fused_flex_attention_0, named after its kernel).
bool is_attention_op(std::string_view op);

// A kernel that computes attention in one piece (kernel_traits::is_fused_attention) or that
// names itself after attention (a Triton or FlashInfer kernel).
bool is_attention_kernel(std::string_view kernel);

// `op`: the innermost attention op of the call ("" for a kernel found without one); `kernels`:
// the full names of the call's kernels.
AttentionBackend detect_attention_backend(std::string_view op,
                                          const std::vector<std::string_view>& kernels);

}  // namespace attnprof
