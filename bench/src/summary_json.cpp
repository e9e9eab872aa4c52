#include "summary_json.h"

#include <cmath>

#include "attnprof/findings.h"
#include "io/output_file.h"
#include "study/run/run_summary_json.h"
#include "study_table.h"

namespace attnprof::bench {
namespace {

// The run model (study/run/run_summary.h) is what summary.json holds: the core's writer writes it
// through the field tables its reader reads through (study/run/run_summary_fields.h). These fill it
// from what the bench measured.

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
  r.mask = p.mask == MaskKind::kNone       ? RunMask::kNone
           : p.mask == MaskKind::kExplicit ? RunMask::kExplicit
                                           : RunMask::kCausal;
  r.backward = p.backward;
  r.device = name(p.device);
  return r;
}

RunRegionFacts run_region(const TraceFacts& f) {
  RunRegionFacts r;
  r.facts = f.facts;
  r.diagnostics = static_cast<int64_t>(f.diagnostics);
  r.expectations = f.expectations;
  for (const Finding& finding : f.findings)
    r.findings.push_back({std::string(finding_id(finding.kind)), finding.summary, finding.evidence,
                          finding.suggestion, finding.regions_affected});
  return r;
}

RunVariant run_variant(const VariantRow& row, bool counters) {
  const VariantMeasurement& m = row.measurement;
  RunVariant r;
  r.variant = std::string(row_name(m));
  r.status = run_status(m.status);
  r.reason = m.reason;
  r.chosen_backend = m.chosen_backend;
  r.custom_library = m.custom_library;
  if (m.correctness) {
    r.checked = true;
    r.error_threshold = m.correctness->threshold;
    r.output_error = m.correctness->output_error;
    r.grad_error = m.correctness->grad_error;
    r.passed = m.correctness->passed;
  }
  if (m.timing) {
    r.median_ms = m.timing->median_ms;
    r.min_ms = m.timing->min_ms;
    r.max_ms = m.timing->max_ms;
    r.mean_ms = m.timing->mean_ms;
    r.reps = m.timing->reps;
    r.input_sets = m.timing->input_sets;
    r.input_set_bytes = m.timing->input_set_bytes;
  }
  r.tflops = row.tflops;
  r.percent_of_peak = row.percent_of_peak;
  r.kv_gbps = row.kv_gbps;
  r.percent_of_hbm = row.percent_of_hbm;
  r.peak_allocated_bytes = m.peak_allocated_bytes;
  r.counters_requested = counters;
  r.counters_file = row.counters_file;
  r.counters_error = row.counters_error;
  r.counters = row.counters;
  r.kernel_counters = row.kernel_counters;
  r.intensity = row.intensity;
  r.percent_of_roof = row.percent_of_roof;
  r.trace_file = row.trace_file;
  r.trace_error = row.trace_error;
  if (row.forward) r.forward = run_region(*row.forward);
  if (row.backward) r.backward = run_region(*row.backward);
  return r;
}

RunPoint run_point(const StudyPoint& point, bool counters) {
  const Problem& p = point.problem;
  RunPoint r;
  r.problem = run_problem(p);
  r.flops_per_call = point.flops;
  if (point.peak) {
    r.peak_tflops = point.peak->tflops;
    r.peak_precision = point.peak->precision;
    r.peak_source = kPeakSource;
  }
  r.minimal_bytes_per_call = minimal_bytes(p);
  r.kv_bytes_per_call = kv_bytes(p);
  r.intensity_flop_per_byte = point.intensity;
  if (point.hbm) {
    r.hbm_bytes_per_s = point.hbm->bytes_per_s;
    r.hbm_source = point.hbm->source;
  }
  r.ridge_flop_per_byte = point.ridge;
  r.memory_bound = point.memory_bound;
  for (const VariantRow& row : point.rows) r.variants.push_back(run_variant(row, counters));
  return r;
}

// The run's counters: the tool, the copy kernel (the memory roof) and the compute roofs.
RunCounters run_counters(const StudyReport& report) {
  const CounterRun& run = report.counters;
  RunCounters c;
  c.tool = run.tool;
  c.unavailable = run.unavailable;
  c.seconds = run.seconds;
  c.clock_control = "none";
  c.copy_op = kCopyKernelOp;
  c.copy_error = run.copy_error;
  if (run.copy) {
    c.copy_bytes_per_call = static_cast<double>(run.copy->bytes_per_call);
    c.copy_median_ms = run.copy->median_ms;
    c.copy_reps = run.copy->reps;
    c.bandwidth_bytes_per_s = run.copy->bytes_per_s();
  }
  c.datasheet_bandwidth_bytes_per_s = datasheet_memory_bandwidth(report.device.name);
  c.copy_kernels = run.copy_kernels;
  for (const auto& [label, dtype] :
       {std::pair{"bf16/fp16 tensor", Dtype::kBf16}, std::pair{"fp32", Dtype::kFp32}})
    if (auto peak = dense_peak(report.device.name, dtype, false))
      c.roofs.push_back({label, peak->tflops * 1e12});
  return c;
}

// --from-trace: the trace's calls, point i being call i.
RunFromTrace run_from_trace(const TraceProblems& t) {
  RunFromTrace r;
  r.trace = t.trace;
  r.region = t.region;
  r.regions = t.regions;
  r.region_gpu_ns = t.region_gpu_ns;
  for (size_t i = 0; i < t.calls.size(); ++i) {
    const TraceCall& c = t.calls[i];
    r.calls.push_back({static_cast<int>(i), c.calls, c.trace_ns, c.backend, c.op, c.assumed});
  }
  r.skipped = t.skipped;
  return r;
}

}  // namespace

RunSummary run_summary(const StudyReport& report) {
  const DeviceInfo& d = report.device;
  RunSummary r;
  r.schema_version = kSummarySchemaVersion;
  r.tool = "attnprof bench";
  r.additions = kEveryAddition;
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
  const RunSettings& s = report.settings;
  r.settings = {s.time_budget_s, s.min_reps, s.max_reps, s.trace_iterations,
                std::to_string(s.seed)};
  r.methods = method_notes(report);
  // The keys --sweep accepts are the run model's (kSweepKeyNames).
  for (const SweepAxis& axis : report.sweeps)
    if (const std::optional<SweepKey> key = parse_name_in(kSweepKeyNames, axis.key))
      r.sweep.push_back({*key, axis.values});
  for (const StudyPoint& point : report.points)
    r.points.push_back(run_point(point, report.counters.requested));
  if (report.counters.requested) r.counters = run_counters(report);
  if (report.from_trace) r.from_trace = run_from_trace(*report.from_trace);
  return r;
}

std::string summary_json(const StudyReport& report) {
  return write_run_summary(run_summary(report));
}

Status write_summary_json(const StudyReport& report, const std::string& path) {
  return write_output_file(path, summary_json(report));
}

}  // namespace attnprof::bench
