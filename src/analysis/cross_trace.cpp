#include "attnprof/cross_trace.h"

#include <algorithm>
#include <filesystem>
#include <list>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "analysis/spread.h"

namespace attnprof {

namespace {

std::vector<TraceLabel> label_traces(const std::vector<TraceAnalysis>& traces, bool& by_rank) {
  std::set<int32_t> ranks;
  by_rank = !traces.empty();
  for (const auto& t : traces)
    by_rank =
        by_rank && !t.distributed_backend.empty() && t.rank >= 0 && ranks.insert(t.rank).second;
  std::set<std::string> names;
  bool names_unique = true;
  for (const auto& t : traces)
    names_unique =
        names_unique && names.insert(std::filesystem::path(t.path).filename().string()).second;

  std::vector<TraceLabel> labels;
  for (const auto& t : traces) {
    TraceLabel label;
    label.has_rank = !t.distributed_backend.empty() && t.rank >= 0;
    label.rank = t.rank;
    label.text = by_rank        ? fmt::format("rank {}", t.rank)
                 : names_unique ? std::filesystem::path(t.path).filename().string()
                                : t.path;
    labels.push_back(std::move(label));
  }
  return labels;
}

// Names that occur more than once in some trace: each occurrence is told apart by its number.
std::set<std::string> repeated_names(const std::vector<TraceAnalysis>& traces) {
  std::set<std::string> repeated;
  for (const auto& t : traces) {
    std::set<std::string> seen;
    for (const auto& r : t.regions)
      if (!seen.insert(r.name).second) repeated.insert(r.name);
  }
  return repeated;
}

struct Measure {
  int trace;
  double wall_ns, gpu_busy_ns, kernels;
  TimeBreakdown breakdown;  // in ns; of the median region: each part's median
  const std::vector<int64_t>* collective_starts = nullptr;     // none for the median region
  const std::vector<CollectiveTotals>* collectives = nullptr;  // none for the median region
  const RegionSummary* region = nullptr;                       // none for the median region
};

// One collective matched across the traces of a region: each trace's visit of it.
struct MatchedCollective {
  std::vector<const CollectiveVisit*> of_trace;  // aligned with the measures
  double release_ns = 0;                         // when the last trace reached it, aligned
  double leave_ns = 0;                           // when they left it: the median end, aligned
  size_t last = 0;                               // the measure that reached it last
};

// The first `fewest` visits of each (group, name) in every trace, matched n-th with n-th; a
// (group, name) that the traces ran a different number of times is said in `unmatched`.
std::vector<MatchedCollective> match_collectives(const std::vector<Measure>& measures,
                                                 const std::vector<TraceLabel>& labels,
                                                 std::vector<std::string>& unmatched) {
  using Key = std::pair<std::string, std::string>;  // group, name
  std::vector<Key> keys;
  std::vector<std::map<Key, std::vector<const CollectiveVisit*>>> by_key(measures.size());
  for (size_t i = 0; i < measures.size(); ++i)
    for (const CollectiveVisit& v : measures[i].region->collective_visits) {
      auto [it, added] = by_key[i].try_emplace(Key{v.group, v.name});
      if (added && std::find(keys.begin(), keys.end(), it->first) == keys.end())
        keys.push_back(it->first);
      it->second.push_back(&v);
    }
  std::vector<MatchedCollective> out;
  for (const Key& key : keys) {
    size_t fewest = SIZE_MAX, most = 0;
    for (const auto& of : by_key) {
      auto it = of.find(key);
      const size_t n = it == of.end() ? 0 : it->second.size();
      fewest = std::min(fewest, n);
      most = std::max(most, n);
    }
    if (fewest != most) {
      std::string words =
          key.second + (key.first.empty() ? "" : " (group " + key.first + ")") + ":";
      for (size_t i = 0; i < measures.size(); ++i) {
        auto it = by_key[i].find(key);
        words += fmt::format("{} {} ran {}", i == 0 ? "" : ",",
                             labels[static_cast<size_t>(measures[i].trace)].text,
                             it == by_key[i].end() ? 0 : it->second.size());
      }
      words += fewest == 0 ? "; not matched" : fmt::format("; the first {} matched", fewest);
      unmatched.push_back(std::move(words));
    }
    for (size_t k = 0; k < fewest; ++k) {
      MatchedCollective m;
      for (const auto& of : by_key) m.of_trace.push_back(of.at(key)[k]);
      out.push_back(std::move(m));
    }
  }
  return out;
}

// The job's path through a region (attnprof/cross_trace.h, JobPathAcrossRanks).
void job_path(const std::vector<Measure>& measures, const std::vector<TraceLabel>& labels,
              RegionAcrossTraces& row) {
  size_t with_collectives = 0;
  for (const Measure& m : measures) {
    if (!m.region) return;
    if (!m.region->collective_visits.empty()) ++with_collectives;
  }
  if (measures.size() < 2 || with_collectives == 0) return;
  std::vector<MatchedCollective> matched =
      match_collectives(measures, labels, row.unmatched_collectives);
  if (matched.empty()) return;
  const size_t n = measures.size();
  // Clocks aligned on the matched collective that ends first in the first trace.
  const MatchedCollective* anchor = &matched.front();
  for (const MatchedCollective& m : matched)
    if (m.of_trace[0]->end_ns < anchor->of_trace[0]->end_ns) anchor = &m;
  std::vector<int64_t> offset(n);
  for (size_t i = 0; i < n; ++i)
    offset[i] = anchor->of_trace[i]->end_ns - anchor->of_trace[0]->end_ns;
  // Relative to the first trace's region start, before it becomes a double: a clock of 1e18 ns
  // holds no nanoseconds in one.
  const int64_t base = measures[0].region->start_ns;
  auto aligned = [&](size_t i, int64_t t) { return static_cast<double>(t - offset[i] - base); };
  for (MatchedCollective& m : matched) {
    std::vector<double> ends;
    m.release_ns = -1e300;
    for (size_t i = 0; i < n; ++i) {
      const double arrival = aligned(i, m.of_trace[i]->start_ns);
      if (arrival > m.release_ns) {
        m.release_ns = arrival;
        m.last = i;
      }
      ends.push_back(aligned(i, m.of_trace[i]->end_ns));
    }
    m.leave_ns = std::max(m.release_ns, spread_of(std::move(ends)).median);
  }
  std::stable_sort(matched.begin(), matched.end(),
                   [](const MatchedCollective& a, const MatchedCollective& b) {
                     return a.release_ns < b.release_ns;
                   });
  double start = 1e300, end = -1e300;
  size_t ends_last = 0;
  for (size_t i = 0; i < n; ++i) {
    const RegionSummary& r = *measures[i].region;
    start = std::min(start, aligned(i, r.start_ns));
    const double e = aligned(i, r.start_ns + r.wall_ns);
    if (e > end) {
      end = e;
      ends_last = i;
    }
  }
  JobPathAcrossRanks path;
  path.collectives = static_cast<int>(matched.size());
  path.length_ns = std::max(end - start, 0.0);
  path.held_ns.assign(n, 0);
  path.waited_ns.assign(n, 0);
  std::vector<std::map<std::string, double>> held_with(n);
  double at = start;
  for (const MatchedCollective& m : matched) {
    if (m.release_ns > at) {
      path.held_ns[m.last] += m.release_ns - at;
      held_with[m.last][m.of_trace[m.last]->held_by] += m.release_ns - at;
    }
    for (size_t i = 0; i < n; ++i)
      path.waited_ns[i] += std::max(0.0, m.release_ns - aligned(i, m.of_trace[i]->start_ns));
    const double from = std::max(at, m.release_ns);
    if (m.leave_ns > from) path.communication_ns += m.leave_ns - from;
    at = std::max(at, m.leave_ns);
  }
  if (end > at) {
    path.held_ns[ends_last] += end - at;
    held_with[ends_last][measures[ends_last].region->held_after_collectives] += end - at;
  }
  size_t most = 0;
  for (size_t i = 1; i < n; ++i)
    if (path.held_ns[i] > path.held_ns[most]) most = i;
  if (path.held_ns[most] > 0) {
    path.held_by = measures[most].trace;
    double longest = 0;
    for (const auto& [name, ns] : held_with[most])
      if (!name.empty() && ns > longest) {
        path.held_with = name;
        longest = ns;
      }
  }
  row.job_path = std::move(path);
}

// Each trace's median lag of its n-th start behind the earliest trace's n-th, over the starts
// every trace has (one pass over each trace's starts); `starts` per trace, aligned with `traces`.
// Compares nothing (returns 0) with fewer than two traces or no start common to all.
int lags_across(const std::vector<const std::vector<int64_t>*>& starts,
                const std::vector<int>& traces, QuantityAcrossTraces& lag) {
  size_t n = SIZE_MAX;
  for (const auto* s : starts) n = std::min(n, s->size());
  if (starts.size() < 2 || n == 0 || n == SIZE_MAX) return 0;
  std::vector<int64_t> earliest(n, INT64_MAX);
  for (const auto* s : starts)
    for (size_t k = 0; k < n; ++k) earliest[k] = std::min(earliest[k], (*s)[k]);
  std::vector<double> medians;
  for (const auto* s : starts) {
    std::vector<double> lags(n);
    for (size_t k = 0; k < n; ++k) lags[k] = static_cast<double>((*s)[k] - earliest[k]);
    medians.push_back(spread_of(std::move(lags)).median);
  }
  lag = quantity_across(std::move(medians), traces);
  return static_cast<int>(n);
}

void collective_lags(const std::vector<Measure>& measures, RegionAcrossTraces& row) {
  std::vector<const std::vector<int64_t>*> starts;
  std::vector<int> traces;
  for (const Measure& m : measures) {
    if (!m.collective_starts) return;
    starts.push_back(m.collective_starts);
    traces.push_back(m.trace);
  }
  row.collectives_compared = lags_across(starts, traces, row.collective_lag_ns);
  // Per collective, over the traces that ran it.
  using Key = std::tuple<std::string, std::string, int64_t>;
  std::vector<Key> order;
  std::map<Key, std::pair<std::vector<const std::vector<int64_t>*>, std::vector<int>>> of_key;
  for (const Measure& m : measures) {
    if (!m.collectives) continue;
    for (const CollectiveTotals& c : *m.collectives) {
      const Key key{c.name, c.dtype, c.group_size};
      auto [it, added] = of_key.try_emplace(key);
      if (added) order.push_back(key);
      it->second.first.push_back(&c.starts_ns);
      it->second.second.push_back(m.trace);
    }
  }
  for (const Key& key : order) {
    const auto& [of, traces_of] = of_key[key];
    CollectiveLagAcrossTraces lag;
    lag.compared = lags_across(of, traces_of, lag.lag_ns);
    if (lag.compared == 0) continue;
    std::tie(lag.name, lag.dtype, lag.group_size) = key;
    lag.traces = traces_of;
    row.collective_lags.push_back(std::move(lag));
  }
}

RegionAcrossTraces region_across(std::string name, const std::vector<Measure>& measures,
                                 const std::vector<TraceLabel>& labels) {
  RegionAcrossTraces row;
  row.name = std::move(name);
  std::vector<double> wall, gpu, kernels, idle, compute, communication, memory;
  for (const auto& m : measures) {
    row.traces.push_back(m.trace);
    wall.push_back(m.wall_ns);
    gpu.push_back(m.gpu_busy_ns);
    kernels.push_back(m.kernels);
    idle.push_back(static_cast<double>(m.breakdown.idle_ns));
    compute.push_back(static_cast<double>(m.breakdown.compute_ns));
    communication.push_back(static_cast<double>(m.breakdown.communication_ns));
    memory.push_back(static_cast<double>(m.breakdown.memory_ns));
  }
  row.idle_ns = quantity_across(std::move(idle), row.traces);
  row.compute_ns = quantity_across(std::move(compute), row.traces);
  row.communication_ns = quantity_across(std::move(communication), row.traces);
  row.memory_ns = quantity_across(std::move(memory), row.traces);
  collective_lags(measures, row);
  job_path(measures, labels, row);
  row.wall_ns = quantity_across(std::move(wall), row.traces);
  row.gpu_busy_ns = quantity_across(std::move(gpu), row.traces);
  row.kernels = quantity_across(std::move(kernels), row.traces);
  return row;
}

}  // namespace

QuantityAcrossTraces quantity_across(std::vector<double> values, const std::vector<int>& traces) {
  QuantityAcrossTraces q;
  size_t slowest = 0;
  for (size_t i = 1; i < values.size(); ++i)
    if (values[i] > values[slowest]) slowest = i;
  if (!values.empty() && values[slowest] != *std::min_element(values.begin(), values.end()))
    q.slowest = traces[slowest];
  q.by_trace = values;
  Spread s = spread_of(std::move(values));
  q.min = s.min;
  q.median = s.median;
  q.max = s.max;
  q.spread = s.median != 0 ? (s.max - s.min) / s.median : 0;
  return q;
}

bool are_ranks_of_one_run(const std::vector<TraceAnalysis>& traces) {
  if (traces.size() < 2) return false;
  std::set<int32_t> ranks;
  for (const TraceAnalysis& t : traces) {
    if (t.world_size <= 1 || t.world_size != traces.front().world_size ||
        t.distributed_backend != traces.front().distributed_backend)
      return false;
    if (!ranks.insert(t.rank).second) return false;
  }
  return true;
}

CrossTraceSummary summarize_across_traces(const std::vector<TraceAnalysis>& traces) {
  CrossTraceSummary out;
  out.labels = label_traces(traces, out.labelled_by_rank);
  const std::set<std::string> repeated = repeated_names(traces);

  // Rows in the order the traces have them. A region that no earlier trace has goes before the
  // next region of its own trace that one has (at the end when none has): a rank whose trace
  // starts a step earlier or ends a step later still lists the steps in order.
  std::list<std::pair<std::string, std::vector<Measure>>> rows;
  std::map<std::string, decltype(rows)::iterator> row_of;
  std::vector<Measure> medians;
  for (size_t ti = 0; ti < traces.size(); ++ti) {
    const TraceAnalysis& t = traces[ti];
    const int trace = static_cast<int>(ti);
    std::vector<std::string> keys;
    std::map<std::string, int> occurrence;
    for (const auto& r : t.regions)
      keys.push_back(repeated.count(r.name) ? fmt::format("{}[{}]", r.name, ++occurrence[r.name])
                                            : r.name);
    std::vector<decltype(rows)::iterator> insert_before(keys.size(), rows.end());
    for (size_t k = keys.size(); k-- > 1;) {
      auto known = row_of.find(keys[k]);
      insert_before[k - 1] = known != row_of.end() ? known->second : insert_before[k];
    }
    for (size_t k = 0; k < keys.size(); ++k) {
      auto found = row_of.find(keys[k]);
      if (found == row_of.end())
        found =
            row_of.emplace(keys[k], rows.emplace(insert_before[k], keys[k], std::vector<Measure>{}))
                .first;
      const RegionSummary& r = t.regions[k];
      found->second->second.push_back({trace, static_cast<double>(r.wall_ns),
                                       static_cast<double>(r.gpu_busy_ns),
                                       static_cast<double>(r.kernels), r.breakdown,
                                       &r.communication_starts_ns, &r.collectives, &r});
    }
    if (!t.regions.empty()) {
      const BreakdownFacts& b = t.facts.breakdown;
      TimeBreakdown median;
      median.idle_ns = static_cast<int64_t>(b.idle_ns.median);
      median.compute_ns = static_cast<int64_t>(b.compute_ns.median);
      median.communication_ns = static_cast<int64_t>(b.communication_ns.median);
      median.memory_ns = static_cast<int64_t>(b.memory_ns.median);
      medians.push_back({trace, t.facts.wall_ns.median, t.facts.gpu_busy_ns.median,
                         t.facts.kernels.median, median, nullptr, nullptr, nullptr});
    }
  }

  out.slowest_by_wall.assign(traces.size(), 0);
  out.latest_collectives.assign(traces.size(), 0);
  out.max_collective_lag_ns.assign(traces.size(), 0);
  out.held_job.assign(traces.size(), 0);
  for (auto& [name, measures] : rows) {
    out.regions.push_back(region_across(name, measures, out.labels));
    const RegionAcrossTraces& row = out.regions.back();
    if (row.traces.size() < 2) continue;
    ++out.compared_regions;
    if (row.wall_ns.slowest >= 0) ++out.slowest_by_wall[static_cast<size_t>(row.wall_ns.slowest)];
    if (row.job_path && row.job_path->held_by >= 0)
      ++out.held_job[static_cast<size_t>(row.job_path->held_by)];
    const QuantityAcrossTraces& lag = row.collective_lag_ns;
    if (lag.slowest >= 0) ++out.latest_collectives[static_cast<size_t>(lag.slowest)];
    for (size_t i = 0; i < lag.by_trace.size(); ++i) {
      double& most = out.max_collective_lag_ns[static_cast<size_t>(row.traces[i])];
      most = std::max(most, lag.by_trace[i]);
    }
  }
  out.median_region = region_across("median region", medians, out.labels);
  return out;
}

}  // namespace attnprof
