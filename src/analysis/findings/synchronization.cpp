// Synchronizations inside a region: the CPU waits for the GPU (device, stream or event
// synchronize) or copies to the host, which stalls the launch queue.

#include <algorithm>
#include <utility>
#include <vector>

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
  // Whether a region holds a call is two binary searches, in the starts of its process's calls
  // (or of all of them for the whole trace): a walk over the calls in each region's span cost
  // regions x calls where many regions overlap.
  std::vector<std::pair<int32_t, int64_t>> by_pid;  // (pid, start), sorted
  std::vector<int64_t> starts;
  for (HostEventId id : syncs) {
    by_pid.emplace_back(t.host_events[id].pid, t.host_events[id].start_ns);
    starts.push_back(t.host_events[id].start_ns);
  }
  std::sort(by_pid.begin(), by_pid.end());
  auto holds_call = [&](const Region& region) {
    if (region.any_process) {
      auto it = std::lower_bound(starts.begin(), starts.end(), region.start_ns);
      return it != starts.end() && *it < region.end_ns;
    }
    auto it = std::lower_bound(by_pid.begin(), by_pid.end(),
                               std::pair<int32_t, int64_t>(region.pid, region.start_ns));
    return it != by_pid.end() && it->first == region.pid && it->second < region.end_ns;
  };
  Finding f{FindingKind::kSynchronization, {}, {}, {}, 0};
  int typical_syncs = 0, typical_dtoh = 0;
  int64_t typical_wait = 0;
  // The typical region's calls and copies to the host are counted and shown (calls first).
  if (c.typical() >= 0) {
    const Region& region = c.regions.regions[static_cast<size_t>(c.typical())];
    auto it =
        std::lower_bound(syncs.begin(), syncs.end(), region.start_ns,
                         [&](HostEventId id, int64_t v) { return t.host_events[id].start_ns < v; });
    for (; it != syncs.end() && t.host_events[*it].start_ns < region.end_ns; ++it) {
      const HostEvent& e = t.host_events[*it];
      if (!region.any_process && e.pid != region.pid) continue;
      ++typical_syncs;
      add_duration(typical_wait, e.dur_ns);
      if (f.evidence.size() < 4)
        f.evidence.push_back(fmt::format("{}: {} ({})", c.region_label(c.typical()),
                                         chain_of(t, *it), format_duration(e.dur_ns)));
    }
  }
  // Copies to the host, per member set.
  std::vector<bool> set_copies(c.set_count(), false);
  for (size_t m = 0; m < c.set_count(); ++m) {
    const bool typical = m == c.typical_set();
    for (GpuActivityId id : c.set_activities(m)) {
      if (c.activity(id).kind != GpuKind::kMemcpy ||
          c.name(id).find("DtoH") == std::string_view::npos)
        continue;
      set_copies[m] = true;
      if (!typical) break;
      ++typical_dtoh;
      if (f.evidence.size() < 6)
        f.evidence.push_back(fmt::format("{}: copy to host ({}) <- {}", c.region_label(c.typical()),
                                         format_size(c.activity(id).bytes), c.chain_text(id)));
    }
  }
  for (size_t r = 0; r < c.region_count(); ++r)
    f.regions_affected += set_copies[c.set_of(r)] || holds_call(c.regions.regions[r]);
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
