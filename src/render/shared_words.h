#pragma once
// What the reports share: phrases, number formats, Markdown cells, JSON spreads.

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/spread.h"
#include "attnprof/analysis.h"
#include "render/display_text.h"
#include "render/json_writer.h"

namespace attnprof {

// "3 regions matching \"forward\"", "1 region (the whole trace)"; the pattern escaped.
std::string describe_regions(int64_t count, const std::string& pattern);

// When the default region fell back to the whole trace although the trace has annotations: how
// to pick them, as `5 "forward" regions exist: --region forward` (and the next names with their
// counts); "" otherwise. Names escaped (render/display_text.h).
std::string region_choice_words(const TraceAnalysis& t);

// A spread of nanoseconds in microseconds: "2271.2 (2270.8..2272.5)", or "2271.2" when min and
// max read the same.
std::string format_spread_us(const Spread& s);
// A spread of counts: "5 (4..6)", or "5" when min and max are the same.
std::string format_spread_count(const Spread& s);

// An op's achieved rate: "612.3 TFLOP/s", "1520 GB/s" for a memory-bound op; "" without a cost.
std::string op_rate_words(const OpTotal& o);
// Whose peaks the ops' % roof used, or why there are none (RegionTables::roof_gpu).
std::string op_roof_words(const RegionTables& t);
// The % roof cell of an op row, with the roof it is of: "41.2 bf16", "63.0 mem"; "above" where
// the estimate passes the roof (OpTotal::roof_note says why); "" without a roof.
std::string op_roof_cell(const OpTotal& o);

// "; rank 1 of 4 (nccl)" from distributedInfo, saying only what it gives: "; rank 1 (gloo)",
// "; rank unknown (nccl)"; "" without distributedInfo.
std::string distributed_words(const TraceAnalysis& t);

// The lines that say which GPU work no region holds, and what of it was carried in from before
// the trace ("carried in from before the trace: 151 activities, 48211.3 us, overlapping
// ProfilerStep#2"); none when the regions hold all of it.
std::vector<std::string> outside_regions_lines(const WorkOutsideRegions& outside);

// "aten::masked_fill -> aten::clone -> aten::copy_ -> cudaMemcpyAsync": the ops, outermost first,
// then the launching API, each escaped (render/display_text.h); `arrow` joins them.
std::string launch_chain(const std::vector<std::string>& op_chain, const std::string& launch_api,
                         const char* arrow = " -> ");

// {"median", "min", "max", "regions"}; `divisor` turns ns into us (1000), ms (1e6), or leaves a
// count (1): dividing keeps decimals such as 0.09192 exact in the output.
void write_json_spread(JsonWriter& w, const Spread& s, double divisor = 1);

}  // namespace attnprof
