#include "analysis/critical_path/collective_holders.h"

#include <algorithm>
#include <map>

namespace attnprof {

std::string path_holder(const Trace& trace, const std::vector<PathSegment>& path, int64_t from_ns,
                        int64_t to_ns, KernelShortNames& kernel_names) {
  std::map<std::string, int64_t> time_of;
  for (const PathSegment& s : path) {
    const int64_t overlap = std::min(s.end_ns, to_ns) - std::max(s.start_ns, from_ns);
    if (overlap <= 0) continue;
    if (s.kind == EdgeKind::kGpuWork && s.activity != kNoId) {
      const GpuActivity& a = trace.gpu_activities[s.activity];
      const std::string_view full = trace.strings.view(a.name);
      time_of[a.kind == GpuKind::kKernel ? kernel_names.of(trace.strings, a.name)
                                         : std::string(full.substr(0, full.find(" (")))] += overlap;
      continue;
    }
    // A runtime call sits under the op that made it: the op holds its time.
    HostEventId e = s.host;
    while (e != kNoId && trace.host_events[e].kind != HostKind::kCpuOp) e = trace.host_parent[e];
    if (e != kNoId) time_of[std::string(trace.strings.view(trace.host_events[e].name))] += overlap;
  }
  std::string best;
  int64_t most = 0;
  for (const auto& [name, ns] : time_of)
    if (ns > most) {
      best = name;
      most = ns;
    }
  return best;
}

void add_collective_holders(const Trace& trace, const std::vector<PathSegment>& path,
                            int64_t start_ns, int64_t end_ns, RegionSummary& region,
                            KernelShortNames& kernel_names) {
  int64_t from = start_ns;
  for (CollectiveVisit& v : region.collective_visits) {
    v.held_by = path_holder(trace, path, from, v.start_ns, kernel_names);
    from = std::max(from, v.end_ns);
  }
  if (!region.collective_visits.empty())
    region.held_after_collectives = path_holder(trace, path, from, end_ns, kernel_names);
}

}  // namespace attnprof
