#pragma once
// One GPU activity as JSON, the same in `analyze` and `diff` output (docs/json-schema.md).

#include "attnprof/analysis.h"
#include "render/json_writer.h"

namespace attnprof {

// The activity's keys (kind, names, launch, op chain, launch configuration or bytes, occupancy,
// stream), written into an object the caller opened; times are the caller's to add.
void write_activity_fields(JsonWriter& w, const ActivityRow& a);

}  // namespace attnprof
