#pragma once
// summary.json's fields, declared once (docs/json-schema.md, "summary.json"): one function per
// object of the file lists its keys in the file's order, each with the member of the run model
// (study/run/run_summary.h) it fills. The reader (study/run/run_summary.cpp) and the writer
// (study/run/run_summary_json.h, which the bench and `attnprof summary-json` call) are two visitors
// of these same functions, so that the two sides of the file cannot drift apart, as Tracy's Worker
// reads and writes its own file. A field is added here, once, as one line
// (docs/ARCHITECTURE.md, "The run model and summary.json's field tables").
//
// A visitor V has, for a key and a member of the run model (const when writing):
//   v(key, member, options)  a number, integer, text, boolean, a nested object (a type with its
//                            own summary_fields), std::optional of one of these (null when
//                            empty) or a list of them;
//   v.group(key, present, body, options)  an object whose fields are members of the same owner
//                            (null when `present` is false: the body declares its fields);
//   v.flagged_group(key, flag, body, options)  the same, with a flag of the model saying whether
//                            the object is there (the reader sets it);
//   v.word(key, flag, if_true, if_false, present, options)  a boolean spelled as one of two words,
//                            null when `present` is false;
//   v.derived(key, value)    a value the writer computes from others and the reader skips;
//   v.region_facts(facts)    a region's medians and main kernel, which the region facts catalog
//                            (analysis/region_fact_catalog.h) declares;
//   v.actual_values(key, values)  an expectation's metrics, keyed by metric.

#include <concepts>
#include <optional>
#include <type_traits>

#include "study/run/run_summary.h"

namespace attnprof {

// How a field is written and read, beyond its type.
struct FieldOptions {
  // Written only when the run has this addition; absent, the reader notes the file lacks it.
  std::optional<SummaryAddition> addition;
  bool empty_is_null = false;   // a text written as null when empty (compute_capability on a CPU)
  bool null_is_absent = false;  // an empty optional is left out rather than written as null
  // The model's unit per the file's: a model in ns of a file in ms has 1e6 (read: times it;
  // written: divided by it, which gives the file's value back).
  double scale = 1;
  // A rate the roofline divides by: below this the reader refuses the file (0: no bound).
  double least = 0;
};

// The least rates a GPU's memory and arithmetic can have: a megabyte and a mega-FLOP a second.
inline constexpr double kLeastBytesPerSecond = 1e6;
inline constexpr double kLeastFlopPerSecond = 1e6;
inline constexpr double kLeastTeraflopPerSecond = kLeastFlopPerSecond / 1e12;

// T is U, const (writing) or not (reading).
template <typename T, typename U>
concept RunModel = std::same_as<std::remove_const_t<T>, U>;

inline constexpr FieldOptions kCounters{.addition = SummaryAddition::kCounters};
inline constexpr FieldOptions kExpectations{.addition = SummaryAddition::kExpectations};
inline constexpr FieldOptions kShapes{.addition = SummaryAddition::kShapes};

template <typename V, RunModel<RunProblem> T>
void summary_fields(V& v, T& p) {
  v("batch", p.batch);
  v("heads", p.heads);
  // Absent (files before GQA, decode and windows): kv_heads is the heads, q_seq the seq, window 0.
  v("kv_heads", p.kv_heads, kShapes);
  v("q_seq", p.q_seq, kShapes);
  v("seq", p.seq);
  v("head_dim", p.head_dim);
  v("window", p.window, kShapes);
  v("dtype", p.dtype);
  v("mask", p.mask);
  v("backward", p.backward);
  v("device", p.device);
}

template <typename V, RunModel<RunSettingsRecord> T>
void summary_fields(V& v, T& s) {
  v("time_budget_seconds", s.time_budget_seconds);
  v("min_reps", s.min_reps);
  v("max_reps", s.max_reps);
  v("trace_regions", s.trace_regions);
  v("seed", s.seed);
}

template <typename V, RunModel<RunSweepAxis> T>
void summary_fields(V& v, T& a) {
  v("key", a.key);
  v("values", a.values);
}

template <typename V, RunModel<RunFinding> T>
void summary_fields(V& v, T& f) {
  v("id", f.id);
  v("summary", f.summary);
  v("evidence", f.evidence, kExpectations);
  v("suggestion", f.suggestion);
  v("regions_affected", f.regions_affected, kExpectations);
}

template <typename V, RunModel<ExpectationResult> T>
void summary_fields(V& v, T& e) {
  v("expression", e.text);
  v("source", e.source);
  v("holds", e.holds);
  v.actual_values("actual", e.values);
  v("actual_text", e.actual);
}

template <typename V, RunModel<RunRegionFacts> T>
void summary_fields(V& v, T& r) {
  v("regions", r.facts.regions);
  v.region_facts(r.facts);
  v("diagnostics", r.diagnostics);
  v("expectations", r.expectations, kExpectations);
  v("findings", r.findings);
}

template <typename V, RunModel<KernelCounters> T>
void summary_fields(V& v, T& k) {
  v("name", k.name);
  v("grid", k.grid);
  v("block", k.block);
  v("duration_ns", k.duration_ns);
  v("achieved_occupancy_pct", k.achieved_occupancy_pct);
  v("theoretical_occupancy_pct", k.theoretical_occupancy_pct);
  v("tensor_pipe_pct", k.tensor_pipe_pct);
  v("fp32_pipe_pct", k.fp32_pipe_pct);
  v("dram_read_bytes", k.dram_read_bytes);
  v("dram_write_bytes", k.dram_write_bytes);
  v("dram_throughput_pct", k.dram_throughput_pct);
  v("l2_hit_rate_pct", k.l2_hit_rate_pct);
  v("sm_throughput_pct", k.sm_throughput_pct);
  v("sm_clock_hz", k.sm_clock_hz);
  v("tensor_flop", k.tensor_flop);
  v("fp32_flop", k.fp32_flop);
}

template <typename V, RunModel<CounterTotals> T>
void summary_fields(V& v, T& t) {
  v("kernels", t.kernels);
  v("duration_ns", t.duration_ns);
  v("dram_read_bytes", t.dram_read_bytes);
  v("dram_write_bytes", t.dram_write_bytes);
  v.derived("dram_bytes", t.dram_bytes());
  v("tensor_flop", t.tensor_flop);
  v("fp32_flop", t.fp32_flop);
  v("achieved_occupancy_pct", t.achieved_occupancy_pct);
  v("tensor_pipe_pct", t.tensor_pipe_pct);
  v("fp32_pipe_pct", t.fp32_pipe_pct);
  v("dram_throughput_pct", t.dram_throughput_pct);
  v("l2_hit_rate_pct", t.l2_hit_rate_pct);
  v("sm_throughput_pct", t.sm_throughput_pct);
}

template <typename V, RunModel<RunVariant> T>
void summary_fields(V& v, T& r) {
  v("variant", r.variant);
  v("status", r.status);
  v("reason", r.reason);
  v("chosen_backend", r.chosen_backend);
  v("custom_library", r.custom_library, {.addition = SummaryAddition::kCustomLibrary});
  v.flagged_group("correctness", r.checked, [&] {
    v("threshold", r.error_threshold);
    v("output_error", r.output_error);
    v("grad_error", r.grad_error);
    v("passed", r.passed);
  });
  v.group("timing", r.median_ms.has_value(), [&] {
    v("median_ms", r.median_ms);
    v("min_ms", r.min_ms);
    v("max_ms", r.max_ms);
    v("mean_ms", r.mean_ms);
    v("reps", r.reps);
    v("input_sets", r.input_sets);
    v("input_set_bytes", r.input_set_bytes);
  });
  v("tflops", r.tflops);
  v("percent_of_peak", r.percent_of_peak);
  v("kv_gbps", r.kv_gbps, kShapes);
  v("percent_of_hbm", r.percent_of_hbm, kShapes);
  v("peak_allocated_bytes", r.peak_allocated_bytes);
  v.flagged_group(
      "counters", r.counters_requested,
      [&] {
        v("file", r.counters_file);
        v("error", r.counters_error);
        v("total", r.counters);
        v("kernels", r.kernel_counters);
        v("intensity_flop_per_byte", r.intensity);
        v("percent_of_roof", r.percent_of_roof);
      },
      kCounters);
  v.group("trace", true, [&] {
    v("file", r.trace_file);
    v("error", r.trace_error);
    v("forward", r.forward);
    v("backward", r.backward);
  });
}

template <typename V, RunModel<RunPoint> T>
void summary_fields(V& v, T& p) {
  v("problem", p.problem);
  v("flops_per_call", p.flops_per_call);
  v.group("peak", p.peak_tflops.has_value(), [&] {
    v("tflops", p.peak_tflops, {.least = kLeastTeraflopPerSecond});
    v("precision", p.peak_precision);
    v("source", p.peak_source);
  });
  v.group(
      "bytes_per_call", true,
      [&] {
        v("minimal", p.minimal_bytes_per_call);
        v("kv", p.kv_bytes_per_call);
      },
      kShapes);
  v("intensity_flop_per_byte", p.intensity_flop_per_byte, kShapes);
  v.group(
      "hbm", p.hbm_bytes_per_s.has_value(),
      [&] {
        v("bytes_per_s", p.hbm_bytes_per_s, {.least = kLeastBytesPerSecond});
        v("source", p.hbm_source);
      },
      kShapes);
  v("ridge_flop_per_byte", p.ridge_flop_per_byte, kShapes);
  // Null where there is no ridge point (no peak or no bandwidth to compare with).
  v.word("bound", p.memory_bound, "memory", "compute", p.ridge_flop_per_byte.has_value(), kShapes);
  v("variants", p.variants);
}

template <typename V, RunModel<RunCounters> T>
void summary_fields(V& v, T& c) {
  // Null where no counters were asked for (study/run/run_summary.h's RunSummary::counters).
  v("tool", c.tool);
  v("unavailable", c.unavailable);
  v("seconds", c.seconds);
  v("clock_control", c.clock_control);
  v.group("copy", true, [&] {
    v("op", c.copy_op);
    v("error", c.copy_error);
    // Left out, not null, where the copy kernel did not run.
    v("bytes_per_call", c.copy_bytes_per_call, {.null_is_absent = true});
    v("median_ms", c.copy_median_ms, {.null_is_absent = true});
    v("reps", c.copy_reps, {.null_is_absent = true});
    v("bandwidth_bytes_per_s", c.bandwidth_bytes_per_s, {.least = kLeastBytesPerSecond});
    v("datasheet_bandwidth_bytes_per_s", c.datasheet_bandwidth_bytes_per_s,
      {.least = kLeastBytesPerSecond});
    v("kernels", c.copy_kernels);
  });
  v("roofs", c.roofs);
}

template <typename V, RunModel<RunCounters::Roof> T>
void summary_fields(V& v, T& r) {
  v("name", r.name);
  v("flop_per_s", r.flop_per_s, {.least = kLeastFlopPerSecond});
}

template <typename V, RunModel<RunTraceCall> T>
void summary_fields(V& v, T& c) {
  v("point", c.point);
  v("calls", c.calls);
  v("trace_ms", c.trace_ns, {.scale = 1e6});
  v("backend", c.backend);
  v("op", c.op);
  v("assumed", c.assumed);
}

template <typename V, RunModel<RunFromTrace> T>
void summary_fields(V& v, T& t) {
  v("trace", t.trace);
  v("region", t.region);
  v("regions", t.regions);
  v("region_gpu_ms", t.region_gpu_ns, {.scale = 1e6});
  v("calls", t.calls);
  v("skipped", t.skipped);
}

// The whole file. schemaVersion is checked by the reader before it reads the rest.
template <typename V, RunModel<RunSummary> T>
void summary_fields(V& v, T& s) {
  v("schemaVersion", s.schema_version);
  v("tool", s.tool);
  v.group("environment", true, [&] {
    v("device", s.device);
    v("sm_count", s.sm_count);
    v("compute_capability", s.compute_capability, {.empty_is_null = true});
    v("l2_bytes", s.l2_bytes);
    v("memory_bytes", s.memory_bytes);
    v("tf32_matmul", s.tf32_matmul);
    v("torch", s.torch);
    v("cuda_runtime", s.cuda_runtime);
    v("cudnn", s.cudnn);
  });
  v("settings", s.settings);
  v("methods", s.methods);
  v("sweep", s.sweep);
  v("points", s.points);
  v("counters", s.counters, kCounters);
  // Only bench --from-trace has it.
  v("from_trace", s.from_trace, {.null_is_absent = true});
}

}  // namespace attnprof
