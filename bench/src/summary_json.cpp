#include "summary_json.h"

#include "io/output_file.h"
#include "render/counters_json.h"
#include "render/facts_json.h"
#include "render/json_writer.h"
#include "render/run_summary_json.h"
#include "study_table.h"

namespace attnprof::bench {
namespace {

// The core's writer, with the optional values summary.json has (absent: null).
JsonWriter& number_or_null(JsonWriter& json, const std::optional<double>& value) {
  return value ? json.number(*value) : json.null();
}
JsonWriter& number_or_null(JsonWriter& json, const std::optional<int64_t>& value) {
  return value ? json.number(*value) : json.null();
}

// The problem and the environment in the core's run model, whose field tables write them
// (reader/run_summary_fields.h): the reader reads them through the same tables.
RunProblem run_problem(const Problem& p) {
  RunProblem r;
  r.batch = p.batch;
  r.heads = p.heads;
  r.kv_heads = p.kv_heads;
  r.q_seq = p.q_seq;
  r.seq = p.seq;
  r.head_dim = p.head_dim;
  r.window = p.window;
  r.dtype = name(p.dtype);
  r.mask = name(p.mask);
  r.backward = p.backward;
  r.device = name(p.device);
  return r;
}

RunSummary run_environment(const StudyReport& report) {
  const DeviceInfo& d = report.device;
  RunSummary r;
  r.device = d.name;
  r.sm_count = d.sm_count;
  // Empty on the CPU, written as null.
  if (d.sm_count > 0)
    r.compute_capability = std::to_string(d.compute_major) + "." + std::to_string(d.compute_minor);
  r.l2_bytes = d.l2_bytes;
  r.memory_bytes = d.memory_bytes;
  r.tf32_matmul = d.tf32_matmul;
  r.torch = report.versions.torch;
  r.cuda_runtime = report.versions.cuda_runtime;
  r.cudnn = report.versions.cudnn;
  return r;
}

void write_region(JsonWriter& json, const TraceFacts& f) {
  json.begin_object();
  json.key("regions").number(f.facts.regions);
  write_median_fields(json, f.facts);
  write_main_kernel_fields(json, f.facts);
  json.key("diagnostics").number(f.diagnostics);
  json.key("expectations").begin_array();
  for (const ExpectationResult& e : f.expectations) write_expectation_result(json, e);
  json.end_array();
  json.key("findings").begin_array();
  for (const Finding& finding : f.findings) write_finding(json, finding);
  json.end_array();
  json.end_object();
}

// null when --counters was not given; else the sum, every kernel, and the roofline point.
void write_variant_counters(JsonWriter& json, const VariantRow& row, bool requested) {
  json.key("counters");
  if (!requested) {
    json.null();
    return;
  }
  json.begin_object();
  json.key("file").string(row.counters_file);
  json.key("error").string(row.counters_error);
  json.key("total");
  if (row.counters)
    write_counter_totals(json, *row.counters);
  else
    json.null();
  json.key("kernels").begin_array();
  for (const KernelCounters& k : row.kernel_counters) write_kernel_counters(json, k);
  json.end_array();
  number_or_null(json.key("intensity_flop_per_byte"), row.intensity);
  number_or_null(json.key("percent_of_roof"), row.percent_of_roof);
  json.end_object();
}

// The run's counters: the tool, the copy kernel (the memory roof) and the compute roofs.
void write_run_counters(JsonWriter& json, const StudyReport& report) {
  const CounterRun& run = report.counters;
  json.key("counters");
  if (!run.requested) {
    json.null();
    return;
  }
  json.begin_object();
  json.key("tool").string(run.tool);
  json.key("unavailable").string(run.unavailable);
  json.key("seconds").number(run.seconds);
  json.key("clock_control").string("none");
  json.key("copy").begin_object();
  json.key("op").string(kCopyKernelOp);
  json.key("error").string(run.copy_error);
  if (run.copy) {
    json.key("bytes_per_call").number(run.copy->bytes_per_call);
    json.key("median_ms").number(run.copy->median_ms);
    json.key("reps").number(run.copy->reps);
    json.key("bandwidth_bytes_per_s").number(run.copy->bytes_per_s());
  } else {
    json.key("bandwidth_bytes_per_s").null();
  }
  number_or_null(json.key("datasheet_bandwidth_bytes_per_s"),
                 datasheet_memory_bandwidth(report.device.name));
  json.key("kernels").begin_array();
  for (const KernelCounters& k : run.copy_kernels) write_kernel_counters(json, k);
  json.end_array();
  json.end_object();
  json.key("roofs").begin_array();
  for (const auto& [label, dtype] :
       {std::pair{"bf16/fp16 tensor", Dtype::kBf16}, std::pair{"fp32", Dtype::kFp32}}) {
    if (auto peak = dense_peak(report.device.name, dtype, false)) {
      json.begin_object();
      json.key("name").string(label);
      json.key("flop_per_s").number(peak->tflops * 1e12);
      json.end_object();
    }
  }
  json.end_array();
  json.end_object();
}

void write_variant(JsonWriter& json, const VariantRow& row, bool counters) {
  const VariantMeasurement& m = row.measurement;
  json.begin_object();
  json.key("variant").string(row_name(m));
  json.key("status").string(name(m.status));
  json.key("reason").string(m.reason);
  json.key("chosen_backend").string(m.chosen_backend);
  json.key("custom_library").string(m.custom_library);
  json.key("correctness");
  if (m.correctness) {
    json.begin_object();
    json.key("threshold").number(m.correctness->threshold);
    json.key("output_error").number(m.correctness->output_error);
    number_or_null(json.key("grad_error"), m.correctness->grad_error);
    json.key("passed").boolean(m.correctness->passed);
    json.end_object();
  } else {
    json.null();
  }
  json.key("timing");
  if (m.timing) {
    json.begin_object();
    json.key("median_ms").number(m.timing->median_ms);
    json.key("min_ms").number(m.timing->min_ms);
    json.key("max_ms").number(m.timing->max_ms);
    json.key("mean_ms").number(m.timing->mean_ms);
    json.key("reps").number(m.timing->reps);
    json.key("input_sets").number(m.timing->input_sets);
    json.key("input_set_bytes").number(m.timing->input_set_bytes);
    json.end_object();
  } else {
    json.null();
  }
  number_or_null(json.key("tflops"), row.tflops);
  number_or_null(json.key("percent_of_peak"), row.percent_of_peak);
  number_or_null(json.key("kv_gbps"), row.kv_gbps);
  number_or_null(json.key("percent_of_hbm"), row.percent_of_hbm);
  number_or_null(json.key("peak_allocated_bytes"), m.peak_allocated_bytes);
  write_variant_counters(json, row, counters);
  json.key("trace").begin_object();
  json.key("file").string(row.trace_file);
  json.key("error").string(row.trace_error);
  json.key("forward");
  if (row.forward)
    write_region(json, *row.forward);
  else
    json.null();
  json.key("backward");
  if (row.backward)
    write_region(json, *row.backward);
  else
    json.null();
  json.end_object();
  json.end_object();
}

void write_point(JsonWriter& json, const StudyPoint& point, bool counters) {
  const Problem& p = point.problem;
  json.begin_object();
  json.key("problem");
  write_run_problem(json, run_problem(p));
  json.key("flops_per_call").number(point.flops);
  json.key("peak");
  if (point.peak) {
    json.begin_object();
    json.key("tflops").number(point.peak->tflops);
    json.key("precision").string(point.peak->precision);
    json.key("source").string(kPeakSource);
    json.end_object();
  } else {
    json.null();
  }
  json.key("bytes_per_call").begin_object();
  json.key("minimal").number(minimal_bytes(p));
  json.key("kv").number(kv_bytes(p));
  json.end_object();
  json.key("intensity_flop_per_byte").number(point.intensity);
  json.key("hbm");
  if (point.hbm) {
    json.begin_object();
    json.key("bytes_per_s").number(point.hbm->bytes_per_s);
    json.key("source").string(point.hbm->source);
    json.end_object();
  } else {
    json.null();
  }
  number_or_null(json.key("ridge_flop_per_byte"), point.ridge);
  json.key("bound");
  if (point.ridge)
    json.string(point.memory_bound ? "memory" : "compute");
  else
    json.null();
  json.key("variants").begin_array();
  for (const VariantRow& row : point.rows) write_variant(json, row, counters);
  json.end_array();
  json.end_object();
}

// --from-trace: the trace's calls, point i being call i (reader/run_summary.h's RunFromTrace).
void write_from_trace(JsonWriter& json, const StudyReport& report) {
  if (!report.from_trace) return;
  const TraceProblems& t = *report.from_trace;
  json.key("from_trace").begin_object();
  json.key("trace").string(t.trace);
  json.key("region").string(t.region);
  json.key("regions").number(t.regions);
  json.key("region_gpu_ms").number(t.region_gpu_ns / 1e6);
  json.key("calls").begin_array();
  for (size_t i = 0; i < t.calls.size(); ++i) {
    const TraceCall& c = t.calls[i];
    json.begin_object();
    json.key("point").number(static_cast<int64_t>(i));
    json.key("calls").number(c.calls);
    json.key("trace_ms").number(c.trace_ns / 1e6);
    json.key("backend").string(c.backend);
    json.key("op").string(c.op);
    json.key("assumed").string(c.assumed);
    json.end_object();
  }
  json.end_array();
  json.key("skipped").begin_array();
  for (const std::string& s : t.skipped) json.string(s);
  json.end_array();
  json.end_object();
}

}  // namespace

std::string summary_json(const StudyReport& report) {
  JsonWriter json;
  json.begin_object();
  json.key("schemaVersion").number(kSummarySchemaVersion);
  json.key("tool").string("attnprof bench");
  json.key("environment");
  write_run_environment(json, run_environment(report));
  const RunSettings& s = report.settings;
  json.key("settings").begin_object();
  json.key("time_budget_seconds").number(s.time_budget_s);
  json.key("min_reps").number(s.min_reps);
  json.key("max_reps").number(s.max_reps);
  json.key("trace_regions").number(s.trace_iterations);
  json.key("seed").string(std::to_string(s.seed));  // a string: 64-bit seeds exceed a double
  json.end_object();
  json.key("methods").begin_array();
  for (const std::string& note : method_notes(report)) json.string(note);
  json.end_array();
  json.key("sweep").begin_array();
  for (const SweepAxis& axis : report.sweeps) {
    json.begin_object();
    json.key("key").string(axis.key);
    json.key("values").begin_array();
    for (int64_t v : axis.values) json.number(v);
    json.end_array();
    json.end_object();
  }
  json.end_array();
  json.key("points").begin_array();
  for (const StudyPoint& point : report.points) write_point(json, point, report.counters.requested);
  json.end_array();
  write_run_counters(json, report);
  write_from_trace(json, report);
  json.end_object();
  return json.take() + "\n";
}

Status write_summary_json(const StudyReport& report, const std::string& path) {
  return write_output_file(path, summary_json(report));
}

}  // namespace attnprof::bench
