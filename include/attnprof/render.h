#pragma once
// Renderers only format: every number they print was computed by the analyses.

#include <string>
#include <vector>

#include "attnprof/analysis.h"

namespace attnprof {

// The JSON output's schema version; docs/json-schema.md describes each version.
inline constexpr int kAnalysisSchemaVersion = 3;

// What analyze's text shows of each trace beside its regions: the top tables of the typical
// region (the first `top` rows of each), and, on request, its activities in order.
struct TextView {
  size_t top = 10;
  bool activities = false;  // analyze --activities: every GPU activity of the typical region
  bool wide = false;        // analyze --wide: names in full, below each row they were cut in
};

std::string render_text(const std::vector<TraceAnalysis>& traces, const TextView& view = {});
std::string render_json(const std::vector<TraceAnalysis>& traces);
std::string render_markdown(const std::vector<TraceAnalysis>& traces);

}  // namespace attnprof
