#pragma once
// What switching attention would save in the trace a `bench --from-trace` run measured: per
// distinct call of its typical region, the time the trace spent on it against the fastest
// correct backend the run measured for the same problem, times the calls per region.

#include <optional>
#include <string>
#include <vector>

#include "study/analysis/step_projection.h"
#include "study/run/run_summary.h"

namespace attnprof {

struct CallProjection {
  int point = 0;  // the run's point that measured this call
  int64_t calls = 0;
  double trace_ns = 0;  // one call in the trace
  std::string backend;  // what ran it in the trace
  std::string assumed;  // how the trace's call became the point's problem, where it assumed
  // Each variant's time here is the GPU time of one call's kernels in its own trace (the median
  // over its forward regions, plus its backward regions' for a backward): the trace's own measure,
  // which a small call's CUDA-event median is not (it holds the launch gaps). Where a variant has
  // no trace, its CUDA-event median stands in, and `by_events` says so.
  bool by_events = false;
  // The study's variant that is the trace's backend ("sdpa-cudnn" for cuDNN, "naive" for an
  // unfused chain) and its time here: the check that the run reproduces the trace.
  std::string same_variant;
  std::optional<double> same_ns;
  // The fastest variant that passed the float64 check, and its time; none when none did.
  std::string best_variant;
  std::optional<double> best_ns;
  // (trace_ns - best_ns) x calls, when the best is faster than the trace's by more than
  // kProjectionNoise; else 0.
  double saving_ns = 0;
};

struct TraceProjection {
  std::vector<CallProjection> calls;
  double saving_ns = 0;      // per region, every call
  double region_gpu_ns = 0;  // what the saving is a share of
  // The trace's own time on the calls measured here (calls x time per call, summed): attention's
  // part of the region as far as the run measured it (a call it skipped is not in it).
  double attention_ns = 0;
  // The backends that ran the measured calls in the trace, each once, in the order of the calls.
  std::vector<std::string> backends;
  // The one variant to switch every measured call to (a call it did not measure stays as it ran),
  // where that shortens the region by at least kWorthSwitching of its GPU time; "" where none
  // does, so that no switch is recommended that saves little or makes the region slower.
  // With `step`, the switch is the one that shortens the step's critical path the most, by at
  // least kWorthSwitching of it, and its saving is the step's.
  std::string switch_variant;
  double switch_saving_ns = 0;  // per region, with every call switched to it
  // The trace's steps timed again with each switch (study/analysis/step_projection.h), where the
  // trace was read; else `step_missing` says why, and the switch weighs GPU time only.
  std::optional<StepProjection> step;
  std::string step_missing;
};

// A switch is recommended only when it saves at least this share of the region's GPU time.
inline constexpr double kWorthSwitching = 0.05;

// A backend saves time only when it is faster than the trace's call by more than this share: two
// runs of the same kernel differ by a few percent (docs/STUDY.md).
inline constexpr double kProjectionNoise = 0.05;

// One call's time for a variant of a point: its kernels' GPU time in its trace, else its
// CUDA-event median (`by_events` set).
std::optional<double> call_ns(const RunVariant& variant, bool backward, bool& by_events);

// None unless the run was made --from-trace.
std::optional<TraceProjection> project_trace(const RunSummary& run);

// Weighs the switch by the step: sets `step` and chooses switch_variant by it.
void weigh_by_step(TraceProjection& projection, StepProjection step);

// The study's variant for a backend as attention_backend_id names it ("cudnn" -> "sdpa-cudnn",
// "unfused" -> "naive"); "" when the study has none (flex, FA3, ...).
std::string study_variant_of(const std::string& backend);

}  // namespace attnprof
