#include "analysis/findings/graph_launches.h"

#include <algorithm>

#include "reader/kineto_format.h"

namespace attnprof {

GraphLaunches find_graph_launches(const FindingContext& c) {
  const Trace& t = c.trace;
  GraphLaunches out;
  out.sets.resize(c.set_count());
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
  for (size_t s = 0; s < c.set_count(); ++s) {
    RegionGraphLaunches& region = out.sets[s];
    // Each replay's launch, and whether its ops came from a capture (in the trace, or given
    // apart): graph_replays.cpp attributes a replay whole.
    std::vector<std::pair<HostEventId, bool>> launches;
    for (GpuActivityId id : c.set_activities(s)) {
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
  // Each region looks for a capture's start in its span by binary search, in its process's
  // starts (or all of them for the whole trace): regions x captures where many overlap was the
  // cost of a loop over both.
  std::vector<std::pair<int32_t, int64_t>> starts;  // (pid, start), sorted
  for (size_t i = 0; i < t.host_events.size(); ++i) {
    const HostEvent& e = t.host_events[HostEventId(i)];
    if (e.kind != HostKind::kRuntime) continue;
    signed char& begins = begins_capture[e.name];
    if (begins < 0) begins = t.strings.view(e.name) == kineto::kBeginCapture ? 1 : 0;
    if (begins == 1) starts.emplace_back(e.pid, e.start_ns);
  }
  std::sort(starts.begin(), starts.end());
  std::vector<int64_t> any_pid;
  for (const auto& [pid, start] : starts) any_pid.push_back(start);
  std::sort(any_pid.begin(), any_pid.end());
  const auto& regions = c.regions.regions;
  out.captures.assign(regions.size(), false);
  for (size_t r = 0; r < regions.size() && !starts.empty(); ++r) {
    const Region& region = regions[r];
    if (region.any_process) {
      auto it = std::lower_bound(any_pid.begin(), any_pid.end(), region.start_ns);
      out.captures[r] = it != any_pid.end() && *it < region.end_ns;
    } else {
      auto it = std::lower_bound(starts.begin(), starts.end(),
                                 std::pair<int32_t, int64_t>(region.pid, region.start_ns));
      out.captures[r] = it != starts.end() && it->first == region.pid && it->second < region.end_ns;
    }
  }
  return out;
}

}  // namespace attnprof
