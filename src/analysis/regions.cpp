#include "analysis/regions.h"

#include <algorithm>
#include <limits>
#include <optional>

namespace attnprof {

bool glob_match(std::string_view pattern, std::string_view text) {
  size_t p = 0, t = 0, star = std::string_view::npos, resume = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

namespace {

constexpr std::string_view kProfilerSteps = "ProfilerStep#*";

std::vector<Region> events_matching(const Trace& trace, std::string_view pattern, HostKind kind) {
  std::vector<Region> out;
  std::vector<char> matches(trace.strings.size(), -1);  // per name: unknown, no, yes
  const auto& host = trace.host_events;
  for (size_t i = 0; i < host.size(); ++i) {
    const HostEvent& e = host[i];
    if (e.kind != kind) continue;
    char& m = matches[e.name];
    if (m < 0) m = glob_match(pattern, trace.strings.view(e.name)) ? 1 : 0;
    if (m == 1)
      out.push_back({std::string(trace.strings.view(e.name)), e.pid, false, e.start_ns, e.end_ns(),
                     kind == HostKind::kCpuOp ? static_cast<HostEventId>(i) : kNoId});
  }
  std::sort(out.begin(), out.end(),
            [](const Region& a, const Region& b) { return a.start_ns < b.start_ns; });
  return out;
}

// Finds every region holding time `t` in process `pid`, with regions sorted by start and
// `max_end` the running maximum of their ends (so the backward walk stops early).
// A null `pid` matches every process.
template <typename Visit>
void for_each_region_at(const RegionSet& set, const std::vector<int64_t>& max_end,
                        std::optional<int32_t> pid, int64_t t, Visit&& visit) {
  const auto& r = set.regions;
  auto it = std::upper_bound(r.begin(), r.end(), t,
                             [](int64_t v, const Region& x) { return v < x.start_ns; });
  for (size_t i = static_cast<size_t>(it - r.begin()); i-- > 0;) {
    if (max_end[i] <= t) break;
    if (r[i].end_ns > t && (!pid || r[i].any_process || r[i].pid == *pid)) visit(i);
  }
}

}  // namespace

RegionSet find_regions(const Trace& trace, std::string_view pattern) {
  RegionSet set;
  if (!pattern.empty()) {
    set.pattern = std::string(pattern);
    set.regions = events_matching(trace, pattern, HostKind::kUserAnnotation);
    if (set.regions.empty() && trace.legacy_operators) {
      set.regions = events_matching(trace, pattern, HostKind::kCpuOp);
      set.from_ops = !set.regions.empty();
    }
    return set;
  }
  set.regions = events_matching(trace, kProfilerSteps, HostKind::kUserAnnotation);
  if (!set.regions.empty()) {
    set.pattern = std::string(kProfilerSteps);
    return set;
  }
  Region whole{"(whole trace)", 0, true, std::numeric_limits<int64_t>::max(),
               std::numeric_limits<int64_t>::min()};
  for (const HostEvent& e : trace.host_events) {
    whole.start_ns = std::min(whole.start_ns, e.start_ns);
    whole.end_ns = std::max(whole.end_ns, e.end_ns());
  }
  for (const GpuActivity& a : trace.gpu_activities) {
    whole.start_ns = std::min(whole.start_ns, a.start_ns);
    whole.end_ns = std::max(whole.end_ns, a.end_ns());
  }
  if (whole.start_ns <= whole.end_ns) {
    whole.end_ns += 1;  // half-open: the last event's end belongs to it
    set.regions.push_back(std::move(whole));
  }
  return set;
}

std::vector<int32_t> host_processes(const Trace& trace) {
  std::vector<int32_t> pids;
  for (const HostEvent& e : trace.host_events) {
    // The profiler's own rows (text pids, overhead) are not processes of the program.
    if (e.kind == HostKind::kOverhead || e.pid < 0) continue;
    if (pids.empty() || pids.back() != e.pid) pids.push_back(e.pid);
  }
  std::sort(pids.begin(), pids.end());
  pids.erase(std::unique(pids.begin(), pids.end()), pids.end());
  return pids;
}

RegionMembers assign_to_regions(const Trace& trace, const RegionSet& set) {
  RegionMembers members;
  members.activities.resize(set.regions.size());
  members.top_level_ops.resize(set.regions.size());
  if (set.regions.empty()) return members;
  std::vector<int64_t> max_end(set.regions.size());
  int64_t running = std::numeric_limits<int64_t>::min();
  for (size_t i = 0; i < set.regions.size(); ++i)
    max_end[i] = running = std::max(running, set.regions[i].end_ns);

  const auto& host = trace.host_events;
  for (size_t g = 0; g < trace.gpu_activities.size(); ++g) {
    const GpuActivity& a = trace.gpu_activities[g];
    if (a.kind == GpuKind::kUserAnnotation) continue;
    HostEventId anchor = trace.activity_launch[g] != kNoId ? trace.activity_launch[g]
                                                           : trace.activity_op[g];
    // Without a launch or an op the process is unknown, and the GPU's own time must do.
    std::optional<int32_t> pid;
    if (anchor != kNoId) pid = host[anchor].pid;
    int64_t t = anchor != kNoId ? host[anchor].start_ns : a.start_ns;
    for_each_region_at(set, max_end, pid, t, [&](size_t r) {
      members.activities[r].push_back(static_cast<GpuActivityId>(g));
    });
  }
  // Regions that are ops are not CPU work of their own: the ops under them are the top level.
  std::vector<bool> region_op(set.from_ops ? host.size() : 0, false);
  for (const Region& r : set.regions)
    if (r.op != kNoId) region_op[r.op.index()] = true;
  auto counts_as_op = [&](HostEventId i) {
    return host[i].kind == HostKind::kCpuOp && (region_op.empty() || !region_op[i.index()]);
  };
  for (size_t i = 0; i < host.size(); ++i) {
    if (!counts_as_op(static_cast<HostEventId>(i))) continue;
    const HostEvent& e = host[i];
    bool top = true;
    for (HostEventId p = trace.host_parent[i]; p != kNoId; p = trace.host_parent[p])
      if (counts_as_op(p)) {
        top = false;
        break;
      }
    if (!top) continue;
    for_each_region_at(set, max_end, e.pid, e.start_ns, [&](size_t r) {
      members.top_level_ops[r].push_back(static_cast<HostEventId>(i));
    });
  }
  return members;
}

}  // namespace attnprof
