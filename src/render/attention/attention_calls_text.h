#pragma once
// The attention calls of a trace's typical region in analyze's text and Markdown: one row per kind
// of call (the same op, backend, direction, shapes and mask), with how many there were, their
// GPU time per call (the median over the regions where every region holds the same calls) and
// their TFLOP/s, so that a model of 80 layers prints a few rows, not 160.

#include <string>

#include "attnprof/analysis.h"

namespace attnprof {

// Appends the table, its FLOPs assumptions and notes; nothing when the trace has no attention.
void render_attention_calls_text(std::string& out, const TraceAnalysis& t);
void render_attention_calls_markdown(std::string& out, const TraceAnalysis& t);

}  // namespace attnprof
