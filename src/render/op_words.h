#pragma once
// An op's words: its achieved rate, its share of the roof, and the chain of ops that launched
// its work.

#include <string>
#include <vector>

#include "attnprof/analysis.h"

namespace attnprof {

// An op's achieved rate: "612.3 TFLOP/s", "1520 GB/s" for a memory-bound op; "" without a cost.
std::string op_rate_words(const OpTotal& o);

// Whose peaks the ops' % roof used, or why there are none (RegionTables::roof_gpu).
std::string op_roof_words(const RegionTables& t);

// The % roof cell of an op row, with the roof it is of: "41.2 bf16", "63.0 mem"; "above" where
// the estimate passes the roof (OpTotal::roof_note says why); "" without a roof.
std::string op_roof_cell(const OpTotal& o);

// "aten::masked_fill -> aten::clone -> aten::copy_ -> cudaMemcpyAsync": the ops, outermost first,
// then the launching API, each escaped (render/display_text.h); `arrow` joins them.
std::string launch_chain(const std::vector<std::string>& op_chain, const std::string& launch_api,
                         const char* arrow = " -> ");

}  // namespace attnprof
