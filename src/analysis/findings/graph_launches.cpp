#include "analysis/findings/graph_launches.h"

#include <algorithm>

#include "reader/kineto_format.h"

namespace attnprof {

GraphLaunches find_graph_launches(const FindingContext& c) {
  const Trace& t = c.trace;
  GraphLaunches out;
  out.regions.resize(c.region_count());
  // Per name: unknown, no, yes.
  std::vector<signed char> graph_api(t.strings.size(), -1), begins_capture(t.strings.size(), -1);
  auto is_graph_launch = [&](HostEventId launch) {
    signed char& api = graph_api[t.host_events[launch].name];
    if (api < 0)
      api = kineto::is_graph_launch_api(t.strings.view(t.host_events[launch].name)) ? 1 : 0;
    return api == 1;
  };
  // The kernel launches made one by one, each counted once. Copies are left out: a
  // cudaMemcpyAsync to or from the host may wait for the copy, which no graph node does.
  std::vector<bool> seen(t.host_events.size(), false);
  std::vector<int64_t> alone;
  for (size_t g = 0; g < t.gpu_activities.size(); ++g) {
    const HostEventId launch = t.activity_launch[g];
    if (launch == kNoId || t.gpu_activities[GpuActivityId(g)].kind != GpuKind::kKernel ||
        seen[launch.index()] || is_graph_launch(launch) ||
        !kineto::is_kernel_launch_api(t.strings.view(t.host_events[launch].name)))
      continue;
    seen[launch.index()] = true;
    alone.push_back(t.host_events[launch].dur_ns);
  }
  if (alone.size() >= kMinLaunchesMeasured) {
    std::nth_element(alone.begin(), alone.begin() + alone.size() / 2, alone.end());
    out.launch_ns = alone[alone.size() / 2];
    out.launches_measured = static_cast<int64_t>(alone.size());
  }
  for (size_t r = 0; r < c.region_count(); ++r) {
    RegionGraphLaunches& region = out.regions[r];
    // Each replay's launch, and whether its ops came from a capture (in the trace, or given
    // apart): graph_replays.cpp attributes a replay whole.
    std::vector<std::pair<HostEventId, bool>> launches;
    for (GpuActivityId id : c.activities(r)) {
      const HostEventId launch = t.activity_launch[id];
      if (!is_gpu_work(c.activity(id).kind)) continue;
      if (launch == kNoId || !is_graph_launch(launch)) {
        ++region.launched_alone;
        continue;
      }
      ++region.replayed;
      const Attribution how = t.activity_attribution[id];
      launches.emplace_back(launch,
                            how == Attribution::kCaptureOrder || how == Attribution::kSignature);
    }
    std::sort(launches.begin(), launches.end());
    launches.erase(std::unique(launches.begin(), launches.end(),
                               [](const auto& a, const auto& b) { return a.first == b.first; }),
                   launches.end());
    region.graph_launches = static_cast<int64_t>(launches.size());
    for (const auto& [launch, captured] : launches) {
      region.graph_launch_cpu_ns += t.host_events[launch].dur_ns;
      region.replays_with_capture += captured;
    }
  }
  // The regions that capture a graph: their launches put work into the graph, and run none.
  const auto& regions = c.regions.regions;
  for (size_t i = 0; i < t.host_events.size(); ++i) {
    const HostEvent& e = t.host_events[HostEventId(i)];
    if (e.kind != HostKind::kRuntime) continue;
    signed char& begins = begins_capture[e.name];
    if (begins < 0) begins = t.strings.view(e.name) == kineto::kBeginCapture ? 1 : 0;
    if (begins == 0) continue;
    for (size_t r = 0; r < regions.size(); ++r)
      if ((regions[r].any_process || regions[r].pid == e.pid) &&
          e.start_ns >= regions[r].start_ns && e.start_ns < regions[r].end_ns)
        out.regions[r].captures = true;
  }
  return out;
}

}  // namespace attnprof
