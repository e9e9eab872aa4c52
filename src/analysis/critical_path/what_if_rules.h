#pragma once
// --what-if SELECTOR=FACTOR: the rules' text, and the work each selects in a trace
// (docs/CRITICAL_PATH.md, "What-if").

#include <string_view>
#include <vector>

#include "analysis/critical_path/dependency_graph.h"
#include "analysis/kernels/kernel_names.h"
#include "attnprof/critical_path.h"
#include "attnprof/result.h"
#include "model/trace.h"

namespace attnprof {

inline constexpr size_t kMaxWhatIfRules = 32;

// "attention=0.5", "attention-cpu=0.5", "kernel:*gemm*=0", "class:gemm=0.8", "cpu:aten::*=0.5".
// Fails (usage) on a selector of no known kind, an unknown class, an empty glob, or a factor that
// is not a number of at least 0.
Result<WhatIfRule> parse_what_if(std::string_view text);

// For each activity and host event of `trace`, the bits of the rules that select it (rule i is
// bit i; at most kMaxWhatIfRules): attention by `is_attention`, attention-cpu by
// `attention_cpu` (per host event, attention_cpu_ops), kernel: by short or full name, op: and
// module: by the ops and modules above the work's op, class: by `class_of`, cpu: by the host
// event's own name.
void select_what_if(const Trace& trace, const std::vector<WhatIfRule>& rules,
                    const std::vector<uint8_t>& is_attention,
                    const std::vector<uint8_t>& attention_cpu, KernelShortNames& kernel_names,
                    GraphInputs& inputs);

}  // namespace attnprof
