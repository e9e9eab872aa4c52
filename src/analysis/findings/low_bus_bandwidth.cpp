// Low bus bandwidth: a region's collectives move their bytes far slower than the link between the
// GPUs allows. nccl-tests' bus bandwidth (busbw, attnprof/collectives.h) is the figure that reads
// against the link whatever the collective and the number of ranks, and nccl-tests reaches most of
// the link from a few megabytes up. Below a tenth of it, a collective's kernel either waited for a
// rank that came late (its time counts the wait) or ran over a slower path than the link (PCIe,
// shared memory, sockets). Claimed only where the figure means something and the time matters:
// - the trace's GPU has a link in its datasheet (analysis/collectives/collectives.h, gpu_link);
// - the group has more than one rank: one rank moves nothing over a link (its bus factor is 0);
// - a megabyte or more a call on average: smaller messages are bound by latency, not bandwidth;
// - those collectives take a tenth or more of the region's GPU busy time.

#include <fmt/format.h>

#include "analysis/findings/finding_context.h"
#include "base/format_units.h"

namespace attnprof {

namespace {

constexpr double kLinkShare = 0.1;
constexpr double kMinBytesPerCall = 1e6;
constexpr double kBusyShare = 0.1;

bool far_below_link(const CollectiveTotals& c, const GpuLink& link) {
  return c.bus_factor > 0 && c.busbw_gbps >= 0 && c.sized > 0 &&
         static_cast<double>(c.bytes) >= kMinBytesPerCall * static_cast<double>(c.sized) &&
         c.busbw_gbps < kLinkShare * link.gb_per_s_per_direction;
}

// "allreduce (Float, 2 ranks)"
std::string collective_label(const CollectiveTotals& c) {
  return fmt::format("{} ({}{} ranks)", c.name, c.dtype.empty() ? "" : c.dtype + ", ",
                     c.group_size);
}

}  // namespace

void find_low_bus_bandwidth(const FindingContext& c, std::vector<Finding>& out) {
  const GpuLink& link = c.analysis.link;
  if (link.gb_per_s_per_direction <= 0) return;
  Finding f{FindingKind::kLowBusBandwidth, {}, {}, {}, 0};
  const RegionSummary* shown = nullptr;
  std::vector<const CollectiveTotals*> shown_rows;
  for (size_t r = 0; r < c.region_count(); ++r) {
    const RegionSummary& s = c.analysis.regions[r];
    std::vector<const CollectiveTotals*> rows;
    int64_t ns = 0;
    for (const CollectiveTotals& t : s.collectives) {
      if (!far_below_link(t, link)) continue;
      rows.push_back(&t);
      ns += t.sized_gpu_ns;
    }
    if (rows.empty() || s.gpu_busy_ns <= 0 ||
        static_cast<double>(ns) < kBusyShare * static_cast<double>(s.gpu_busy_ns))
      continue;
    ++f.regions_affected;
    if (shown && static_cast<int>(r) != c.typical()) continue;
    shown = &s;
    shown_rows = rows;
    f.gpu_ns = static_cast<double>(ns);
    f.evidence.clear();
    for (const CollectiveTotals* t : rows)
      f.evidence.push_back(fmt::format(
          "{}: {} x {}, {:.2f} MB a call on average, {}: busbw {:.1f} GB/s, {} of the link",
          c.region_label(r), t->sized, collective_label(*t),
          static_cast<double>(t->bytes) / (1e6 * static_cast<double>(t->sized)),
          format_duration(static_cast<double>(t->sized_gpu_ns)), t->busbw_gbps,
          format_percent(100 * t->busbw_gbps / link.gb_per_s_per_direction)));
  }
  if (!shown) return;
  const CollectiveTotals& first = *shown_rows.front();
  f.summary = fmt::format(
      "collectives far below the link: {} moves {:.2f} MB in {}, a bus bandwidth of {:.1f} GB/s, "
      "{} of {}'s {:.0f} GB/s a direction{}; they take {} of the GPU's busy time, in {} of {} "
      "regions",
      collective_label(first), static_cast<double>(first.bytes) / 1e6,
      format_duration(static_cast<double>(first.sized_gpu_ns)), first.busbw_gbps,
      format_percent(100 * first.busbw_gbps / link.gb_per_s_per_direction), link.name,
      link.gb_per_s_per_direction,
      shown_rows.size() > 1 ? fmt::format(" (and {} more)", shown_rows.size() - 1) : "",
      format_percent(100 * f.gpu_ns / static_cast<double>(shown->gpu_busy_ns)), f.regions_affected,
      c.region_count());
  f.suggestion =
      "a collective's kernel counts its wait for the ranks that come late: analyze all the ranks' "
      "traces together to see who waits; where they arrive together, NCCL_DEBUG=INFO says which "
      "path NCCL took (NVLink P2P, or PCIe, shared memory, sockets)";
  out.push_back(std::move(f));
}

}  // namespace attnprof
