#pragma once
// Renderers only format: every number they print was computed by the analyses.

#include <string>
#include <vector>

#include "attnprof/analysis.h"

namespace attnprof {

// The JSON output's schema version; docs/json-schema.md describes each version.
inline constexpr int kAnalysisSchemaVersion = 2;

std::string render_text(const std::vector<TraceAnalysis>& traces);
std::string render_json(const std::vector<TraceAnalysis>& traces);
std::string render_markdown(const std::vector<TraceAnalysis>& traces);

}  // namespace attnprof
