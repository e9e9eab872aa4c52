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
// grid, block, registers, shared memory or full name differ. A change of launch shape alone (grid,
// block, registers, shared memory) is listed only when the pair's duration moved too; otherwise
// the pair counts as the same and the change is only counted (TraceDiff::changed_only_in), since a
// recompiled kernel that takes as long is not what a user looks for.
//
// Views. Each side's work is also summed per kernel (short name), per op (the innermost op that
// launched it; in a CUDA graph replay, the op of its capture), per nn.Module class and per kind of
// attention call (pass and shape), region by region. A row gives the mean over each side's
// regions, so that a view's rows add up to the side's total (by kernel and by op: every GPU
// activity's time, the kernel classes' total), and is beyond noise by the rule above applied to
// the spread of its per-region sums. explained_by then names the fewest rows of the op or the
// kernel view that cover at least 80 % of the change of GPU busy time (docs/check-and-diff.md).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
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

// A size (MiB): the count's rule, and at least 5 % of A's median.
QuantityDiff diff_size(const Spread& a, const Spread& b);

// One per-region quantity of a fact of the region facts catalog: a duration (ns), a count or a
// size (MiB) by its rule, or a count by kind (memcpy_by_kind).
struct FactDiff {
  std::string fact;  // the catalog's name: "gpu_busy_us", "memcpy_by_kind", "peak_allocated_bytes"
  QuantityDiff quantity;
  bool counts_by_kind = false;
  std::map<std::string, QuantityDiff> by_kind;  // each kind either trace has
};

struct ClassDiff {
  KernelClass kernel_class = KernelClass::kOther;
  QuantityDiff count;    // activities of the class per region
  QuantityDiff time_ns;  // their summed duration per region
};

enum class ActivityChange : uint8_t { kSame, kChanged, kAdded, kRemoved };
// "same", "changed", "added" or "removed": the word diff's CSV and the Python module print.
const char* activity_change_id(ActivityChange change);

// What of a matched pair differs between A and B.
enum class ActivityAspect : uint8_t {
  kDuration,      // beyond noise
  kLaunchApi,     // the CUDA API that launched it
  kOpChain,       // the ops that launched it
  kGrid,          // kernels: the launch shape
  kBlock,         //
  kRegisters,     // per thread
  kSharedMemory,  //
  kFullName,      // kernels of one short name
  kBytes,         // copies and sets
};
// "duration", "launch API", "op chain", "grid", "block", "registers", "shared memory", "full
// name", "bytes": the words every output prints.
const char* activity_aspect_id(ActivityAspect aspect);

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
  // For a changed pair, what changed, in ActivityAspect's order.
  std::vector<ActivityAspect> what_changed;
  // For a pair whose duration held: the launch shape's changes (grid, block, registers, shared
  // memory) that alone do not make it changed.
  std::vector<ActivityAspect> changed_within_noise;
};

// One row of a view: a kernel, op, nn.Module class or kind of attention call, with its work per
// region on each side (the mean over that side's regions).
struct DiffRow {
  std::string name;  // short kernel name, op name, module class, or the attention call's shape
  // by_kernel: the full names folded into `name`, longest total first.
  std::vector<std::string> full_names;
  // attention: who ran the calls on each side and in what element type ("flash bf16"; several
  // joined with " + "), "" on a side without such calls.
  std::string a_detail, b_detail;
  double a_count = 0, b_count = 0;  // activities (kernels), calls (ops, modules, attention)
  double a_ns = 0, b_ns = 0;        // GPU time
  double delta_ns = 0;              // b_ns - a_ns
  double threshold_ns = 0;          // what |delta_ns| must exceed to count as a change
  bool changed = false;
  // 100 x delta / a; none where A has no time.
  std::optional<double> delta_pct() const {
    if (a_ns == 0) return std::nullopt;
    return 100.0 * delta_ns / a_ns;
  }
};

// Each sorted by |delta_ns|, largest first, then by name; complete (outputs cut them to --top).
struct DiffViews {
  std::vector<DiffRow> by_kernel;
  std::vector<DiffRow> by_op;  // work launched outside any op is the row "(no op)"
  std::vector<DiffRow> by_module;
  std::vector<DiffRow> attention;
};

// The view whose rows account for a change: the op or kernel view (GPU busy), the critical
// path's categories or its kernels and ops (wall); kNone when no row moves the total's way.
enum class ExplainedBy : uint8_t { kNone, kByOp, kByKernel, kPathByCategory, kPathByItem };
// "by_op", "by_kernel", "path_by_category", "path_by_item"; "" for kNone: JSON's `view`.
const char* explained_by_id(ExplainedBy view);

// The few rows of one view that account for a change of a total.
struct Explanation {
  ExplainedBy view = ExplainedBy::kNone;
  std::string quantity;                   // what changed: "gpu_busy", "wall"
  double total_a_ns = 0, total_b_ns = 0;  // the total per region (mean over the regions)
  double total_delta_ns = 0;
  bool total_changed = false;  // beyond noise (the per-region table's rule on its spreads)
  std::vector<DiffRow> rows;   // the fewest rows, largest share first
  double covered_pct = 0;      // their deltas' sum over total_delta_ns, in percent
};

// How much of a change must be named: rows are added until they cover this share.
inline constexpr double kExplainedShare = 0.8;

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
  // one phrase each (analysis/diff/workload_mismatch.h); empty when they agree or do not say.
  std::vector<std::string> unlike;
  // The per-region quantities: every fact of the region facts catalog that diff compares
  // (analysis/regions/region_fact_catalog.h, its `diff`) and both traces have; first those that
  // every format shows, then those shown where they changed (the waits), each in the catalog's
  // order. Among them the regions' peak CUDA memory allocated (the highest "Total Allocated" of
  // each region, where both traces have [memory] events: profile_memory=True), a size, whose
  // change needs 5 % of A's peak beyond the spread's rule.
  std::vector<FactDiff> per_region;
  // The op each typical region's peak memory was reached in; "" where the traces have none.
  std::string a_peak_op, b_peak_op;
  std::vector<ClassDiff>
      classes;  // classes with activities in either trace, in kAllKernelClasses order
  std::vector<ActivityDiff> activities;  // the aligned sequence, in GPU order
  bool aligned_in_order = true;
  int added = 0, removed = 0, changed = 0, unchanged = 0;
  // Pairs counted unchanged whose launch shape changed, by what changed ("registers",
  // "grid, registers"): "312 kernels changed only in registers".
  std::map<std::string, int> changed_only_in;
  DiffViews views;
  // The GPU busy time's change, by op or by kernel, whichever needs fewer rows.
  Explanation explained_gpu;
  // The wall time's change by the rows of the regions' critical paths: the path's categories
  // ("path_by_category": compute, cpu, sync, ...) or the kernels and ops on it ("path_by_item":
  // "kernel NAME", "op NAME", from each region's top), whichever needs fewer rows; none where a
  // region of either side has no path.
  std::optional<Explanation> explained_wall;

  // The per-region quantity of `fact` (a catalog name); none where diff does not compare it or a
  // trace lacks it.
  const FactDiff* find(std::string_view fact) const;
};

// Picks the fewest rows of `views` (each sorted as DiffViews is) whose deltas, taken the way of
// `total_delta_ns`, cover kExplainedShare of it; a view that cannot, the rows that cover most
// (at most 10). Between views: the one that reaches the share with fewer rows, else covers more.
Explanation explain_change(
    const std::vector<std::pair<ExplainedBy, const std::vector<DiffRow>*>>& views,
    double total_a_ns, double total_b_ns, bool total_changed);

// Fails when either trace has no region (the message names the trace and the pattern).
// Durations per region come from the regions whose activities are listed (analyze both with
// activities_of_every_region for spreads over every region).
Result<TraceDiff> diff_traces(const TraceAnalysis& a, const TraceAnalysis& b);

}  // namespace attnprof
