#pragma once
// What makes two sides of a `diff` not like for like (docs/check-and-diff.md): a different GPU,
// element type or attention shape explains a change that the diff's numbers would otherwise pin on
// the code. Each difference is one phrase, "device: NVIDIA H200 (132 SMs, sm_90) vs NVIDIA
// A100-SXM4-80GB (108 SMs, sm_80)"; none when the sides agree or when a side does not say.

#include <string>
#include <vector>

#include "attnprof/analysis.h"
#include "reader/run_summary.h"

namespace attnprof {

// Two traces: their devices (deviceProperties), the dtypes and shapes of their typical regions'
// attention calls (TraceAnalysis::attention, from the recorded inputs), and the dtypes of those
// regions' GEMMs (the ops table's matrix products); a side without them is not compared.
std::vector<std::string> workload_mismatches(const TraceAnalysis& a, const TraceAnalysis& b);

// Two bench runs: their device, dtypes and each point's problem (shape, mask), as summary.json
// has them; points are paired in order.
std::vector<std::string> workload_mismatches(const RunSummary& a, const RunSummary& b);

}  // namespace attnprof
