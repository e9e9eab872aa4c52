#pragma once
// `diff`: what changed between two traces of the same workload (A, the baseline, and B), region
// by region, with the noise of each trace taken into account.
//
// Totals. Each per-region quantity is summarized per trace as a Spread over its regions (median,
// min..max). A time moved when |median B - median A| exceeds its threshold:
//     max(2 x the larger half-range (max-min)/2 of A and B,  5 % of median A,  1 us)
// the region-to-region scatter of either trace, doubled, so that a change must stand clear of it;
// 5 %, because traces of a few regions understate their scatter; 1 us, below which a single
// trace's timing cannot tell anything. A count moved when its medians differ by more than twice
// the larger half-range (counts are exact, so usually: when they differ at all).
//
// Activities. The typical regions' activity sequences are aligned by a longest common subsequence
// on (kind, short name): order matters in a GPU stream, and an alignment puts each added or
// removed activity where it happened (a `Memcpy DtoD` between the scale and the masked_fill). When
// the two sequences are too long for that (more than kMaxAlignmentCells pairs left after
// trimming their common start and end), activities are matched by name and occurrence instead
// (the k-th `softmax_warp_forward` of A with the k-th of B), and `aligned_in_order` is false.
// A matched pair changed when its duration moved (the rule above, on that activity's durations in
// every region: the k-th activity of that name in each region), or when its launch API, op chain,
// grid, block, registers, shared memory or full name differ.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "attnprof/analysis.h"
#include "attnprof/region_facts.h"
#include "attnprof/result.h"

namespace attnprof {

inline constexpr double kMinTimeChangeNs = 1000;
inline constexpr double kMinRelativeChange = 0.05;
inline constexpr int64_t kMaxAlignmentCells = int64_t{64} << 20;

struct QuantityDiff {
  Spread a, b;
  double delta = 0;      // b.median - a.median
  double threshold = 0;  // what |delta| must exceed to count as a change
  bool changed = false;
};

// Compares two spreads of a time (ns) or a count, by the rules above.
QuantityDiff diff_time(const Spread& a, const Spread& b);
QuantityDiff diff_count(const Spread& a, const Spread& b);

struct ClassDiff {
  KernelClass kernel_class = KernelClass::kOther;
  QuantityDiff count;    // activities of the class per region
  QuantityDiff time_ns;  // their summed duration per region
};

enum class ActivityChange : uint8_t { kSame, kChanged, kAdded, kRemoved };
// "same", "changed", "added" or "removed": the word diff's CSV and the Python module print.
const char* activity_change_id(ActivityChange change);

// One activity of a typical region, with its duration in every region of its trace.
struct TracedActivity {
  ActivityRow row;
  Spread duration_ns;
};

struct ActivityDiff {
  ActivityChange change = ActivityChange::kSame;
  KernelClass kernel_class = KernelClass::kOther;
  std::optional<TracedActivity> a, b;    // removed: a only; added: b only
  std::optional<QuantityDiff> duration;  // matched pairs
  // For a changed pair, what changed, each a short phrase: "duration", "op chain", "grid", ...
  std::vector<std::string> what_changed;
};

struct TraceSide {
  std::string path;
  std::string region_pattern;
  int64_t regions = 0;
  int typical_region = -1;  // index into the trace's regions
  std::string typical_region_name;
};

struct TraceDiff {
  TraceSide a, b;
  // What makes the sides not like for like: a different device, attention element type or shape,
  // one phrase each (analysis/workload_mismatch.h); empty when they agree or do not say.
  std::vector<std::string> unlike;
  QuantityDiff kernels, memcpy, memset, gpu_busy_ns, wall_ns, cpu_ns;
  // The time breakdown (attnprof/time_breakdown.h) per region.
  QuantityDiff idle_ns, compute_ns, communication_ns, memory_ns;
  std::map<std::string, QuantityDiff> memcpy_by_kind;  // kinds present in either trace
  // Idle time by cause, launch delays and queues (RegionWaits), named as check's metrics are
  // (idle_host_wait_us, ...), each a time (ns) or a count; a launch delay only where both traces
  // have one. Text and Markdown show the changed ones.
  struct WaitDiff {
    std::string metric;
    bool is_time = true;
    QuantityDiff quantity;
  };
  std::vector<WaitDiff> waits;
  std::vector<ClassDiff>
      classes;  // classes with activities in either trace, in kAllKernelClasses order
  std::vector<ActivityDiff> activities;  // the aligned sequence, in GPU order
  bool aligned_in_order = true;
  int added = 0, removed = 0, changed = 0, unchanged = 0;
};

// Fails when either trace has no region (the message names the trace and the pattern).
// Durations per region come from the regions whose activities are listed (analyze both with
// activities_of_every_region for spreads over every region).
Result<TraceDiff> diff_traces(const TraceAnalysis& a, const TraceAnalysis& b);

}  // namespace attnprof
