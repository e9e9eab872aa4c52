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
  struct Waits {
    int syncs = 0, dtoh = 0;
    int64_t wait = 0;
    std::vector<std::string> evidence;
  };
  std::vector<Waits> regions(c.region_count());
  for (size_t r = 0; r < c.region_count(); ++r) {
    const Region& region = c.regions.regions[r];
    Waits& w = regions[r];
    std::vector<std::string> copies;
    auto it =
        std::lower_bound(syncs.begin(), syncs.end(), region.start_ns,
                         [&](HostEventId id, int64_t v) { return t.host_events[id].start_ns < v; });
    for (; it != syncs.end() && t.host_events[*it].start_ns < region.end_ns; ++it) {
      const HostEvent& e = t.host_events[*it];
      if (!region.any_process && e.pid != region.pid) continue;
      ++w.syncs;
      add_duration(w.wait, e.dur_ns);
      if (w.evidence.size() < 4)
        w.evidence.push_back(fmt::format("{}: {} ({})", c.region_label(r), chain_of(t, *it),
                                         format_duration(e.dur_ns)));
    }
    for (GpuActivityId id : c.activities(r)) {
      if (c.activity(id).kind != GpuKind::kMemcpy ||
          c.name(id).find("DtoH") == std::string_view::npos)
        continue;
      ++w.dtoh;
      if (w.evidence.size() < 6)
        w.evidence.push_back(fmt::format("{}: copy to host ({}) <- {}", c.region_label(r),
                                         format_size(c.activity(id).bytes), c.chain_text(id)));
    }
    f.regions_affected += w.syncs + w.dtoh > 0;
  }
  if (f.regions_affected == 0) return;
  // The typical region's waits are the evidence; where it has none, the first region's that has
  // some: never a finding that counts nothing or shows no event.
  size_t shown = static_cast<size_t>(std::max(c.typical(), 0));
  const bool typical_waits =
      shown < regions.size() && regions[shown].syncs + regions[shown].dtoh > 0;
  if (!typical_waits)
    for (shown = 0; regions[shown].syncs + regions[shown].dtoh == 0;) ++shown;
  const Waits& w = regions[shown];
  f.evidence = w.evidence;
  std::vector<std::string> what;
  if (w.syncs > 0)
    what.push_back(fmt::format("{} synchronizing call(s) ({})", w.syncs, format_duration(w.wait)));
  if (w.dtoh > 0) what.push_back(fmt::format("{} copy(ies) to the host", w.dtoh));
  std::string words;
  for (const std::string& part : what) words += (words.empty() ? "" : " and ") + part;
  f.summary =
      fmt::format("the CPU waits for the GPU inside the region: {} in {}; {} of {} regions", words,
                  typical_waits ? std::string("the typical region") : c.region_label(shown),
                  f.regions_affected, c.region_count());
  f.suggestion =
      "move .item(), .cpu() and explicit synchronizes out of the measured region, or to its end";
  out.push_back(std::move(f));
}

}  // namespace attnprof
