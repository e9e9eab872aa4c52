#pragma once
// `diff` of two bench runs with counters (bench --counters): per variant, each counter of the
// call in run A and in run B, and whether it moved. Counters are measured once per call (no
// spread over regions), so a counter moved when it changed by more than 5 % of A (and, for a
// percentage, by more than 2 points): ncu's replays of one kernel agree far closer than that.

#include <optional>
#include <string>
#include <vector>

#include "study/run/run_summary.h"

namespace attnprof {

inline constexpr double kCounterRelativeChange = 0.05;
inline constexpr double kCounterPointsChange = 2;

struct CounterChange {
  std::string counter;  // "tensor_pipe_pct", as check names it
  std::optional<double> a, b;
  bool changed = false;
};

struct VariantCounterDiff {
  std::string variant;
  std::vector<CounterChange> counters;  // empty when either run has none for it
  std::string missing;                  // "only in A", "no counters in B", ...
};

struct CounterDiff {
  std::string a, b;  // the runs' summary.json paths
  std::vector<VariantCounterDiff> variants;
};

// The variants of each run's first point, matched by name, in A's order, then those only in B.
CounterDiff diff_counters(const RunSummary& a, const RunSummary& b);

}  // namespace attnprof
