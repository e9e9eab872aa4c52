#pragma once
// A region's top tables (attnprof/top_tables.h) as keys of its JSON object: "top_kernels",
// "kernel_classes", "ops", "module_classes", "modules" (docs/json-schema.md).

#include "attnprof/top_tables.h"
#include "render/json_writer.h"

namespace attnprof {

// Writes the keys into the object open in `w`. Shares of the region's GPU busy time
// (`gpu_busy_ns`) are null when the region has none.
void write_top_tables_json(JsonWriter& w, const RegionTables& tables, int64_t gpu_busy_ns);

}  // namespace attnprof
