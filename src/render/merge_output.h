#pragma once
// What `attnprof merge` prints: the traces its summaries describe, one line each, and the section
// that compares them across ranks, the same section (and in JSON the same "across_traces"
// object) that `attnprof analyze` prints with every trace read in one process.

#include <string>
#include <vector>

#include "render/analyze/analyze_output.h"

namespace attnprof {

std::string render_merge_text(const AnalyzeOutput& output);
std::string render_merge_json(const AnalyzeOutput& output);
std::string render_merge_markdown(const AnalyzeOutput& output);

}  // namespace attnprof
