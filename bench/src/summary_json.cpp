#include "summary_json.h"

#include "atomic_file.h"
#include "json_writer.h"
#include "study_table.h"

namespace attnprof::bench {
namespace {

void write_region(JsonWriter& json, const RegionFacts& f) {
  json.begin_object();
  json.key("regions").value(f.regions);
  json.key("kernels").value(f.kernels);
  json.key("memcpy").value(f.memcpy);
  json.key("memcpyByKind").begin_object();
  for (const auto& [kind, count] : f.memcpy_by_kind) json.key(kind).value(count);
  json.end_object();
  json.key("memset").value(f.memset);
  json.key("gpuBusyUs").value(f.gpu_busy_us);
  json.key("wallUs").value(f.wall_us);
  json.key("cpuUs").value(f.cpu_us);
  json.key("mainKernel").value(f.main_kernel);
  json.key("mainKernelUs").value(f.main_kernel_us);
  json.key("launchApi").value(f.launch_api);
  json.key("occupancyPct").value(f.occupancy_pct);
  json.key("occupancyLimiter").value(f.occupancy_limiter);
  json.key("kinetoOccupancyPct").value(f.kineto_occupancy_pct);
  json.key("diagnostics").value(static_cast<int64_t>(f.diagnostics));
  json.end_object();
}

void write_variant(JsonWriter& json, const VariantRow& row) {
  const VariantMeasurement& m = row.measurement;
  json.begin_object();
  json.key("variant").value(name(m.variant));
  json.key("status").value(name(m.status));
  json.key("reason").value(m.reason);
  json.key("chosenBackend").value(m.chosen_backend);
  json.key("correctness");
  if (m.correctness) {
    json.begin_object();
    json.key("threshold").value(m.correctness->threshold);
    json.key("outputError").value(m.correctness->output_error);
    json.key("gradError").value(m.correctness->grad_error);
    json.key("passed").value(m.correctness->passed);
    json.end_object();
  } else {
    json.null();
  }
  json.key("timing");
  if (m.timing) {
    json.begin_object();
    json.key("medianMs").value(m.timing->median_ms);
    json.key("minMs").value(m.timing->min_ms);
    json.key("maxMs").value(m.timing->max_ms);
    json.key("meanMs").value(m.timing->mean_ms);
    json.key("reps").value(m.timing->reps);
    json.key("inputSets").value(m.timing->input_sets);
    json.key("inputSetBytes").value(m.timing->input_set_bytes);
    json.end_object();
  } else {
    json.null();
  }
  json.key("tflops").value(row.tflops);
  json.key("percentOfPeak").value(row.percent_of_peak);
  json.key("peakAllocatedBytes").value(m.peak_allocated_bytes);
  json.key("trace").begin_object();
  json.key("file").value(row.trace_file);
  json.key("error").value(row.trace_error);
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
  json.key("batch").value(p.batch);
  json.key("heads").value(p.heads);
  json.key("seq").value(p.seq);
  json.key("headDim").value(p.head_dim);
  json.key("dtype").value(name(p.dtype));
  json.key("mask").value(name(p.mask));
  json.key("backward").value(p.backward);
  json.key("device").value(name(p.device));
  json.end_object();
  json.key("flopsPerCall").value(point.flops);
  json.key("peak");
  if (point.peak) {
    json.begin_object();
    json.key("tflops").value(point.peak->tflops);
    json.key("precision").value(point.peak->precision);
    json.key("source").value(kPeakSource);
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
  json.key("schemaVersion").value(kSummarySchemaVersion);
  json.key("tool").value("attnprof bench");
  const DeviceInfo& d = report.device;
  json.key("environment").begin_object();
  json.key("device").value(d.name);
  json.key("smCount").value(d.sm_count);
  json.key("computeCapability");
  if (d.sm_count > 0) {
    json.value(std::to_string(d.compute_major) + "." + std::to_string(d.compute_minor));
  } else {
    json.null();  // the CPU
  }
  json.key("l2Bytes").value(d.l2_bytes);
  json.key("memoryBytes").value(d.memory_bytes);
  json.key("tf32Matmul").value(d.tf32_matmul);
  json.key("torch").value(report.versions.torch);
  json.key("cudaRuntime").value(report.versions.cuda_runtime);
  json.key("cudnn").value(report.versions.cudnn);
  json.end_object();
  const RunSettings& s = report.settings;
  json.key("settings").begin_object();
  json.key("timeBudgetSeconds").value(s.time_budget_s);
  json.key("minReps").value(s.min_reps);
  json.key("maxReps").value(s.max_reps);
  json.key("traceRegions").value(s.trace_iterations);
  json.key("seed").value(std::to_string(s.seed));  // a string: 64-bit seeds exceed a double
  json.end_object();
  json.key("methods").begin_array();
  for (const std::string& note : method_notes(report)) json.value(note);
  json.end_array();
  json.key("sweep").begin_array();
  for (const SweepAxis& axis : report.sweeps) {
    json.begin_object();
    json.key("key").value(axis.key);
    json.key("values").begin_array();
    for (int64_t v : axis.values) json.value(v);
    json.end_array();
    json.end_object();
  }
  json.end_array();
  json.key("points").begin_array();
  for (const StudyPoint& point : report.points) write_point(json, point);
  json.end_array();
  json.end_object();
  return json.text();
}

Status write_summary_json(const StudyReport& report, const std::string& path) {
  return write_file_atomically(path, summary_json(report));
}

}  // namespace attnprof::bench
