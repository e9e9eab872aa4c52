#pragma once
// The inputs of `attnprof report`, read from files and analyzed: what study/analysis/report_data.h
// holds.
//
// Inputs (load_report):
// - a bench run's folder (or its summary.json): the table comes from summary.json; each variant's
//   trace is the file summary.json names, beside it or under traces/ (how examples/ ships them);
//   regions are `forward` unless asked otherwise. The sweep comes from the run itself when it
//   swept, else from sweep/summary.json, else from sweep.csv or sweep/sweep.csv. A backward study
//   beside it (backward/summary.json and its traces) is read too (ReportData::backward).
// - after a run's folder, model studies: folders `bench --from-trace` wrote (examples/models/*),
//   each read from its summary.json alone (ReportData::models); any other folder there is refused.
// - trace files: one variant per trace, named after the file; regions as `analyze` finds them.

#include <optional>
#include <string>
#include <vector>

#include "attnprof/result.h"
#include "study/analysis/report_data.h"

namespace attnprof {

struct Trace;

// The variant of a trace already read: analyze --explain of its regions matching
// `region_pattern`, the timeline of the typical one and its GPU time by kernel class; `missing`
// says why there is no timeline when no region matches.
void describe_variant(ReportVariant& variant, const Trace& trace, const ReportOptions& options,
                      const std::string& region_pattern);

// A bench variant's trace (bench/src/trace_facts.cpp), read once: its `forward` regions described
// as `report` describes a run's variant (describe_variant), and with `backward` its `backward`
// regions analyzed as `analyze --explain --region backward` does (analyze_read_trace).
struct VariantTrace {
  ReportVariant forward;  // its analysis has no regions when none is named `forward`
  std::optional<TraceAnalysis> backward;
  std::optional<Error> backward_error;  // why there is no backward analysis, when asked for one
};

// `name` is the trace's name in the analysis and its messages (the bench keeps LibTorch's plain
// JSON gzipped, under another name). Fails as analyze_file does when the trace cannot be read.
Result<VariantTrace> read_variant_trace(const std::string& path, const std::string& name,
                                        bool backward);

// Fails with one line when the inputs are neither bench folders (a run, then model studies) nor
// trace files, when a folder after the run is not a model study, when a
// run's summary.json cannot be read, or when a trace given on the command line cannot be read.
// A run's missing or unreadable trace is not an error: its variant says why it has no timeline.
Result<ReportData> load_report(const std::vector<std::string>& inputs,
                               const ReportOptions& options);

// The report of a bench run held in memory, as the bench has it when it ends: what load_report
// gives for its folder, without writing its summary.json and reading it back. The folder holds
// what the run refers to (its traces, sweep and backward study); the model studies beside a run
// come only through load_report.
Result<ReportData> load_run_report(RunSummary run, const std::string& folder,
                                   const ReportOptions& options);

}  // namespace attnprof
