#pragma once
// A region's critical path (attnprof/critical_path.h) in analyze's outputs: JSON's
// "critical_path" and "what_if" of each region (docs/json-schema.md), the typical region's path
// in the text and Markdown, and one row per region in CSV's critical_path table.

#include <string>

#include "attnprof/analysis.h"
#include "render/json_writer.h"

namespace attnprof {

// The region's "critical_path" object, and its "what_if" when it has one.
void write_critical_path_json(JsonWriter& w, const RegionSummary& region);

// Appends the typical region's path: its length, categories, attention and top items, and the
// what-if; nothing without a typical region.
void render_critical_path_text(std::string& out, const TraceAnalysis& t);
void render_critical_path_markdown(std::string& out, const TraceAnalysis& t);

}  // namespace attnprof
