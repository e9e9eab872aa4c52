#pragma once
// A bench summary.json read with the core's reader and written back with its writer, for
// `attnprof summary-json`: a script that measured in Python (scripts/gpu/record_flex.py) hands its
// numbers to the one writer of the file and never spells the schema itself (docs/json-schema.md,
// "summary.json").

#include <string>

#include "attnprof/result.h"

namespace attnprof {

// The file at `path` (schemaVersion 2, in any key order) as the bench writes it. Fails with the
// reader's one line.
Result<std::string> rewrite_run_summary(const std::string& path);

}  // namespace attnprof
