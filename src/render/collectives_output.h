#pragma once
// A trace's collectives (attnprof/collectives.h) in analyze's text, JSON and CSV.

#include <string>
#include <vector>

#include "attnprof/analysis.h"
#include "render/analyze/analyze_output.h"
#include "render/json_writer.h"

namespace attnprof {

// "collectives": one object per row (docs/json-schema.md).
void write_collectives_json(JsonWriter& w, const std::vector<CollectiveTotals>& rows);

// "link": the GPU link busbw reads against; null without one.
void write_gpu_link_json(JsonWriter& w, const GpuLink& link);

// The whole trace's collectives and the typical region's, as a table per set; nothing for a
// trace without communication kernels.
void render_collectives_text(std::string& out, const TraceAnalysis& t);

// With --table collectives: one row per collective of every region of every trace, and one per
// collective of each trace as a whole (region "(whole trace)", region_index empty).
std::string render_collectives_csv(const AnalyzeOutput& output);

}  // namespace attnprof
