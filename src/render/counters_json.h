#pragma once
// The JSON of hardware counters (attnprof/hardware_counters.h): one kernel's and a call's sum,
// spelled once for the bench's summary.json (docs/json-schema.md, "counters") and read back by
// reader/run_summary.cpp. Unknown counters are null.

#include "attnprof/hardware_counters.h"
#include "render/json_writer.h"

namespace attnprof {

// {"name", "grid", "block", "duration_ns", "achieved_occupancy_pct", "theoretical_occupancy_pct",
//  "tensor_pipe_pct", "fp32_pipe_pct", "dram_read_bytes", "dram_write_bytes",
//  "dram_throughput_pct", "l2_hit_rate_pct", "sm_throughput_pct", "sm_clock_hz", "tensor_flop",
//  "fp32_flop"}
void write_kernel_counters(JsonWriter& w, const KernelCounters& k);

// {"kernels", "duration_ns", "dram_read_bytes", "dram_write_bytes", "dram_bytes", "tensor_flop",
//  "fp32_flop", "achieved_occupancy_pct", "tensor_pipe_pct", "fp32_pipe_pct",
//  "dram_throughput_pct", "l2_hit_rate_pct", "sm_throughput_pct"}
void write_counter_totals(JsonWriter& w, const CounterTotals& t);

}  // namespace attnprof
