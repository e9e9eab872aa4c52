#pragma once
// summary.json's fields written through their one table (reader/run_summary_fields.h), which the
// reader reads through too; the bench calls these (bench/src/summary_json.cpp).

#include "reader/run_summary.h"
#include "render/json_writer.h"

namespace attnprof {

// A point's `problem` object.
void write_run_problem(JsonWriter& json, const RunProblem& problem);
// The run's `environment` object.
void write_run_environment(JsonWriter& json, const RunSummary& run);

}  // namespace attnprof
