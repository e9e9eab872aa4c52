#include "summary_json.h"

#include "io/output_file.h"
#include "render/json_writer.h"
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

void write_region(JsonWriter& json, const RegionFacts& f) {
  json.begin_object();
  json.key("regions").number(f.regions);
  json.key("kernels").number(f.kernels);
  json.key("memcpy").number(f.memcpy);
  json.key("memcpyByKind").begin_object();
  for (const auto& [kind, count] : f.memcpy_by_kind) json.key(kind).number(count);
  json.end_object();
  json.key("memset").number(f.memset);
  json.key("gpuBusyUs").number(f.gpu_busy_us);
  json.key("wallUs").number(f.wall_us);
  json.key("cpuUs").number(f.cpu_us);
  json.key("mainKernel").string(f.main_kernel);
  json.key("mainKernelUs").number(f.main_kernel_us);
  json.key("launchApi").string(f.launch_api);
  number_or_null(json.key("occupancyPct"), f.occupancy_pct);
  json.key("occupancyLimiter").string(f.occupancy_limiter);
  number_or_null(json.key("kinetoOccupancyPct"), f.kineto_occupancy_pct);
  json.key("diagnostics").number(static_cast<int64_t>(f.diagnostics));
  json.key("expectations").begin_array();
  for (const ExpectationResult& e : f.expectations) {
    json.begin_object();
    json.key("text").string(e.text);
    json.key("source").string(e.source);
    json.key("holds").boolean(e.holds);
    json.key("actual").string(e.actual);
    json.end_object();
  }
  json.end_array();
  json.key("findings").begin_array();
  for (const Finding& finding : f.findings) {
    json.begin_object();
    json.key("id").string(finding_id(finding.kind));
    json.key("summary").string(finding.summary);
    json.key("suggestion").string(finding.suggestion);
    json.end_object();
  }
  json.end_array();
  json.end_object();
}

void write_variant(JsonWriter& json, const VariantRow& row) {
  const VariantMeasurement& m = row.measurement;
  json.begin_object();
  json.key("variant").string(name(m.variant));
  json.key("status").string(name(m.status));
  json.key("reason").string(m.reason);
  json.key("chosenBackend").string(m.chosen_backend);
  json.key("correctness");
  if (m.correctness) {
    json.begin_object();
    json.key("threshold").number(m.correctness->threshold);
    json.key("outputError").number(m.correctness->output_error);
    number_or_null(json.key("gradError"), m.correctness->grad_error);
    json.key("passed").boolean(m.correctness->passed);
    json.end_object();
  } else {
    json.null();
  }
  json.key("timing");
  if (m.timing) {
    json.begin_object();
    json.key("medianMs").number(m.timing->median_ms);
    json.key("minMs").number(m.timing->min_ms);
    json.key("maxMs").number(m.timing->max_ms);
    json.key("meanMs").number(m.timing->mean_ms);
    json.key("reps").number(m.timing->reps);
    json.key("inputSets").number(m.timing->input_sets);
    json.key("inputSetBytes").number(m.timing->input_set_bytes);
    json.end_object();
  } else {
    json.null();
  }
  number_or_null(json.key("tflops"), row.tflops);
  number_or_null(json.key("percentOfPeak"), row.percent_of_peak);
  number_or_null(json.key("peakAllocatedBytes"), m.peak_allocated_bytes);
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

void write_point(JsonWriter& json, const StudyPoint& point) {
  const Problem& p = point.problem;
  json.begin_object();
  json.key("problem").begin_object();
  json.key("batch").number(p.batch);
  json.key("heads").number(p.heads);
  json.key("seq").number(p.seq);
  json.key("headDim").number(p.head_dim);
  json.key("dtype").string(name(p.dtype));
  json.key("mask").string(name(p.mask));
  json.key("backward").boolean(p.backward);
  json.key("device").string(name(p.device));
  json.end_object();
  json.key("flopsPerCall").number(point.flops);
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
  json.key("variants").begin_array();
  for (const VariantRow& row : point.rows) write_variant(json, row);
  json.end_array();
  json.end_object();
}

}  // namespace

std::string summary_json(const StudyReport& report) {
  JsonWriter json;
  json.begin_object();
  json.key("schemaVersion").number(kSummarySchemaVersion);
  json.key("tool").string("attnprof bench");
  const DeviceInfo& d = report.device;
  json.key("environment").begin_object();
  json.key("device").string(d.name);
  json.key("smCount").number(d.sm_count);
  json.key("computeCapability");
  if (d.sm_count > 0) {
    json.string(std::to_string(d.compute_major) + "." + std::to_string(d.compute_minor));
  } else {
    json.null();  // the CPU
  }
  json.key("l2Bytes").number(d.l2_bytes);
  json.key("memoryBytes").number(d.memory_bytes);
  json.key("tf32Matmul").boolean(d.tf32_matmul);
  json.key("torch").string(report.versions.torch);
  json.key("cudaRuntime").string(report.versions.cuda_runtime);
  json.key("cudnn").string(report.versions.cudnn);
  json.end_object();
  const RunSettings& s = report.settings;
  json.key("settings").begin_object();
  json.key("timeBudgetSeconds").number(s.time_budget_s);
  json.key("minReps").number(s.min_reps);
  json.key("maxReps").number(s.max_reps);
  json.key("traceRegions").number(s.trace_iterations);
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
  for (const StudyPoint& point : report.points) write_point(json, point);
  json.end_array();
  json.end_object();
  return json.take() + "\n";
}

Status write_summary_json(const StudyReport& report, const std::string& path) {
  return write_output_file(path, summary_json(report));
}

}  // namespace attnprof::bench
