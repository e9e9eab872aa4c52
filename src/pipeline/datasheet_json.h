#pragma once
// The GPU datasheet (analysis/gpu_datasheet.h) as JSON, for `attnprof datasheet`: scripts that must
// use the same peaks as the core (scripts/gpu/record_flex.py) read the project's one table
// (docs/GPU_DATASHEET.md).

#include <string>

namespace attnprof {

// Every row's dense peaks, as an array; with `device`, only the row that deviceProperties name
// matches, or null.
std::string datasheet_json(const std::string& device);

}  // namespace attnprof
