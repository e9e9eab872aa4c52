#pragma once
// What makes two sides of a `diff` not like for like (docs/check-and-diff.md): a different GPU,
// element type or attention shape explains a change that the diff's numbers would otherwise pin on
// the code. Each difference is one phrase, "device: NVIDIA H200 (132 SMs, sm_90) vs NVIDIA
// A100-SXM4-80GB (108 SMs, sm_80)"; none when the sides agree or when a side does not say.

#include <string>
#include <string_view>
#include <vector>

#include "attnprof/analysis.h"

namespace attnprof {

// Two traces: their devices (deviceProperties), the dtypes and shapes of their typical regions'
// attention calls (TraceAnalysis::attention, from the recorded inputs), and the dtypes of those
// regions' GEMMs (the ops table's matrix products); a side without them is not compared.
std::vector<std::string> workload_mismatches(const TraceAnalysis& a, const TraceAnalysis& b);

// Adds "what: a vs b" to `out` when both sides say and differ; a side that is empty does not say.
void add_mismatch(std::vector<std::string>& out, std::string_view what, const std::string& a,
                  const std::string& b);

}  // namespace attnprof
