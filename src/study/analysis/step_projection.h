#pragma once
// What a backend switch would save in the step of the trace a `bench --from-trace` run measured,
// timed on the trace's own critical path: its attention calls' kernels scaled by the variant's
// GPU time over the trace's, and the CPU of the ops that launched them by the variant's CPU time
// over theirs (--what-if attention= and attention-cpu=, docs/CRITICAL_PATH.md). A faster kernel
// then saves only where the GPU holds the step. pipeline/step_projection_file.h reads the traces
// and times the steps; this file turns the run's measurements into the factors.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attnprof/critical_path.h"
#include "study/run/run_summary.h"

namespace attnprof {

// One call's CPU time in a variant's own trace: the critical path's attention_cpu_ns of its
// `forward` regions (and `backward` for a backward problem), median over them.
struct VariantCallCpu {
  int point = 0;      // into RunSummary::points
  std::string label;  // variant_label()
  double ns = 0;
};

struct SwitchFactors {
  std::string variant;  // variant_label(): "sdpa-cudnn", "sdpa-auto (cudnn)"
  // The variant's GPU time over the trace's, summed over the calls the run measured (a call the
  // variant did not time keeps the trace's time).
  double attention = 1;
  // The variant's attention CPU time over the trace's, per region; none where a call has no
  // variant trace to measure it, or the trace's attention ops have no CPU time.
  std::optional<double> attention_cpu;
  // It runs the backend the trace ran (sdpa-cudnn or sdpa-auto choosing cuDNN for a cuDNN call;
  // naive or inplace for an unfused chain): its step is the run's reproduction of the trace's,
  // not a switch.
  bool same_backend = false;
};

// Whether variant `v` runs `backend` as attention_backend_id names it ("cudnn", "unfused").
bool runs_backend(const RunVariant& v, const std::string& backend);

// The factors of every variant that passed the float64 check at every point where it ran, in
// the order the variants were first met. `trace_attention_cpu_ns` is the trace's median
// attention_cpu_ns per region.
std::vector<SwitchFactors> switch_factors(const RunSummary& run,
                                          const std::vector<VariantCallCpu>& variant_cpu,
                                          double trace_attention_cpu_ns);

// `attention=F` and, where known, `attention-cpu=G`.
std::vector<WhatIfRule> what_if_rules_of(const SwitchFactors& factors);

struct SwitchedStep {
  SwitchFactors factors;
  double length_ns = 0;  // the step's critical path with the switch, median over the regions
};

// The trace's steps, as recorded and with each switch.
struct StepProjection {
  std::string trace;     // the file read
  std::string region;    // the regions' pattern ("" for analyze's default)
  int64_t regions = 0;   // how many were timed
  double length_ns = 0;  // the step's critical path (its wall time), median over the regions
  std::string bound_by;  // of the typical region (CriticalPath::bound_by)
  double attention_on_path_ns = 0;  // the attention kernels' time on the path, median
  double attention_cpu_ns = 0;      // what attention-cpu scales, median
  std::vector<SwitchedStep> switches;
  // The step with the variant that is the trace's own backend (TraceProjection's same_variant),
  // where the run has it: the check that the run reproduces the step. A step far from the
  // recorded one means the trace's attention ops pay a cost the run's calls do not (a plan built
  // per new shape, a first call), and part of every switch's saving is that cost.
  std::string same_variant;
  std::optional<double> same_length_ns;
};

// A step projection, or why there is none (the trace is not here, or cannot be read).
struct StepProjectionOutcome {
  std::optional<StepProjection> step;
  std::string missing;
};

}  // namespace attnprof
