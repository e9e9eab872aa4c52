#include "render/counters_json.h"

namespace attnprof {

namespace {

void optional_number(JsonWriter& w, const char* key, const std::optional<double>& value) {
  w.key(key);
  if (value)
    w.number(*value);
  else
    w.null();
}

}  // namespace

void write_kernel_counters(JsonWriter& w, const KernelCounters& k) {
  w.begin_object();
  w.key("name").string(k.name);
  w.key("grid").string(k.grid);
  w.key("block").string(k.block);
  optional_number(w, "duration_ns", k.duration_ns);
  optional_number(w, "achieved_occupancy_pct", k.achieved_occupancy_pct);
  optional_number(w, "theoretical_occupancy_pct", k.theoretical_occupancy_pct);
  optional_number(w, "tensor_pipe_pct", k.tensor_pipe_pct);
  optional_number(w, "fp32_pipe_pct", k.fp32_pipe_pct);
  optional_number(w, "dram_read_bytes", k.dram_read_bytes);
  optional_number(w, "dram_write_bytes", k.dram_write_bytes);
  optional_number(w, "dram_throughput_pct", k.dram_throughput_pct);
  optional_number(w, "l2_hit_rate_pct", k.l2_hit_rate_pct);
  optional_number(w, "sm_throughput_pct", k.sm_throughput_pct);
  optional_number(w, "sm_clock_hz", k.sm_clock_hz);
  optional_number(w, "tensor_flop", k.tensor_flop);
  optional_number(w, "fp32_flop", k.fp32_flop);
  w.end_object();
}

void write_counter_totals(JsonWriter& w, const CounterTotals& t) {
  w.begin_object();
  w.key("kernels").number(t.kernels);
  w.key("duration_ns").number(t.duration_ns);
  optional_number(w, "dram_read_bytes", t.dram_read_bytes);
  optional_number(w, "dram_write_bytes", t.dram_write_bytes);
  optional_number(w, "dram_bytes", t.dram_bytes());
  optional_number(w, "tensor_flop", t.tensor_flop);
  optional_number(w, "fp32_flop", t.fp32_flop);
  optional_number(w, "achieved_occupancy_pct", t.achieved_occupancy_pct);
  optional_number(w, "tensor_pipe_pct", t.tensor_pipe_pct);
  optional_number(w, "fp32_pipe_pct", t.fp32_pipe_pct);
  optional_number(w, "dram_throughput_pct", t.dram_throughput_pct);
  optional_number(w, "l2_hit_rate_pct", t.l2_hit_rate_pct);
  optional_number(w, "sm_throughput_pct", t.sm_throughput_pct);
  w.end_object();
}

}  // namespace attnprof
