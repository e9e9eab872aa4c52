#include "study.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "analysis/counter_totals.h"
#include "analysis/roofline.h"
#include "base/format_units.h"
#include "counters.h"
#include "device_info.h"
#include "gpu_peaks.h"
#include "gzip_file.h"
#include "io/output_file.h"
#include "pipeline/report_inputs.h"
#include "progress.h"
#include "render/display_text.h"
#include "study/render/report.h"
#include "study_table.h"
#include "summary_json.h"
#include "sweep.h"
#include "trace_facts.h"

namespace attnprof::bench {
namespace {

namespace fs = std::filesystem;

constexpr size_t kProgressReasonWidth = 60;

// Reads the study's facts from the variant's plain JSON trace with the core, once
// (docs/PERFORMANCE.md: it was gzipped, then inflated again for the forward, again for the backward
// and again for
// --report), then compresses it into `trace_file` (relative to out_dir), the name the facts give
// it. Failures land in row.trace_error: the measurement stands without them.
void attach_trace(VariantRow& row, const Problem& problem, const fs::path& out_dir,
                  const std::string& trace_file, const std::vector<Expectation>& expectations) {
  const std::string plain = row.measurement.trace_json_path;
  if (plain.empty()) return;
  const std::string compressed = (out_dir / trace_file).string();
  Result<TraceReading> reading =
      read_trace_facts(plain, problem.backward, expectations, compressed, row.counters);
  const Status gzipped = gzip_file(plain, compressed);
  std::error_code ignored;
  fs::remove(plain, ignored);
  if (!gzipped.ok()) {
    row.trace_error = gzipped.error().message;
    return;
  }
  row.trace_file = trace_file;
  if (!reading.ok()) {
    row.trace_error = reading.error().message;
    return;
  }
  row.forward = std::move(reading->forward);
  row.backward = std::move(reading->backward);
  row.trace_error = std::move(reading->backward_error);
  row.report = std::move(reading->report);
}

void attach_throughput(VariantRow& row, const StudyPoint& point) {
  const auto& timing = row.measurement.timing;
  if (!timing || timing->median_ms <= 0) return;
  row.tflops = point.flops / (timing->median_ms * 1e-3) / 1e12;
  if (point.peak) row.percent_of_peak = 100.0 * *row.tflops / point.peak->tflops;
  const double kv_bytes_per_s = kv_bytes(point.problem) / (timing->median_ms * 1e-3);
  row.kv_gbps = kv_bytes_per_s / 1e9;
  if (point.hbm) row.percent_of_hbm = 100.0 * kv_bytes_per_s / point.hbm->bytes_per_s;
}

// The bandwidth a point's K/V rate is compared with: the copy kernel's when --counters measured
// it, the datasheet's otherwise (none on the CPU, or for a GPU not in the table).
std::optional<HbmBandwidth> hbm_bandwidth(const StudyReport& report, DeviceKind device) {
  if (device != DeviceKind::kCuda) return std::nullopt;
  if (report.counters.copy)
    return HbmBandwidth{report.counters.copy->bytes_per_s(),
                        "a copy kernel in this run (--counters)"};
  if (auto datasheet = datasheet_memory_bandwidth(report.device.name))
    return HbmBandwidth{*datasheet, "the NVIDIA datasheet"};
  return std::nullopt;
}

// Where the point sits against the GPU's ridge point (peak FLOP/s over HBM bytes/s).
void attach_bound(StudyPoint& point, const StudyReport& report) {
  point.hbm = hbm_bandwidth(report, point.problem.device);
  point.intensity = point.flops / minimal_bytes(point.problem);
  if (!point.peak || !point.hbm) return;
  point.ridge = point.peak->tflops * 1e12 / point.hbm->bytes_per_s;
  point.memory_bound = point.intensity < *point.ridge;
}

// --counters, before the variants: the tool, then the copy kernel's bandwidth (timed in this
// process with CUDA events) and counters (in a child under ncu). Without the tool, one line says
// why and the study goes on.
fs::path counters_scratch() {
  return fs::temp_directory_path() / fmt::format("attnprof-counters-{}", ::getpid());
}

void say_no_counters(const std::string& reason) {
  std::fprintf(stderr, "attnprof bench: no hardware counters: %s; the study goes on without them\n",
               reason.c_str());
}

std::optional<NcuTool> start_counters(CounterRun& run, const fs::path& out_dir, bool quiet) {
  run.requested = true;
  const auto start = std::chrono::steady_clock::now();
  Result<NcuTool> ncu = find_ncu();
  if (!ncu.ok()) {
    run.unavailable = ncu.error().message;
    say_no_counters(run.unavailable);
    return std::nullopt;
  }
  run.tool = "ncu " + ncu->version;
  if (!quiet)
    std::fprintf(stderr, "counters: %s (%s); measuring the copy kernel\n", run.tool.c_str(),
                 ncu->path.c_str());
  std::string error;
  run.copy = measure_copy_bandwidth(false, error);
  if (!run.copy) run.copy_error = error;
  CounterChild child{"copy", Problem{}, 0};
  std::error_code ignored;
  fs::create_directories(out_dir / "counters", ignored);
  CounterMeasurement copy =
      measure_counters(*ncu, child, out_dir / "counters" / "copy.csv.gz", counters_scratch());
  run.copy_kernels = std::move(copy.kernels);
  if (!copy.error.empty() && run.copy_error.empty()) run.copy_error = copy.error;
  run.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (copy.stops_the_run) {
    run.unavailable = copy.error;
    say_no_counters(run.unavailable);
    return std::nullopt;
  }
  return *ncu;
}

// One variant's counters: a child run under ncu, its CSV kept under counters/. `custom` is a
// custom kernel's `NAME=PATH` for the child, empty for a variant.
void attach_counters(VariantRow& row, const NcuTool& ncu, CounterRun& run, const Problem& problem,
                     uint64_t seed, const fs::path& out_dir, const std::string& stem,
                     const std::string& custom) {
  if (row.measurement.status != VariantStatus::kOk) return;
  const std::string csv = "counters/" + stem + ".csv.gz";
  std::error_code error;
  fs::create_directories((out_dir / csv).parent_path(), error);
  CounterChild child{std::string(row_name(row.measurement)), problem, seed, custom};
  CounterMeasurement m = measure_counters(ncu, child, out_dir / csv, counters_scratch());
  run.seconds += m.seconds;
  if (!m.error.empty()) {
    row.counters_error = m.error;
    if (m.stops_the_run) {
      run.unavailable = m.error;
      say_no_counters(run.unavailable);
    }
    return;
  }
  row.counters_file = csv;
  row.counters = total_counters(m.kernels);
  row.kernel_counters = std::move(m.kernels);
}

// The variant's point on the roofline: useful FLOPs over the DRAM bytes its kernels moved, and
// its TFLOP/s over the roof there (the dtype's peak, or the copy kernel's bandwidth).
void attach_roofline(VariantRow& row, const StudyPoint& point, const CounterRun& run) {
  if (!row.counters || !row.counters->dram_bytes()) return;
  row.intensity = arithmetic_intensity(point.flops, *row.counters->dram_bytes());
  if (!row.intensity || !row.tflops || !point.peak || !run.copy) return;
  row.percent_of_roof = percent_of_roof({*row.intensity, *row.tflops * 1e12},
                                        point.peak->tflops * 1e12, run.copy->bytes_per_s());
}

std::string outcome(const VariantRow& row) {
  const VariantMeasurement& m = row.measurement;
  std::string text(name(m.status));
  if (m.timing) text += ", " + format_duration(m.timing->median_ms * 1e3 * 1e3);
  if (m.status != VariantStatus::kOk && !m.reason.empty()) {
    text += ": " + clip(m.reason, kProgressReasonWidth);
  }
  return text;
}

// The run's words come from the report's renderers (study/render/report.h) over the run as its
// summary.json holds it, handed over in memory, so that `attnprof report DIR --format text`
// reproduces the table the bench prints (table.txt), and --format md its summary.md. The traces
// were read once, as the run went: the report takes their descriptions rather than reading them
// again.
Result<ReportData> run_report_data(StudyReport& report, const fs::path& out_dir) {
  RunSummary run = run_summary(report);
  run.path = (out_dir / "summary.json").string();
  ReportOptions options;
  for (StudyPoint& point : report.points)
    for (VariantRow& row : point.rows)
      if (row.report) options.traces_read.emplace(row.trace_file, std::move(*row.report));
  return load_run_report(std::move(run), out_dir.string(), options);
}

// summary.json, then summary.md, sweep.csv and, with --report, report.html; the table for
// stdout in `table`.
Status write_outputs(StudyReport& report, const fs::path& out_dir, bool html, std::string& table) {
  ATTNPROF_RETURN_IF_ERROR(write_summary_json(report, (out_dir / "summary.json").string()));
  Result<ReportData> data = run_report_data(report, out_dir);
  if (!data.ok()) return data.error();
  table = render_report_text(*data) + render_expectations(report, "  ");
  ATTNPROF_RETURN_IF_ERROR(
      write_output_file((out_dir / "summary.md").string(),
                        render_report_markdown(*data) + render_expectations(report, "- ")));
  if (!report.sweeps.empty()) {
    ATTNPROF_RETURN_IF_ERROR(
        write_output_file((out_dir / "sweep.csv").string(), sweep_csv(report)));
  }
  if (html) {
    ATTNPROF_RETURN_IF_ERROR(
        write_output_file((out_dir / "report.html").string(), render_report_html(*data)));
  }
  return Status::success();
}

}  // namespace

int run_study(const StudyOptions& options) {
  StudyReport report;
  report.device = query_device(options.problem.device);
  if (!report.device.available) {
    std::fprintf(stderr,
                 "attnprof bench: %s (--device cpu runs the variants PyTorch has on the CPU)\n",
                 report.device.unavailable_reason.c_str());
    return kExitUsage;
  }
  report.versions = library_versions();
  report.settings = options.settings;
  report.sweeps = options.sweeps;
  report.expectations_file = options.expectations_file;
  report.from_trace = options.from_trace;

  const fs::path out_dir = options.out_dir;
  // The points: a sweep's, or the trace's distinct attention calls (one folder each, call1, ...,
  // in the order the trace first made them).
  std::vector<Problem> problems;
  std::vector<std::string> labels;
  if (options.from_trace) {
    for (const TraceCall& call : options.from_trace->calls) {
      problems.push_back(call.problem);
      labels.push_back(fmt::format("call{}", labels.size() + 1));
    }
  } else {
    problems = expand_sweep(options.problem, options.sweeps);
    for (const Problem& problem : problems) labels.push_back(point_label(problem));
  }
  const bool one_point = options.sweeps.empty() && !options.from_trace;
  std::error_code error;
  for (const std::string& label : labels) {
    const fs::path folder = one_point ? out_dir : out_dir / label;
    if (fs::create_directories(folder, error); error) {
      std::fprintf(stderr, "attnprof bench: cannot create %s: %s\n", folder.c_str(),
                   error.message().c_str());
      return kExitUsage;
    }
  }

  std::optional<NcuTool> ncu;
  if (options.counters) ncu = start_counters(report.counters, out_dir, options.quiet);

  Progress progress(Progress::mode_for_stderr(options.quiet));
  const int total =
      static_cast<int>(problems.size() * (options.variants.size() + options.custom_kernels.size()));
  int index = 0;
  for (size_t p = 0; p < problems.size(); ++p) {
    const Problem& problem = problems[p];
    StudyPoint point;
    point.problem = problem;
    point.flops = attention_flops(problem);
    if (problem.device == DeviceKind::kCuda) {
      point.peak = dense_peak(report.device.name, problem.dtype, report.device.tf32_matmul);
    }
    attach_bound(point, report);
    const std::string& label = labels[p];
    // One row: `measure` runs a variant or a custom kernel; the rest is the same for both.
    const auto add_row = [&](std::string_view row, const std::string& custom, const auto& measure) {
      progress.start(++index, total, label, row);
      const std::string stem = (one_point ? "" : label + "/") + std::string(row);
      const std::string trace_file = stem + ".json.gz";
      // A trace left by an earlier run must not pass for this run's.
      fs::remove(out_dir / trace_file, error);
      RunSettings settings = options.settings;
      settings.trace_json_path =
          settings.trace_iterations > 0 ? (out_dir / (stem + ".json")).string() : "";

      VariantRow result;
      result.measurement =
          measure(settings, [&](std::string_view phase) { progress.phase(phase); });
      // Counters first: the trace's facts carry them, for --expectations.
      if (ncu && report.counters.unavailable.empty()) {
        progress.phase("counters (ncu)");
        attach_counters(result, *ncu, report.counters, problem, settings.seed, out_dir, stem,
                        custom);
      }
      progress.phase("reading the trace");
      attach_trace(result, problem, out_dir, trace_file,
                   expectations_for(options.expectations, row));
      attach_throughput(result, point);
      attach_roofline(result, point, report.counters);
      progress.finish(outcome(result));
      point.rows.push_back(std::move(result));
    };
    for (const Variant variant : options.variants) {
      add_row(name(variant), "", [&](const RunSettings& settings, const PhaseCallback& on_phase) {
        return run_variant(variant, problem, settings, on_phase);
      });
    }
    for (const CustomKernel& kernel : options.custom_kernels) {
      // The child under ncu opens the library again: by an absolute path, whatever its folder.
      const std::string custom = kernel.name + "=" + fs::absolute(kernel.path).string();
      add_row(kernel.name, custom, [&](const RunSettings& settings, const PhaseCallback& on_phase) {
        return run_custom_kernel(kernel, problem, settings, on_phase);
      });
    }
    report.points.push_back(std::move(point));
  }

  if (ncu) {
    std::error_code ignored;
    fs::remove(counters_scratch(), ignored);  // emptied by measure_counters
    if (!options.quiet)
      std::fprintf(stderr, "counters: %.1f s added by ncu's runs\n", report.counters.seconds);
  }
  std::string table;
  if (const Status written = write_outputs(report, out_dir, options.report, table); !written.ok()) {
    std::fprintf(stderr, "attnprof bench: %s\n", written.error().message.c_str());
    return kExitUsage;
  }
  std::fputs(table.c_str(), stdout);
  // On stderr: the table on stdout is kept as the study's table.txt, where a path of the machine
  // that recorded it would mean nothing.
  std::fprintf(
      stderr, "\nTraces (open in https://ui.perfetto.dev), summary.json and summary.md%s%s in %s\n",
      report.sweeps.empty() ? "" : ", sweep.csv", options.report ? ", report.html" : "",
      out_dir.c_str());
  const int code =
      has_failures(report) || !expectations_hold(report) ? kExitVariantFailed : kExitAllRan;
  std::fflush(stdout);
  return code;
}

}  // namespace attnprof::bench
