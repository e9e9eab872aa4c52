#include "reader/shared_correlations.h"

#include <algorithm>
#include <set>
#include <string>
#include <unordered_set>

#include <fmt/format.h>

namespace attnprof {

namespace {

constexpr size_t kNamesShown = 8;  // in a diagnostic, the launches' names

}  // namespace

SharedCorrelations::SharedCorrelations(const Trace& trace,
                                       std::vector<std::pair<int64_t, HostEventId>> launches)
    : trace_(trace) {
  const auto& host = trace.host_events;
  std::sort(launches.begin(), launches.end(), [&](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first < b.first;
    if (host[a.second].start_ns != host[b.second].start_ns)
      return host[a.second].start_ns < host[b.second].start_ns;
    return a.second < b.second;
  });
  launches.erase(std::unique(launches.begin(), launches.end()), launches.end());
  for (size_t i = 0; i < launches.size();) {
    size_t j = i;
    while (j < launches.size() && launches[j].first == launches[i].first) ++j;
    ids_.push_back({launches[i].first, i, j});
    i = j;
  }
  launches_.reserve(launches.size());
  for (const auto& [correlation, launch] : launches) launches_.push_back(launch);
  by_pid_ = launches_;
  for (Id& id : ids_) {
    std::stable_sort(by_pid_.begin() + id.begin, by_pid_.begin() + id.end,
                     [&](HostEventId a, HostEventId b) { return host[a].pid < host[b].pid; });
    id.one_pid = host[by_pid_[id.begin]].pid == host[by_pid_[id.end - 1]].pid;
  }
}

HostEventId SharedCorrelations::latest_at_or_before(const HostEventId* first,
                                                    const HostEventId* last,
                                                    int64_t start_ns) const {
  const auto& host = trace_.host_events;
  const HostEventId* after = std::upper_bound(
      first, last, start_ns, [&](int64_t t, HostEventId l) { return t < host[l].start_ns; });
  return after == first ? *first : *(after - 1);  // by start: the last one wins
}

void SharedCorrelations::learn_device(int32_t device, int32_t pid) {
  auto [it, inserted] = device_pid_.try_emplace(device, pid);
  if (!inserted && it->second != pid) it->second = kSeveralPids;
}

HostEventId SharedCorrelations::choose(const GpuActivity& activity) {
  Id& id = *std::lower_bound(
      ids_.begin(), ids_.end(), activity.correlation,
      [](const Id& x, int64_t correlation) { return x.correlation < correlation; });
  const auto& host = trace_.host_events;
  // The process is not in doubt when all the launches are one process's (ids that restarted).
  int32_t pid = host[launches_[id.begin]].pid;
  if (!id.one_pid) {
    auto owner = device_pid_.find(activity.device);
    pid = owner == device_pid_.end() ? kSeveralPids : owner->second;
  }
  // The launches of `pid`, sorted by start: a slice of by_pid_.
  const HostEventId* first = by_pid_.data() + id.begin;
  const HostEventId* last = by_pid_.data() + id.end;
  if (!id.one_pid && pid != kSeveralPids) {
    auto of_pid = [&](HostEventId l) { return host[l].pid; };
    first =
        std::lower_bound(first, last, pid, [&](HostEventId l, int32_t p) { return of_pid(l) < p; });
    last =
        std::upper_bound(first, last, pid, [&](int32_t p, HostEventId l) { return p < of_pid(l); });
  }
  const bool known = pid != kSeveralPids && first != last;
  if (known) {
    ++id.by_device;
    return latest_at_or_before(first, last, activity.start_ns);
  }
  ++id.by_time_only;
  id.unowned_device = activity.device;
  return latest_at_or_before(launches_.data() + id.begin, launches_.data() + id.end,
                             activity.start_ns);
}

void SharedCorrelations::diagnose(Trace& trace) const {
  const auto& host = trace.host_events;
  for (const Id& id : ids_) {
    std::string detail;
    if (trace.diagnostics.count(DiagnosticKind::kDuplicateCorrelation) <
        Diagnostics::kKeptPerKind) {
      std::set<int32_t> pids;
      std::string names;
      std::unordered_set<StringId> seen;  // a set: an id may have 100k launches of many names
      for (size_t i = id.begin; i < id.end; ++i) {
        pids.insert(host[launches_[i]].pid);
        const StringId name = host[launches_[i]].name;
        if (!seen.insert(name).second) continue;
        if (seen.size() <= kNamesShown)
          names += fmt::format("{}{}", names.empty() ? "" : ", ", trace.strings.view(name));
      }
      if (seen.size() > kNamesShown)
        names += fmt::format(" and {} other names", seen.size() - kNamesShown);
      std::string how;
      if (id.by_device + id.by_time_only == 0)
        how = "no GPU activity has it";
      else if (id.by_time_only == 0 && pids.size() == 1)
        how = "each GPU activity is linked to the one that started last before it";
      else if (id.by_time_only == 0)
        how =
            "each GPU activity is linked to the launch of the process that drives its device "
            "(learned from the ids no one shares), the last to start before it";
      else
        how = fmt::format(
            "{} GPU activities are linked to the launch that started last before them, of any "
            "process, as no single process is known to drive device {}: a guess",
            id.by_time_only, id.unowned_device);
      detail = fmt::format(
          "correlation {} is shared by {} launches ({}) in {}: {}", id.correlation,
          id.end - id.begin, names,
          pids.size() == 1 ? fmt::format("process {}", *pids.begin())
                           : fmt::format("{} processes ({})", pids.size(), fmt::join(pids, ", ")),
          how);
    }
    trace.diagnostics.add(DiagnosticKind::kDuplicateCorrelation, 0, std::move(detail));
  }
}

}  // namespace attnprof
