#pragma once
// The CPU side of the attention calls: the ops that launched their GPU work, which --what-if
// attention-cpu=FACTOR scales (docs/CRITICAL_PATH.md, "What-if").

#include <cstdint>
#include <vector>

#include "model/trace.h"

namespace attnprof {

// Per host event, 1 for each outermost cpu_op whose launched GPU work (its own launches and those
// of what runs under it) is all attention by `is_attention` (per activity), and not empty. A
// cpu_op that also launched other work is not one, nor are user annotations (ProfilerStep#N, a
// user's record_function), whose work is more than one call's; ops that launched nothing are
// selected only as part of an op above them.
std::vector<uint8_t> attention_cpu_ops(const Trace& trace,
                                       const std::vector<uint8_t>& is_attention);

// Per host event, 1 where it is one of `selected` or runs under one: the events whose time a
// selection of ops holds.
std::vector<uint8_t> under_selected_ops(const Trace& trace, const std::vector<uint8_t>& selected);

}  // namespace attnprof
