#include "analysis/critical_path/collective_holders.h"

#include <algorithm>
#include <map>

#include "analysis/critical_path/path_categories.h"

namespace attnprof {

std::string path_holder(const Trace& trace, const std::vector<PathSegment>& path, int64_t from_ns,
                        int64_t to_ns, KernelShortNames& kernel_names) {
  std::map<std::string, int64_t> time_of;
  for (const PathSegment& s : path) {
    const int64_t overlap = std::min(s.end_ns, to_ns) - std::max(s.start_ns, from_ns);
    if (overlap <= 0) continue;
    if (s.kind == EdgeKind::kGpuWork && s.activity != kNoId) {
      time_of[gpu_work_name(trace, s.activity, kernel_names)] += overlap;
      continue;
    }
    const HostEventId op = innermost_op(trace, s.host);
    if (op != kNoId)
      time_of[std::string(trace.strings.view(trace.host_events[op].name))] += overlap;
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
