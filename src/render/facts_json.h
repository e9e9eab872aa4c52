#pragma once
// The JSON of a region's facts, of a finding and of an expectation's result: one function each,
// so that analyze, check and the bench's summary.json spell them the same way (snake_case,
// times in microseconds). study/run/run_summary.cpp reads the bench's back.

#include "attnprof/expectations.h"
#include "attnprof/findings.h"
#include "attnprof/region_facts.h"
#include "render/json_writer.h"

namespace attnprof {

// The medians, as fields of the object being written: "kernels", "memcpy", "memcpy_by_kind",
// "memset", "gpu_busy_us", "wall_us", "cpu_us".
void write_median_fields(JsonWriter& w, const RegionFacts& facts);

// The main kernel, as fields: "main_kernel" (short name), "main_kernel_us", "launch_api",
// "occupancy_pct", "occupancy_limiter", "kineto_occupancy_pct"; empty strings, 0 and nulls when
// the typical region ran no kernel.
void write_main_kernel_fields(JsonWriter& w, const RegionFacts& facts);

// {"id", "summary", "evidence", "suggestion", "regions_affected"}
void write_finding(JsonWriter& w, const Finding& finding);

// {"expression", "source", "holds", "actual"}
void write_expectation_result(JsonWriter& w, const ExpectationResult& result);

}  // namespace attnprof
