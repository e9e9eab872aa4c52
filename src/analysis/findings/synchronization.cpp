// Synchronizations inside a region: the CPU waits for the GPU (device, stream or event
// synchronize) or copies to the host, which stalls the launch queue.

#include <algorithm>

#include <fmt/format.h>

#include "analysis/duration_sum.h"
#include "analysis/findings/finding_context.h"
#include "base/format_units.h"

namespace attnprof {

namespace {

bool is_sync_call(std::string_view name) {
  return name == "cudaDeviceSynchronize" || name == "cudaStreamSynchronize" ||
         name == "cudaEventSynchronize" || name == "cuStreamSynchronize" ||
         name == "cuCtxSynchronize";
}

std::string chain_of(const Trace& t, HostEventId id) {
  std::vector<std::string_view> ops;
  for (HostEventId p = t.host_parent[id]; p != kNoId; p = t.host_parent[p])
    if (t.host_events[p].kind == HostKind::kCpuOp)
      ops.push_back(t.strings.view(t.host_events[p].name));
  std::string text;
  for (auto it = ops.rbegin(); it != ops.rend(); ++it) text += std::string(*it) + " -> ";
  return text + std::string(t.strings.view(t.host_events[id].name));
}

}  // namespace

void find_synchronizations(const FindingContext& c, std::vector<Finding>& out) {
  const Trace& t = c.trace;
  // The synchronizing calls, in time order, then each region takes those inside its span.
  std::vector<HostEventId> syncs;
  for (size_t i = 0; i < t.host_events.size(); ++i) {
    const HostEvent& e = t.host_events[i];
    if ((e.kind == HostKind::kRuntime || e.kind == HostKind::kDriver) &&
        is_sync_call(t.strings.view(e.name)))
      syncs.push_back(static_cast<HostEventId>(i));
  }
  std::sort(syncs.begin(), syncs.end(), [&](HostEventId a, HostEventId b) {
    return t.host_events[a].start_ns < t.host_events[b].start_ns;
  });
  Finding f{FindingKind::kSynchronization, {}, {}, {}, 0};
  int typical_syncs = 0, typical_dtoh = 0;
  int64_t typical_wait = 0;
  for (size_t r = 0; r < c.region_count(); ++r) {
    const Region& region = c.regions.regions[r];
    bool typical = static_cast<int>(r) == c.typical();
    int count = 0, dtoh = 0;
    int64_t wait = 0;
    auto it =
        std::lower_bound(syncs.begin(), syncs.end(), region.start_ns,
                         [&](HostEventId id, int64_t v) { return t.host_events[id].start_ns < v; });
    for (; it != syncs.end() && t.host_events[*it].start_ns < region.end_ns; ++it) {
      const HostEvent& e = t.host_events[*it];
      if (!region.any_process && e.pid != region.pid) continue;
      ++count;
      add_duration(wait, e.dur_ns);
      if (typical && f.evidence.size() < 4)
        f.evidence.push_back(fmt::format("{}: {} ({})", c.region_label(r), chain_of(t, *it),
                                         format_duration(e.dur_ns)));
    }
    for (GpuActivityId id : c.activities(r)) {
      if (c.activity(id).kind != GpuKind::kMemcpy ||
          c.name(id).find("DtoH") == std::string_view::npos)
        continue;
      ++dtoh;
      if (typical && f.evidence.size() < 6)
        f.evidence.push_back(fmt::format("{}: copy to host ({}) <- {}", c.region_label(r),
                                         format_size(c.activity(id).bytes), c.chain_text(id)));
    }
    f.regions_affected += count + dtoh > 0;
    if (typical) {
      typical_syncs = count;
      typical_dtoh = dtoh;
      typical_wait = wait;
    }
  }
  if (f.regions_affected == 0) return;
  f.summary = fmt::format(
      "the CPU waits for the GPU inside the region: {} synchronizing call(s) "
      "({}) and {} copy(ies) to the host in the typical region; {} of {} regions",
      typical_syncs, format_duration(typical_wait), typical_dtoh, f.regions_affected,
      c.region_count());
  f.suggestion =
      "move .item(), .cpu() and explicit synchronizes out of the measured region, or to its end";
  out.push_back(std::move(f));
}

}  // namespace attnprof
