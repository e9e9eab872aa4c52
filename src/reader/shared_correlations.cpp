#include "reader/shared_correlations.h"

#include <algorithm>
#include <set>
#include <string>

#include <fmt/format.h>

namespace attnprof {

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
  if (!std::all_of(launches_.begin() + id.begin, launches_.begin() + id.end,
                   [&](HostEventId l) { return host[l].pid == pid; })) {
    auto owner = device_pid_.find(activity.device);
    pid = owner == device_pid_.end() ? kSeveralPids : owner->second;
  }
  const bool known =
      pid != kSeveralPids && std::any_of(launches_.begin() + id.begin, launches_.begin() + id.end,
                                         [&](HostEventId l) { return host[l].pid == pid; });
  if (known) {
    ++id.by_device;
  } else {
    ++id.by_time_only;
    id.unowned_device = activity.device;
  }
  HostEventId earliest = kNoId, latest_before = kNoId;
  for (size_t i = id.begin; i < id.end; ++i) {
    const HostEventId l = launches_[i];
    if (known && host[l].pid != pid) continue;
    if (earliest == kNoId) earliest = l;
    if (host[l].start_ns <= activity.start_ns) latest_before = l;  // by start: the last one wins
  }
  return latest_before != kNoId ? latest_before : earliest;
}

void SharedCorrelations::diagnose(Trace& trace) const {
  const auto& host = trace.host_events;
  for (const Id& id : ids_) {
    std::string detail;
    if (trace.diagnostics.count(DiagnosticKind::kDuplicateCorrelation) <
        Diagnostics::kKeptPerKind) {
      std::set<int32_t> pids;
      std::string names;
      for (size_t i = id.begin; i < id.end; ++i) {
        pids.insert(host[launches_[i]].pid);
        std::string_view name = trace.strings.view(host[launches_[i]].name);
        if (names.find(name) == std::string::npos)
          names += fmt::format("{}{}", names.empty() ? "" : ", ", name);
      }
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
