#pragma once
// A region's memory per CUDA device (attnprof/region_memory.h) in analyze's JSON: its "memory"
// key (docs/json-schema.md, docs/MEMORY.md). Unknown values are null, never 0 or "".

#include <vector>

#include "attnprof/region_memory.h"
#include "render/json_writer.h"

namespace attnprof {

// The key, written into the region's object open in `w`: an empty list without [memory] events.
void write_region_memory_json(JsonWriter& w, const std::vector<RegionMemory>& memory);

}  // namespace attnprof
