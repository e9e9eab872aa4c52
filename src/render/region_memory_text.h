#pragma once
// The typical region's memory per CUDA device (attnprof/region_memory.h) in analyze's text and
// Markdown: the peak, when and in which op and nn.Module it was reached, the totals at the
// region's start and end, the most reserved, and the ops whose blocks are live at the peak.

#include <string>

#include "attnprof/analysis.h"

namespace attnprof {

// "peak 1.2 GiB allocated at 1.234 ms, in aten::softmax (module Attention_0); 624.0 MiB at the
// start, 8.0 MiB at the end; 1.5 GiB reserved at most": names as the trace gives them (each
// output escapes the line).
std::string memory_peak_words(const RegionMemory& m);
// "held at the peak: aten::bmm 512.0 MiB (2 blocks), ...; 96.0 MiB allocated before the trace";
// the first `top` holders.
std::string memory_holders_words(const RegionMemory& m, size_t top);

// Append the section; nothing for a trace without [memory] events.
void render_region_memory_text(std::string& out, const TraceAnalysis& t);
void render_region_memory_markdown(std::string& out, const TraceAnalysis& t);

}  // namespace attnprof
