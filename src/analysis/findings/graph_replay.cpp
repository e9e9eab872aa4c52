// Graph replay: what the region's CUDA graph replays cost the CPU against the launches they
// replaced (docs/CUDA_GRAPHS.md, "Findings"). Each replayed activity was one launch when the
// graph was captured (the capture pairs them one to one: reader/graph_replays.cpp), so launched
// one by one they would have cost as many launch calls, priced at the median of the trace's own
// launches made one by one, or at a typical H200 launch where the trace has none; the finding
// says which. A fact to weigh, not a problem: it carries a suggestion only where the graph saves
// nothing.

#include <fmt/format.h>

#include "analysis/findings/finding_context.h"
#include "analysis/findings/graph_launches.h"
#include "base/format_units.h"

namespace attnprof {

void find_graph_replays(const FindingContext& c, std::vector<Finding>& out) {
  const GraphLaunches graphs = find_graph_launches(c);
  Finding f{FindingKind::kGraphReplay, {}, {}, {}, 0};
  int shown = -1;
  for (size_t r = 0; r < c.region_count(); ++r) {
    if (graphs.sets[c.set_of(r)].graph_launches == 0) continue;
    ++f.regions_affected;
    if (shown < 0 || static_cast<int>(r) == c.typical()) shown = static_cast<int>(r);
  }
  if (shown < 0) return;
  const RegionGraphLaunches& g = graphs.sets[c.set_of(static_cast<size_t>(shown))];
  const int64_t eager_ns = g.replayed * graphs.launch_ns;
  const int64_t saved_ns = eager_ns - g.graph_launch_cpu_ns;
  const std::string priced =
      graphs.launches_measured > 0
          ? fmt::format("the median of this trace's {} kernel launches made one by one",
                        graphs.launches_measured)
          : fmt::format(
                "a typical launch on the H200, as this trace makes fewer than {} kernel "
                "launches one by one",
                kMinLaunchesMeasured);
  f.summary = fmt::format(
      "CUDA graph replays: {} graph launch(es) run {} GPU activities for {} of CPU in the launch "
      "calls; launched one by one they would take about {} ({} x {}, {}): {}, in {} of {} "
      "regions",
      g.graph_launches, g.replayed, format_duration(g.graph_launch_cpu_ns),
      format_duration(eager_ns), g.replayed, format_duration(graphs.launch_ns), priced,
      saved_ns > 0
          ? fmt::format("the graph saves about {} of CPU", format_duration(saved_ns))
          : fmt::format("the graph saves no CPU time ({} more)", format_duration(-saved_ns)),
      f.regions_affected, c.region_count());
  f.evidence.push_back(fmt::format(
      "{}: {} graph launch(es), {} of CPU; {} GPU activities replayed, {} launched one by one",
      c.region_label(shown), g.graph_launches, format_duration(g.graph_launch_cpu_ns), g.replayed,
      g.launched_alone));
  f.evidence.push_back(
      g.replays_with_capture == g.graph_launches
          ? fmt::format("the launches replaced: the {} launches recorded in the graph's capture, "
                        "one per replayed activity",
                        g.replayed)
          : fmt::format("the launches replaced: one per replayed activity ({}), as each node of a "
                        "graph is one launch when captured; {} of {} replays were matched to a "
                        "capture",
                        g.replayed, g.replays_with_capture, g.graph_launches));
  if (saved_ns <= 0)
    f.suggestion =
        "a graph of so few nodes saves no launch time: graphs pay off for many short kernels, "
        "such as a decode step";
  out.push_back(std::move(f));
}

}  // namespace attnprof
