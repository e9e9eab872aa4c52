// Synchronizations inside a region: the CPU waits for the GPU (device, stream or event
// synchronize) or copies to the host, which stalls the launch queue.

#include <algorithm>
#include <string>
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
  // Copies to the host, per member set.
  auto to_host = [&](GpuActivityId id) {
    return c.activity(id).kind == GpuKind::kMemcpy &&
           c.name(id).find("DtoH") != std::string_view::npos;
  };
  std::vector<bool> set_copies(c.set_count(), false);
  for (size_t m = 0; m < c.set_count(); ++m) {
    const auto& members = c.set_activities(m);
    set_copies[m] = std::any_of(members.begin(), members.end(), to_host);
  }
  auto waits_in = [&](size_t r) {
    return set_copies[c.set_of(r)] || holds_call(c.regions.regions[r]);
  };
  for (size_t r = 0; r < c.region_count(); ++r) f.regions_affected += waits_in(r);
  if (f.regions_affected == 0) return;
  // The typical region's waits are the evidence; where it has none, the first region's that has
  // some: never a finding that counts nothing or shows no event.
  size_t shown = static_cast<size_t>(std::max(c.typical(), 0));
  const bool typical_waits = shown < c.region_count() && waits_in(shown);
  if (!typical_waits)
    for (shown = 0; !waits_in(shown);) ++shown;
  // Its calls and copies to the host are counted and shown (calls first).
  int syncs_shown = 0, dtoh_shown = 0;
  int64_t wait_shown = 0;
  const Region& region = c.regions.regions[shown];
  auto it =
      std::lower_bound(syncs.begin(), syncs.end(), region.start_ns,
                       [&](HostEventId id, int64_t v) { return t.host_events[id].start_ns < v; });
  for (; it != syncs.end() && t.host_events[*it].start_ns < region.end_ns; ++it) {
    const HostEvent& e = t.host_events[*it];
    if (!region.any_process && e.pid != region.pid) continue;
    ++syncs_shown;
    add_duration(wait_shown, e.dur_ns);
    if (f.evidence.size() < 4)
      f.evidence.push_back(fmt::format("{}: {} ({})", c.region_label(shown), chain_of(t, *it),
                                       format_duration(e.dur_ns)));
  }
  for (GpuActivityId id : c.set_activities(c.set_of(shown))) {
    if (!to_host(id)) continue;
    ++dtoh_shown;
    if (f.evidence.size() < 6)
      f.evidence.push_back(fmt::format("{}: copy to host ({}) <- {}", c.region_label(shown),
                                       format_size(c.activity(id).bytes), c.chain_text(id)));
  }
  std::vector<std::string> what;
  if (syncs_shown > 0)
    what.push_back(
        fmt::format("{} synchronizing call(s) ({})", syncs_shown, format_duration(wait_shown)));
  if (dtoh_shown > 0) what.push_back(fmt::format("{} copy(ies) to the host", dtoh_shown));
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
