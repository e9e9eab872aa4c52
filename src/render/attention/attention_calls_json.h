#pragma once
// The attention calls (attnprof/attention_calls.h) in analyze's JSON: each region's
// "attention_calls", "attention_gpu_us" and "attention_share_pct", and the trace's "attention"
// (docs/json-schema.md, docs/ATTENTION_CALLS.md). Unknown values are null, never 0.

#include "attnprof/attention_calls.h"
#include "render/json_writer.h"

namespace attnprof {

// The keys of a region, written into its object open in `w`.
void write_region_attention_json(JsonWriter& w, const AttentionCalls& calls, int64_t gpu_busy_ns);

// The trace's "attention" key: the typical region's calls with their medians over the regions.
void write_median_attention_json(JsonWriter& w, const MedianAttentionCalls& median);

}  // namespace attnprof
