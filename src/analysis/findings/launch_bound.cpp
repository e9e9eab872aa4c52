// Launch-bound: the GPU sits idle between kernels because the CPU cannot issue them fast enough
// (the region's GPU busy time is a small part of its GPU span, and its CPU time exceeds it), and
// the idle is the host's: on the stream with the most work, gaps after which the next launch came
// late (host wait, docs/BREAKDOWN.md) are at least half of its idle time. Not claimed in a region
// whose busy time is mostly communication (communication-bound says that instead), nor where the
// stream's gaps are waits on other streams or peers.

#include <algorithm>

#include <fmt/format.h>

#include "analysis/findings/finding_context.h"
#include "base/format_units.h"

namespace attnprof {

void find_launch_bound(const FindingContext& c, std::vector<Finding>& out) {
  Finding f{FindingKind::kLaunchBound, {}, {}, {}, 0};
  double typical_busy_share = 0;
  int64_t typical_idle = 0;
  for (size_t r = 0; r < c.region_count(); ++r) {
    const auto& ids = c.activities(r);
    if (ids.size() < 2) continue;
    int64_t first = c.activity(ids.front()).start_ns, last = first;
    for (GpuActivityId id : ids) last = std::max(last, c.activity(id).end_ns());
    const RegionSummary& s = c.analysis.regions[r];
    int64_t span = last - first;
    if (span <= 0) continue;
    double busy_share = static_cast<double>(s.gpu_busy_ns) / static_cast<double>(span);
    const StreamIdle* main = nullptr;
    for (const StreamIdle& stream : s.idle_by_stream)
      if (!main || stream.busy_ns > main->busy_ns) main = &stream;
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
    }
  }
  if (f.regions_affected == 0) return;
  f.summary = fmt::format(
      "launch-bound: the GPU is busy only {:.0f}% of the time between its first and "
      "last kernel ({} idle), waiting for the CPU to launch, in {} of {} regions",
      100 * typical_busy_share, format_duration(typical_idle), f.regions_affected,
      c.region_count());
  f.suggestion =
      "give each launch more work (larger batch), fuse kernels, or capture the region in a "
      "CUDA graph to launch it at once";
  out.push_back(std::move(f));
}

}  // namespace attnprof
