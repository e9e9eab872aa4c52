#pragma once
// The time breakdown (attnprof/time_breakdown.h) in words, for text and Markdown.

#include <string>
#include <string_view>
#include <vector>

#include "attnprof/time_breakdown.h"

namespace attnprof {

// "GPU time of the trace: span 12.3 ms = busy 10.1 ms + idle 2.2 ms (18 % idle)", `separator`,
// "busy = compute 9.0 ms + communication 0.8 ms + memory 0.3 ms; communication overlaps compute
// 40 %": two lines (the separator a newline and its indent) so that text fits 120 columns.
std::string breakdown_line(const TimeBreakdown& b, std::string_view separator);

// "idle of stream 7 (the most work) in the typical region: host wait 2.60 ms, kernel gap 24.2 µs,
// other 0.0 µs"; empty when the stream never idles. `name`: how the region is called.
std::string idle_causes_line(const std::vector<StreamIdle>& streams, const std::string& name);

}  // namespace attnprof
