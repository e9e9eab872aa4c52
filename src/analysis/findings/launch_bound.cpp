// Launch-bound: the GPU sits idle between kernels because the CPU cannot issue them fast enough
// (the region's GPU busy time is a small part of its GPU span, and its CPU time exceeds it), and
// the idle is the host's: on the stream with the most work, gaps after which the next launch came
// late (host wait, docs/BREAKDOWN.md) are at least half of its idle time. Not claimed in a region
// whose busy time is mostly communication (communication-bound says that instead), nor where the
// stream's gaps are waits on other streams or peers.
//
// CUDA graphs (docs/CUDA_GRAPHS.md, "Findings"): a region whose work is mostly graph replays is
// judged by its graph launches, not by its kernel count: one cudaGraphLaunch runs the whole
// graph, so where the GPU still waits for the host the cause is the CPU's work around the
// launches (guards, input copies, Python), and "capture it in a CUDA graph" is no advice. A
// region that captures a graph is not judged: its launches record work into the graph and run
// none, so its GPU idles by design.

#include <algorithm>

#include <fmt/format.h>

#include "analysis/findings/finding_context.h"
#include "analysis/findings/graph_launches.h"
#include "base/format_units.h"

namespace attnprof {

void find_launch_bound(const FindingContext& c, std::vector<Finding>& out) {
  Finding f{FindingKind::kLaunchBound, {}, {}, {}, 0};
  double typical_busy_share = 0;
  int64_t typical_idle = 0;
  const GraphLaunches graphs = find_graph_launches(c);
  const RegionGraphLaunches* shown_graphs = nullptr;
  int64_t shown_cpu = 0;
  // Per member set: the GPU span of its activities, from the first start to the last end, and
  // its stream with the most work (the summaries of a set's regions share their streams).
  std::vector<int64_t> set_span(c.set_count(), 0);
  std::vector<size_t> set_main(c.set_count(), 0);
  for (size_t m = 0; m < c.set_count(); ++m) {
    const std::vector<StreamIdle>& streams =
        c.analysis.regions[c.first_region_of(m)].idle_by_stream;
    for (size_t i = 1; i < streams.size(); ++i)
      if (streams[i].busy_ns > streams[set_main[m]].busy_ns) set_main[m] = i;
    const auto& ids = c.set_activities(m);
    if (ids.empty()) continue;
    int64_t first = c.activity(ids.front()).start_ns, last = first;
    for (GpuActivityId id : ids) last = std::max(last, c.activity(id).end_ns());
    set_span[m] = last - first;
  }
  for (size_t r = 0; r < c.region_count(); ++r) {
    const auto& ids = c.activities(r);
    const RegionGraphLaunches& g = graphs.sets[c.set_of(r)];
    if (ids.size() < 2 || graphs.captures[r]) continue;
    const RegionSummary& s = c.analysis.regions[r];
    int64_t span = set_span[c.set_of(r)];
    if (span <= 0) continue;
    double busy_share = static_cast<double>(s.gpu_busy_ns) / static_cast<double>(span);
    const StreamIdle* main =
        s.idle_by_stream.empty() ? nullptr : &s.idle_by_stream[set_main[c.set_of(r)]];
    const bool host_waits = main && main->host_wait_ns * 2 >= main->idle_ns();
    bool hit = busy_share < 0.5 && s.cpu_ns > s.gpu_busy_ns && host_waits &&
               !is_communication_bound(s.breakdown);
    f.regions_affected += hit;
    if (hit && (static_cast<int>(r) == c.typical() || typical_idle == 0)) {
      typical_busy_share = busy_share;
      typical_idle = span - s.gpu_busy_ns;
      f.evidence = {
          fmt::format("{}: GPU busy {} of a {} GPU span; CPU in ops {}; {} GPU activities; stream "
                      "{} waits for the host {} of its {} idle",
                      c.region_label(r), format_duration(s.gpu_busy_ns), format_duration(span),
                      format_duration(s.cpu_ns), ids.size(), main->stream,
                      format_duration(main->host_wait_ns), format_duration(main->idle_ns()))};
      shown_graphs = g.replayed > g.launched_alone ? &g : nullptr;
      shown_cpu = s.cpu_ns;
      if (shown_graphs)
        f.evidence.push_back(fmt::format(
            "{}: {} graph launch(es) replay {} of its {} GPU activities, {} of CPU in the "
            "launch calls; {} launched one by one",
            c.region_label(r), g.graph_launches, g.replayed, g.replayed + g.launched_alone,
            format_duration(g.graph_launch_cpu_ns), g.launched_alone));
    }
  }
  if (f.regions_affected == 0) return;
  f.summary = fmt::format(
      "launch-bound: the GPU is busy only {:.0f}% of the time between its first and "
      "last kernel ({} idle), waiting for the CPU to launch, in {} of {} regions",
      100 * typical_busy_share, format_duration(typical_idle), f.regions_affected,
      c.region_count());
  if (shown_graphs) {
    f.summary += fmt::format(
        ", though {} of its {} GPU activities replay from a CUDA graph: the wait is not their "
        "launches",
        shown_graphs->replayed, shown_graphs->replayed + shown_graphs->launched_alone);
    f.suggestion = fmt::format(
        "the kernels already replay from {} graph launch(es) ({} of CPU); the host's time is the "
        "work around them ({} in ops: guards, input copies, Python): capture more of the step "
        "in the graph, or take that work off the path between replays",
        shown_graphs->graph_launches, format_duration(shown_graphs->graph_launch_cpu_ns),
        format_duration(shown_cpu));
  } else {
    f.suggestion =
        "give each launch more work (larger batch), fuse kernels, or capture the region in a "
        "CUDA graph to launch it at once";
  }
  out.push_back(std::move(f));
}

}  // namespace attnprof
