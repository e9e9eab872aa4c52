#pragma once
// `attnprof bench` end to end: run the variants over the points, read their traces, print the
// table and write the summaries.

#include <string>
#include <vector>

#include "problem.h"
#include "study_expectations.h"
#include "study_result.h"
#include "trace_problems.h"
#include "variant_runner.h"

namespace attnprof::bench {

// `attnprof bench`'s exit codes.
inline constexpr int kExitAllRan = 0;         // every variant ran, passed, or was unsupported/OOM
inline constexpr int kExitVariantFailed = 1;  // a variant failed correctness or threw otherwise
inline constexpr int kExitUsage = 2;  // bad flags, no GPU for --device cuda, output not writable

struct StudyOptions {
  Problem problem;  // the base problem; sweeps vary it
  // --from-trace: the trace's distinct attention calls, one point each (then `problem` and
  // `sweeps` are not used).
  std::optional<TraceProblems> from_trace;
  std::vector<Variant> variants;
  // --custom: kernels of the user's, opened and checked already; their rows follow the variants'.
  std::vector<CustomKernel> custom_kernels;
  std::vector<SweepAxis> sweeps;
  std::string out_dir;
  RunSettings settings;  // trace_json_path is chosen per variant
  bool quiet = false;
  // --expectations: hypotheses checked on each variant's trace; a failure makes the exit code 1.
  std::string expectations_file;
  std::vector<VariantExpectation> expectations;
  bool report = false;    // --report: also write report.html
  bool counters = false;  // --counters: hardware counters by Nsight Compute, and the roofline
};

// Runs the study and prints its table on stdout (progress on stderr). Writes under out_dir: one
// trace per variant (<variant>.json.gz; with a sweep, <point>/<variant>.json.gz), summary.json,
// summary.md, with a sweep sweep.csv, and with `report` report.html. Returns one of the exit codes
// above.
int run_study(const StudyOptions& options);

}  // namespace attnprof::bench
