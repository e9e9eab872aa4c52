#include "attnprof/trace_diff.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <unordered_map>

#include "analysis/diff/diff_views.h"
#include "analysis/diff/workload_mismatch.h"
#include "analysis/kernels/kernel_class.h"
#include "analysis/regions/region_fact_catalog.h"
#include "analysis/spread.h"

namespace attnprof {

namespace {

// What identifies an activity across two traces: its kind and short name, interned to an int.
class KeyTable {
 public:
  int key(const ActivityRow& row) {
    std::string k = std::to_string(static_cast<int>(row.kind)) + '\x1f' + row.short_name;
    return ids_.emplace(std::move(k), static_cast<int>(ids_.size())).first->second;
  }

 private:
  std::unordered_map<std::string, int> ids_;
};

struct Sequence {
  std::vector<TracedActivity> activities;  // the typical region's
  std::vector<int> keys;
};

bool activities_listed(const RegionSummary& r) {
  return static_cast<int64_t>(r.activities.size()) == r.kernels + r.memcpy + r.memset;
}

// The typical region's activities, each with its durations over the listed regions: the k-th
// activity with the same key in each region is the same activity.
Sequence typical_sequence(const TraceAnalysis& t, KeyTable& keys) {
  Sequence seq;
  const RegionSummary& typical = t.regions[t.typical_region];
  std::vector<std::unordered_map<int, std::vector<int64_t>>> by_region;
  for (const auto& r : t.regions) {
    if (!activities_listed(r)) continue;
    auto& durations = by_region.emplace_back();
    for (const auto& a : r.activities) durations[keys.key(a)].push_back(a.duration_ns);
  }
  std::unordered_map<int, size_t> seen;
  for (const auto& a : typical.activities) {
    int key = keys.key(a);
    size_t occurrence = seen[key]++;
    std::vector<double> durations;
    for (const auto& region : by_region) {
      auto it = region.find(key);
      if (it != region.end() && occurrence < it->second.size())
        durations.push_back(static_cast<double>(it->second[occurrence]));
    }
    seq.activities.push_back(TracedActivity{a, spread_of(std::move(durations))});
    seq.keys.push_back(key);
  }
  return seq;
}

using Pairs = std::vector<std::pair<size_t, size_t>>;

// Longest common subsequence of a[lo_a, hi_a) and b[lo_b, hi_b), appended to `out` in order.
// Two rolling rows of lengths, and two bits per cell for the way back.
void lcs(const std::vector<int>& a, size_t lo_a, size_t hi_a, const std::vector<int>& b,
         size_t lo_b, size_t hi_b, Pairs& out) {
  size_t n = hi_a - lo_a, m = hi_b - lo_b;
  enum : uint8_t { kMatch = 0, kSkipA = 1, kSkipB = 2 };
  std::vector<uint8_t> way((n * m + 3) / 4, 0);
  auto set_way = [&](size_t i, size_t j, uint8_t w) {
    size_t cell = i * m + j;
    way[cell / 4] |= static_cast<uint8_t>(w << (2 * (cell % 4)));
  };
  auto get_way = [&](size_t i, size_t j) {
    size_t cell = i * m + j;
    return static_cast<uint8_t>((way[cell / 4] >> (2 * (cell % 4))) & 3);
  };
  // length[j]: LCS of a[i..] and b[j..] for the row being filled; below: for row i + 1.
  std::vector<uint32_t> below(m + 1, 0), length(m + 1, 0);
  for (size_t i = n; i-- > 0;) {
    length[m] = 0;
    for (size_t j = m; j-- > 0;) {
      if (a[lo_a + i] == b[lo_b + j]) {
        length[j] = below[j + 1] + 1;
        set_way(i, j, kMatch);
      } else if (below[j] >= length[j + 1]) {
        length[j] = below[j];
        set_way(i, j, kSkipA);
      } else {
        length[j] = length[j + 1];
        set_way(i, j, kSkipB);
      }
    }
    std::swap(below, length);
  }
  size_t i = 0, j = 0;
  while (i < n && j < m) {
    uint8_t w = get_way(i, j);
    if (w == kMatch)
      out.emplace_back(lo_a + i++, lo_b + j++);
    else if (w == kSkipA)
      ++i;
    else
      ++j;
  }
}

// Matched index pairs; `in_order` says whether they increase in both sequences.
Pairs align(const std::vector<int>& a, const std::vector<int>& b, bool& in_order) {
  Pairs pairs;
  size_t start = 0;
  while (start < a.size() && start < b.size() && a[start] == b[start]) {
    pairs.emplace_back(start, start);
    ++start;
  }
  size_t end_a = a.size(), end_b = b.size();
  Pairs tail;
  while (end_a > start && end_b > start && a[end_a - 1] == b[end_b - 1])
    tail.emplace_back(--end_a, --end_b);
  auto cells = static_cast<int64_t>(end_a - start) * static_cast<int64_t>(end_b - start);
  in_order = cells <= kMaxAlignmentCells;
  if (in_order) {
    lcs(a, start, end_a, b, start, end_b, pairs);
  } else {
    // By name and occurrence: the k-th of a key in A with the k-th in B.
    std::unordered_map<int, std::deque<size_t>> in_b;
    for (size_t j = start; j < end_b; ++j) in_b[b[j]].push_back(j);
    for (size_t i = start; i < end_a; ++i) {
      auto it = in_b.find(a[i]);
      if (it == in_b.end() || it->second.empty()) continue;
      pairs.emplace_back(i, it->second.front());
      it->second.pop_front();
    }
  }
  pairs.insert(pairs.end(), tail.rbegin(), tail.rend());
  return pairs;
}

std::vector<ActivityAspect> what_changed(const ActivityRow& a, const ActivityRow& b,
                                         bool duration) {
  std::vector<ActivityAspect> out;
  if (duration) out.push_back(ActivityAspect::kDuration);
  if (a.launch_api != b.launch_api) out.push_back(ActivityAspect::kLaunchApi);
  if (a.op_chain != b.op_chain) out.push_back(ActivityAspect::kOpChain);
  if (a.kind == ActivityKind::kKernel) {
    if (a.grid != b.grid) out.push_back(ActivityAspect::kGrid);
    if (a.block != b.block) out.push_back(ActivityAspect::kBlock);
    if (a.registers_per_thread != b.registers_per_thread) out.push_back(ActivityAspect::kRegisters);
    if (a.shared_memory_bytes != b.shared_memory_bytes)
      out.push_back(ActivityAspect::kSharedMemory);
    if (a.name != b.name) out.push_back(ActivityAspect::kFullName);
  } else if (a.bytes != b.bytes) {
    out.push_back(ActivityAspect::kBytes);
  }
  return out;
}

// A launch shape's change alone does not make a pair changed (TraceDiff::changed_only_in).
bool launch_shape(ActivityAspect what) {
  return what == ActivityAspect::kGrid || what == ActivityAspect::kBlock ||
         what == ActivityAspect::kRegisters || what == ActivityAspect::kSharedMemory;
}

ActivityDiff one_side(const TracedActivity& t, ActivityChange change) {
  ActivityDiff d;
  d.change = change;
  d.kernel_class = classify_activity(t.row);
  (change == ActivityChange::kRemoved ? d.a : d.b) = t;
  return d;
}

ActivityDiff matched(const TracedActivity& a, const TracedActivity& b) {
  ActivityDiff d;
  d.kernel_class = classify_activity(a.row);
  d.a = a;
  d.b = b;
  d.duration = diff_time(a.duration_ns, b.duration_ns);
  d.what_changed = what_changed(a.row, b.row, d.duration->changed);
  if (!d.duration->changed) {
    for (ActivityAspect what : d.what_changed)
      if (launch_shape(what)) d.changed_within_noise.push_back(what);
    std::erase_if(d.what_changed, launch_shape);
  }
  d.change = d.what_changed.empty() ? ActivityChange::kSame : ActivityChange::kChanged;
  return d;
}

std::vector<ActivityDiff> activity_diffs(const Sequence& a, const Sequence& b, bool& in_order) {
  Pairs pairs = align(a.keys, b.keys, in_order);
  std::vector<ActivityDiff> out;
  if (in_order) {
    size_t i = 0, j = 0;
    for (const auto& [pi, pj] : pairs) {
      for (; i < pi; ++i) out.push_back(one_side(a.activities[i], ActivityChange::kRemoved));
      for (; j < pj; ++j) out.push_back(one_side(b.activities[j], ActivityChange::kAdded));
      out.push_back(matched(a.activities[i++], b.activities[j++]));
    }
    for (; i < a.activities.size(); ++i)
      out.push_back(one_side(a.activities[i], ActivityChange::kRemoved));
    for (; j < b.activities.size(); ++j)
      out.push_back(one_side(b.activities[j], ActivityChange::kAdded));
    return out;
  }
  // Matched by name: A's order, then what B added.
  std::vector<long> partner(a.activities.size(), -1);
  std::vector<bool> b_matched(b.activities.size(), false);
  for (const auto& [pi, pj] : pairs) {
    partner[pi] = static_cast<long>(pj);
    b_matched[pj] = true;
  }
  for (size_t i = 0; i < a.activities.size(); ++i)
    out.push_back(partner[i] < 0 ? one_side(a.activities[i], ActivityChange::kRemoved)
                                 : matched(a.activities[i], b.activities[partner[i]]));
  for (size_t j = 0; j < b.activities.size(); ++j)
    if (!b_matched[j]) out.push_back(one_side(b.activities[j], ActivityChange::kAdded));
  return out;
}

TraceSide side_of(const TraceAnalysis& t) {
  return TraceSide{t.path, t.region_pattern, t.facts.regions, t.typical_region,
                   t.typical_region >= 0 ? t.regions[t.typical_region].name : std::string()};
}

// A kind the trace never counted is zero in every region.
Spread count_of_kind(const MetricValue& v, const RegionFacts& m, const std::string& kind) {
  auto it = v.by_kind.find(kind);
  if (it != v.by_kind.end()) return it->second;
  return spread_of(std::vector<double>(static_cast<size_t>(m.regions), 0.0));
}

bool has_spread(const MetricValue& v) {
  return v.available && (v.counts_by_kind || v.number.count > 0);
}

// `fact` over the regions of A and B by the rule of the unit diff compares it in; none where a
// trace lacks it.
std::optional<FactDiff> diff_fact(const RegionFact& fact, const RegionFacts& ma,
                                  const RegionFacts& mb) {
  const FactComparison& how = *fact.diff;
  const MetricValue va = how.value(ma), vb = how.value(mb);
  if (!has_spread(va) || !has_spread(vb)) return std::nullopt;
  FactDiff d{.fact = fact.name, .counts_by_kind = va.counts_by_kind};
  if (d.counts_by_kind) {
    std::map<std::string, int> kinds;
    for (const MetricValue* v : {&va, &vb})
      for (const auto& [kind, spread] : v->by_kind)
        if (spread.max > 0) kinds[kind] = 0;
    for (const auto& [kind, unused] : kinds)
      d.by_kind[kind] = diff_count(count_of_kind(va, ma, kind), count_of_kind(vb, mb, kind));
    return d;
  }
  switch (how.unit) {
    case FactUnit::kMicroseconds:
      d.quantity = diff_time(va.number, vb.number);
      break;
    case FactUnit::kMebibytes:
      d.quantity = diff_size(va.number, vb.number);
      break;
    default:
      d.quantity = diff_count(va.number, vb.number);
  }
  return d;
}

// Every fact diff compares: those every format shows, then those shown where they changed.
std::vector<FactDiff> diff_facts(const RegionFacts& ma, const RegionFacts& mb) {
  std::vector<FactDiff> out;
  for (DiffShown shown : {DiffShown::kAlways, DiffShown::kWhenChanged})
    for (const RegionFact& fact : region_fact_catalog())
      if (fact.diff && fact.diff->shown == shown)
        if (std::optional<FactDiff> d = diff_fact(fact, ma, mb)) out.push_back(std::move(*d));
  return out;
}

// Whether the per-region row of `fact` changed: the explanations answer the rows' own verdict.
bool changed_fact(const TraceDiff& d, std::string_view fact) {
  const FactDiff* row = d.find(fact);
  return row && row->quantity.changed;
}

Status has_regions(const TraceAnalysis& t) {
  if (!t.regions.empty()) return Status::success();
  if (t.region_pattern.empty())
    return make_error(ErrorKind::kUnmatched, "{}: the trace has no region to compare", t.path);
  return make_error(ErrorKind::kUnmatched, "{}: no region matches \"{}\"", t.path,
                    t.region_pattern);
}

}  // namespace

QuantityDiff diff_count(const Spread& a, const Spread& b) {
  QuantityDiff d{a, b, b.median - a.median, 2 * std::max(a.half_range(), b.half_range()), false};
  d.changed = std::fabs(d.delta) > d.threshold + 1e-9;
  return d;
}

const char* activity_change_id(ActivityChange change) {
  switch (change) {
    case ActivityChange::kSame:
      return "same";
    case ActivityChange::kChanged:
      return "changed";
    case ActivityChange::kAdded:
      return "added";
    case ActivityChange::kRemoved:
      return "removed";
  }
  return "same";
}

const char* activity_aspect_id(ActivityAspect aspect) {
  switch (aspect) {
    case ActivityAspect::kDuration:
      return "duration";
    case ActivityAspect::kLaunchApi:
      return "launch API";
    case ActivityAspect::kOpChain:
      return "op chain";
    case ActivityAspect::kGrid:
      return "grid";
    case ActivityAspect::kBlock:
      return "block";
    case ActivityAspect::kRegisters:
      return "registers";
    case ActivityAspect::kSharedMemory:
      return "shared memory";
    case ActivityAspect::kFullName:
      return "full name";
    case ActivityAspect::kBytes:
      return "bytes";
  }
  return "duration";
}

const char* explained_by_id(ExplainedBy view) {
  switch (view) {
    case ExplainedBy::kNone:
      return "";
    case ExplainedBy::kByOp:
      return "by_op";
    case ExplainedBy::kByKernel:
      return "by_kernel";
    case ExplainedBy::kPathByCategory:
      return "path_by_category";
    case ExplainedBy::kPathByItem:
      return "path_by_item";
  }
  return "";
}

QuantityDiff diff_size(const Spread& a, const Spread& b) {
  QuantityDiff d = diff_count(a, b);
  d.threshold = std::max(d.threshold, kMinRelativeChange * std::fabs(a.median));
  d.changed = std::fabs(d.delta) > d.threshold;
  return d;
}

namespace {

// The op of the typical region's highest peak over its devices; "" where it has none.
std::string typical_peak_op(const TraceAnalysis& t) {
  if (t.typical_region < 0 || static_cast<size_t>(t.typical_region) >= t.regions.size()) return {};
  const RegionMemory* top = nullptr;
  for (const RegionMemory& m : t.regions[static_cast<size_t>(t.typical_region)].memory)
    if (!top || m.peak_allocated_bytes > top->peak_allocated_bytes) top = &m;
  return top ? top->peak_op : std::string();
}

}  // namespace

const FactDiff* TraceDiff::find(std::string_view fact) const {
  for (const FactDiff& d : per_region)
    if (d.fact == fact) return &d;
  return nullptr;
}

QuantityDiff diff_time(const Spread& a, const Spread& b) {
  QuantityDiff d = diff_count(a, b);
  d.threshold = std::max({d.threshold, kMinRelativeChange * std::fabs(a.median), kMinTimeChangeNs});
  d.changed = std::fabs(d.delta) > d.threshold;
  return d;
}

Result<TraceDiff> diff_traces(const TraceAnalysis& a, const TraceAnalysis& b) {
  ATTNPROF_RETURN_IF_ERROR(has_regions(a));
  ATTNPROF_RETURN_IF_ERROR(has_regions(b));
  const RegionFacts &ma = a.facts, &mb = b.facts;
  TraceDiff d;
  d.a = side_of(a);
  d.b = side_of(b);
  d.unlike = workload_mismatches(a, b);
  d.per_region = diff_facts(ma, mb);
  if (ma.peak_allocated_bytes && mb.peak_allocated_bytes) {
    d.a_peak_op = typical_peak_op(a);
    d.b_peak_op = typical_peak_op(b);
  }
  for (KernelClass k : kAllKernelClasses) {
    const KernelClassFacts& ca = ma.by_class[static_cast<size_t>(k)];
    const KernelClassFacts& cb = mb.by_class[static_cast<size_t>(k)];
    if (ca.count.max == 0 && cb.count.max == 0) continue;
    d.classes.push_back(
        ClassDiff{k, diff_count(ca.count, cb.count), diff_time(ca.time_ns, cb.time_ns)});
  }

  KeyTable keys;
  Sequence sa = typical_sequence(a, keys), sb = typical_sequence(b, keys);
  d.activities = activity_diffs(sa, sb, d.aligned_in_order);
  for (const auto& x : d.activities) {
    switch (x.change) {
      case ActivityChange::kSame:
        ++d.unchanged;
        if (!x.changed_within_noise.empty()) {
          std::string what;
          for (ActivityAspect w : x.changed_within_noise) {
            if (!what.empty()) what += ", ";
            what += activity_aspect_id(w);
          }
          ++d.changed_only_in[what];
        }
        break;
      case ActivityChange::kChanged:
        ++d.changed;
        break;
      case ActivityChange::kAdded:
        ++d.added;
        break;
      case ActivityChange::kRemoved:
        ++d.removed;
        break;
    }
  }
  d.views = diff_views(a, b);
  d.explained_gpu = explain_change(
      {{ExplainedBy::kByOp, &d.views.by_op}, {ExplainedBy::kByKernel, &d.views.by_kernel}},
      mean_gpu_busy_ns(a), mean_gpu_busy_ns(b), changed_fact(d, "gpu_busy_us"));
  d.explained_gpu.quantity = "gpu_busy";
  // The wall time's change by what held each step: its path's categories, or the kernels and
  // ops on it, whichever needs fewer rows.
  if (const std::optional<PathViews> path = diff_path_views(a, b)) {
    d.explained_wall =
        explain_change({{ExplainedBy::kPathByCategory, &path->by_category},
                        {ExplainedBy::kPathByItem, &path->by_item}},
                       path->a_length_ns, path->b_length_ns, changed_fact(d, "wall_us"));
    d.explained_wall->quantity = "wall";
  }
  return d;
}

}  // namespace attnprof
