#pragma once
// analyze's text: the typical region's top tables (kernels, their classes, ops, nn.Modules),
// each cut to its first TextView::top rows and to 120 columns.

#include <string>

#include "attnprof/analysis.h"
#include "attnprof/render.h"

namespace attnprof {

// Appends the tables of `t`'s typical region to `out`; nothing when it has no typical region.
void render_top_tables_text(std::string& out, const TraceAnalysis& t, const TextView& view);

// Appends the region's top tables (10 rows each) as Markdown tables; nothing for an empty one.
void render_top_tables_markdown(std::string& out, const RegionSummary& r);

}  // namespace attnprof
