// Communication-bound: communication kernels (NCCL, RCCL, HCCL) that overlap no compute take most
// of the GPU's busy time in a region (the time breakdown, docs/BREAKDOWN.md).

#include <fmt/format.h>

#include "analysis/findings/finding_context.h"
#include "base/format_units.h"

namespace attnprof {

bool is_communication_bound(const TimeBreakdown& b) {
  return b.busy_ns > 0 && b.communication_ns * 2 > b.busy_ns;
}

void find_communication_bound(const FindingContext& c, std::vector<Finding>& out) {
  Finding f{FindingKind::kCommunicationBound, {}, {}, {}, 0};
  const TimeBreakdown* shown = nullptr;
  for (size_t r = 0; r < c.region_count(); ++r) {
    const TimeBreakdown& b = c.analysis.regions[r].breakdown;
    if (!is_communication_bound(b)) continue;
    ++f.regions_affected;
    if (shown && static_cast<int>(r) != c.typical()) continue;
    shown = &b;
    f.evidence = {fmt::format(
        "{}: compute {}, communication not overlapping it {}, memory {}, idle {} of a {} GPU "
        "span; {} of the communication overlaps compute",
        c.region_label(r), format_duration(b.compute_ns), format_duration(b.communication_ns),
        format_duration(b.memory_ns), format_duration(b.idle_ns), format_duration(b.span_ns),
        format_percent(b.communication_overlap_pct().value_or(0)))};
  }
  if (!shown) return;
  f.summary = fmt::format(
      "communication-bound: communication kernels that overlap no compute take {} of the GPU's "
      "busy time ({} of {}), in {} of {} regions",
      format_percent(100.0 * static_cast<double>(shown->communication_ns) /
                     static_cast<double>(shown->busy_ns)),
      format_duration(shown->communication_ns), format_duration(shown->busy_ns), f.regions_affected,
      c.region_count());
  f.suggestion =
      "overlap the collectives with compute (DDP's gradient buckets, FSDP's prefetch, async "
      "collectives), send fewer bytes; a collective's kernel also waits for the slowest rank, so "
      "compare the ranks (analyze all their traces together)";
  out.push_back(std::move(f));
}

}  // namespace attnprof
