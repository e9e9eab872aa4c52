#pragma once
// The words about a trace's regions that every output shares: how many and which, how to pick
// others, the rank, and the GPU work no region holds.

#include <cstdint>
#include <string>
#include <vector>

#include "attnprof/analysis.h"

namespace attnprof {

// "3 regions matching \"forward\"", "1 region (the whole trace)"; the pattern escaped.
std::string describe_regions(int64_t count, const std::string& pattern);

// When the default region fell back to the whole trace although the trace has annotations: how
// to pick them, as `5 "forward" regions exist: --region forward` (and the next names with their
// counts); "" otherwise. Names escaped (render/display_text.h).
std::string region_choice_words(const TraceAnalysis& t);

// "; rank 1 of 4 (nccl)" from distributedInfo, saying only what it gives: "; rank 1 (gloo)",
// "; rank unknown (nccl)"; "" without distributedInfo.
std::string distributed_words(const TraceAnalysis& t);

// The lines that say which GPU work no region holds, and what of it was carried in from before
// the trace ("carried in from before the trace: 151 activities, 48211.3 us, overlapping
// ProfilerStep#2"); none when the regions hold all of it.
std::vector<std::string> outside_regions_lines(const WorkOutsideRegions& outside);

}  // namespace attnprof
