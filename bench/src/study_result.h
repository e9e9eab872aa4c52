#pragma once
// Everything one `attnprof bench` run measured, as plain data: what the table, summary.json,
// summary.md and the sweep CSV are rendered from.

#include <optional>
#include <string>
#include <vector>

#include "attnprof/hardware_counters.h"
#include "counted_call.h"
#include "device_info.h"
#include "gpu_peaks.h"
#include "problem.h"
#include "trace_facts.h"
#include "trace_problems.h"
#include "variant_runner.h"

namespace attnprof::bench {

struct VariantRow {
  VariantMeasurement measurement;
  std::string trace_file;   // the .json.gz, relative to the output folder; empty when none
  std::string trace_error;  // why there are no trace facts, when a trace was expected
  std::optional<TraceFacts> forward;   // from the trace's `forward` regions
  std::optional<TraceFacts> backward;  // with --backward, from its `backward` regions
  // The forward regions as `attnprof report` shows them, kept for --report (the trace is read
  // once).
  std::optional<ReportVariant> report;
  std::optional<double> tflops;  // useful FLOPs over the median GPU time
  std::optional<double> percent_of_peak;
  std::optional<double> kv_gbps;         // the bytes of K and V over the median GPU time, GB/s
  std::optional<double> percent_of_hbm;  // that rate over StudyPoint::hbm
  // --counters: every kernel of one typical call, as Nsight Compute measured it, and their sum.
  std::vector<KernelCounters> kernel_counters;
  std::optional<CounterTotals> counters;
  std::string counters_file;   // ncu's CSV, relative to the output folder
  std::string counters_error;  // why there are none, when they were asked for
  // On the roofline (docs/counters.md): useful FLOPs per DRAM byte, and the achieved TFLOP/s
  // over the roof at that intensity.
  std::optional<double> intensity;
  std::optional<double> percent_of_roof;
};

// The HBM bandwidth a point's rates are compared with, and where it comes from.
struct HbmBandwidth {
  double bytes_per_s = 0;
  std::string source;  // "copy kernel, measured in this run (--counters)" or the datasheet
};

struct StudyPoint {
  Problem problem;
  double flops = 0;  // per call (attention_flops)
  std::optional<PeakRate> peak;
  std::optional<HbmBandwidth> hbm;
  // Useful FLOPs over minimal_bytes; below the ridge point (peak FLOP/s over hbm) the point is
  // memory-bound and its table's rate is K/V GB/s and % of HBM.
  double intensity = 0;
  std::optional<double> ridge;
  bool memory_bound = false;
  std::vector<VariantRow> rows;
};

// A sweep's axis: `--sweep seq=512,1024` is {"seq", {512, 1024}}.
struct SweepAxis {
  std::string key;  // "seq", "head-dim", "batch", "heads", "kv-heads", "q-seq" or "window"
  std::vector<int64_t> values;
};

// What --counters measured beside the variants: the tool, the copy kernel's bandwidth (the
// roofline's memory roof) and its counters; or why there are none.
struct CounterRun {
  bool requested = false;
  std::string unavailable;  // one line, when no counters could be measured at all
  std::string tool;         // "ncu 2025.3.1.0"
  std::optional<CopyBandwidth> copy;
  std::vector<KernelCounters> copy_kernels;
  std::string copy_error;
  double seconds = 0;  // the wall time the counters added to the run
};

struct StudyReport {
  DeviceInfo device;
  LibraryVersions versions;
  RunSettings settings;  // budget, repetitions, trace regions, seed (trace path unused)
  std::vector<SweepAxis> sweeps;
  std::vector<StudyPoint> points;
  std::string expectations_file;  // "" without --expectations
  CounterRun counters;
  // --from-trace: the trace whose attention calls the points are, point i its call i.
  std::optional<TraceProblems> from_trace;
};

// True when a variant failed its correctness check or threw something other than unsupported
// or out-of-memory: what makes `attnprof bench` exit with 1.
bool has_failures(const StudyReport& report);

// False when an expectation (bench --expectations) failed on some variant's trace.
bool expectations_hold(const StudyReport& report);

}  // namespace attnprof::bench
