#include "analysis/diff/diff_views.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include <fmt/format.h>

#include "analysis/spread.h"

namespace attnprof {

namespace {

// One row's sums, region by region, on one side.
struct Sums {
  std::vector<double> ns, count;          // indexed by region
  std::map<std::string, double> details;  // full names or backends, with their time
};

// A view's rows of one side: key -> its sums over the side's regions.
using SideRows = std::map<std::string, Sums>;

class ViewBuilder {
 public:
  explicit ViewBuilder(size_t regions) : regions_(regions) {}
  void add(const std::string& key, size_t region, double ns, double count,
           const std::string& detail = {}) {
    Sums& s = rows_[key];
    if (s.ns.empty()) {
      s.ns.assign(regions_, 0);
      s.count.assign(regions_, 0);
    }
    s.ns[region] += ns;
    s.count[region] += count;
    if (!detail.empty()) s.details[detail] += ns;
  }
  SideRows take() { return std::move(rows_); }

 private:
  size_t regions_;
  SideRows rows_;
};

double mean(const std::vector<double>& values) {
  if (values.empty()) return 0;
  double sum = 0;
  for (double v : values) sum += v;
  return sum / static_cast<double>(values.size());
}

// The details longest first ("flash bf16 + math fp32" where both ran).
std::vector<std::string> by_time(const std::map<std::string, double>& details) {
  std::vector<std::pair<std::string, double>> list(details.begin(), details.end());
  std::stable_sort(list.begin(), list.end(),
                   [](const auto& x, const auto& y) { return x.second > y.second; });
  std::vector<std::string> out;
  for (auto& [name, unused] : list) out.push_back(std::move(name));
  return out;
}

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : " + ") + p;
  return out;
}

// A side without the row holds zeros in each of its regions.
const Sums& sums_or_zero(const SideRows& side, const std::string& key, size_t regions, Sums& zero) {
  auto it = side.find(key);
  if (it != side.end()) return it->second;
  zero.ns.assign(regions, 0);
  zero.count.assign(regions, 0);
  return zero;
}

enum class Detail { kNone, kFullNames, kBackends };

std::vector<DiffRow> compare(const SideRows& a, size_t regions_a, const SideRows& b,
                             size_t regions_b, Detail detail) {
  std::map<std::string, int> keys;
  for (const auto* side : {&a, &b})
    for (const auto& [key, unused] : *side) keys[key] = 0;
  std::vector<DiffRow> rows;
  for (const auto& [key, unused] : keys) {
    Sums zero_a, zero_b;
    const Sums& sa = sums_or_zero(a, key, regions_a, zero_a);
    const Sums& sb = sums_or_zero(b, key, regions_b, zero_b);
    DiffRow row;
    row.name = key;
    row.a_ns = mean(sa.ns);
    row.b_ns = mean(sb.ns);
    row.a_count = mean(sa.count);
    row.b_count = mean(sb.count);
    row.delta_ns = row.b_ns - row.a_ns;
    // The per-region table's rule on this row's spreads, measured from the means.
    QuantityDiff noise = diff_time(spread_of(sa.ns), spread_of(sb.ns));
    row.threshold_ns = std::max(noise.threshold, kMinRelativeChange * std::fabs(row.a_ns));
    row.changed = std::fabs(row.delta_ns) > row.threshold_ns;
    if (detail == Detail::kFullNames) {
      std::map<std::string, double> both = sa.details;
      for (const auto& [name, ns] : sb.details) both[name] += ns;
      row.full_names = by_time(both);
    } else if (detail == Detail::kBackends) {
      row.a_detail = joined(by_time(sa.details));
      row.b_detail = joined(by_time(sb.details));
    }
    rows.push_back(std::move(row));
  }
  std::stable_sort(rows.begin(), rows.end(), [](const DiffRow& x, const DiffRow& y) {
    return std::fabs(x.delta_ns) > std::fabs(y.delta_ns);
  });
  return rows;
}

std::string optional_words(const char* label, const std::optional<int64_t>& v) {
  return v ? fmt::format(" {}{}", label, *v) : std::string();
}

// What matches a call across the sides: its pass and shape, never its backend, element type or
// masking (those are what a change of attention changes, and an unfused chain does not record
// whether it is causal).
std::string attention_key(const AttentionCall& c) {
  std::string key = c.backward ? "backward" : "forward";
  if (!c.batch && !c.heads && !c.q_len && !c.kv_len && !c.head_dim) return key + ", shape unknown";
  key += optional_words("b", c.batch) + optional_words("h", c.heads);
  if (c.kv_heads && c.heads && *c.kv_heads != *c.heads) key += fmt::format("/{}", *c.kv_heads);
  return key + optional_words("q", c.q_len) + optional_words("kv", c.kv_len) +
         optional_words("d", c.head_dim);
}

// Who ran it and how: "flash bf16 causal", "unfused bf16".
std::string attention_detail(const AttentionCall& c) {
  std::string detail(attention_backend_id(c.backend));
  if (!c.dtype.empty()) detail += " " + c.dtype;
  if (c.causal) detail += *c.causal ? " causal" : " full";
  if (c.explicit_mask) detail += " mask";
  if (c.window) detail += fmt::format(" window{}", *c.window);
  return detail;
}

struct SideViews {
  SideRows kernels, ops, modules, attention;
  size_t regions = 0;
};

SideViews side_views(const TraceAnalysis& t) {
  const size_t n = t.regions.size();
  ViewBuilder kernels(n), ops(n), modules(n), attention(n);
  for (size_t r = 0; r < n; ++r) {
    const RegionSummary& region = t.regions[r];
    const RegionTables& tables = region.tables;
    double activity_ns = 0, launched_by_op_ns = 0;
    for (const KernelTotal& k : tables.kernels) {
      kernels.add(k.short_name, r, static_cast<double>(k.total_ns), static_cast<double>(k.count),
                  k.name);
      activity_ns += static_cast<double>(k.total_ns);
    }
    for (const OpTotal& op : tables.ops) {
      if (op.self_gpu_ns == 0) continue;
      ops.add(op.name, r, static_cast<double>(op.self_gpu_ns), static_cast<double>(op.calls));
      launched_by_op_ns += static_cast<double>(op.self_gpu_ns);
    }
    if (activity_ns > launched_by_op_ns) ops.add("(no op)", r, activity_ns - launched_by_op_ns, 0);
    for (const ModuleTotal& m : tables.module_classes)
      modules.add(m.name, r, static_cast<double>(m.gpu_ns), static_cast<double>(m.calls));
    for (const AttentionCall& c : region.attention.calls)
      attention.add(attention_key(c), r, static_cast<double>(c.gpu_ns), 1, attention_detail(c));
  }
  return SideViews{kernels.take(), ops.take(), modules.take(), attention.take(), n};
}

}  // namespace

double mean_gpu_busy_ns(const TraceAnalysis& t) {
  std::vector<double> busy;
  for (const RegionSummary& r : t.regions) busy.push_back(static_cast<double>(r.gpu_busy_ns));
  return mean(busy);
}

namespace {

struct SidePath {
  SideRows categories, items;
  std::vector<double> lengths;
};

std::optional<SidePath> side_path(const TraceAnalysis& t) {
  const size_t n = t.regions.size();
  ViewBuilder categories(n), items(n);
  SidePath side;
  for (size_t r = 0; r < n; ++r) {
    const CriticalPath& path = t.regions[r].critical_path;
    if (!path.present) return std::nullopt;
    side.lengths.push_back(static_cast<double>(path.length_ns));
    const CriticalPathCategories& c = path.categories;
    for (const auto& [name, ns] : {std::pair{"cpu", c.cpu_ns},
                                   {"launch_overhead", c.launch_overhead_ns},
                                   {"sync", c.sync_ns},
                                   {"compute", c.compute_ns},
                                   {"communication", c.communication_ns},
                                   {"memory", c.memory_ns},
                                   {"kernel_gap", c.kernel_gap_ns}})
      if (ns != 0) categories.add(name, r, static_cast<double>(ns), 0);
    for (const CriticalPathItem& item : path.top)
      items.add(fmt::format("{} {}", critical_path_item_kind_name(item.kind), item.name), r,
                static_cast<double>(item.ns), 1);
  }
  side.categories = categories.take();
  side.items = items.take();
  return side;
}

}  // namespace

std::optional<PathViews> diff_path_views(const TraceAnalysis& a, const TraceAnalysis& b) {
  const std::optional<SidePath> pa = side_path(a), pb = side_path(b);
  if (!pa || !pb || pa->lengths.empty() || pb->lengths.empty()) return std::nullopt;
  const size_t na = pa->lengths.size(), nb = pb->lengths.size();
  PathViews v;
  v.by_category = compare(pa->categories, na, pb->categories, nb, Detail::kNone);
  v.by_item = compare(pa->items, na, pb->items, nb, Detail::kNone);
  v.a_length_ns = mean(pa->lengths);
  v.b_length_ns = mean(pb->lengths);
  return v;
}

DiffViews diff_views(const TraceAnalysis& a, const TraceAnalysis& b) {
  const SideViews sa = side_views(a), sb = side_views(b);
  DiffViews v;
  v.by_kernel = compare(sa.kernels, sa.regions, sb.kernels, sb.regions, Detail::kFullNames);
  v.by_op = compare(sa.ops, sa.regions, sb.ops, sb.regions, Detail::kNone);
  v.by_module = compare(sa.modules, sa.regions, sb.modules, sb.regions, Detail::kNone);
  v.attention = compare(sa.attention, sa.regions, sb.attention, sb.regions, Detail::kBackends);
  return v;
}

}  // namespace attnprof
