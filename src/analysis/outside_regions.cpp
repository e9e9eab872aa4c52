#include "analysis/outside_regions.h"

#include <algorithm>

#include <fmt/format.h>

#include "analysis/busy_time.h"
#include "base/format_units.h"

namespace attnprof {

WorkOutsideRegions work_outside_regions(const Trace& trace, const RegionSet& set,
                                        const RegionMembers& members) {
  WorkOutsideRegions out;
  const auto& gpu = trace.gpu_activities;
  std::vector<bool> in_region(gpu.size(), false);
  for (const MemberSet& held : members.sets)
    for (GpuActivityId id : held.activities) in_region[id.index()] = true;
  std::vector<GpuActivityId> outside, carried;
  for (size_t g = 0; g < gpu.size(); ++g) {
    const GpuActivity& a = gpu[g];
    if (!is_gpu_work(a.kind)) continue;
    ++out.trace_activities;
    if (in_region[g]) continue;
    outside.push_back(static_cast<GpuActivityId>(g));
    if (trace.activity_launch[g] == kNoId && a.correlation != kNoValue &&
        a.correlation < trace.first_launch_correlation)
      carried.push_back(static_cast<GpuActivityId>(g));
  }
  out.activities = static_cast<int64_t>(outside.size());
  out.busy_ns = busy_time(trace, outside);
  out.carried_in = static_cast<int64_t>(carried.size());
  out.carried_in_busy_ns = busy_time(trace, carried);
  if (!carried.empty()) {
    int64_t first = gpu[carried.front()].start_ns, last = first;
    for (GpuActivityId id : carried) last = std::max(last, gpu[id].end_ns());
    for (const Region& r : set.regions)
      if (r.start_ns < last && first < r.end_ns) out.carried_in_overlaps.push_back(r.name);
  }
  return out;
}

void diagnose_work_outside_regions(const WorkOutsideRegions& outside, Diagnostics& out) {
  if (outside.carried_in > 0)
    out.add_many(
        DiagnosticKind::kCarriedIn, 1, 0,
        fmt::format("{} GPU activities ({}) were launched before the profiler's window opened "
                    "(their correlation ids are below every launch the trace recorded){}: they "
                    "are counted in no region",
                    outside.carried_in, format_duration(outside.carried_in_busy_ns),
                    outside.carried_in_overlaps.empty()
                        ? std::string()
                        : fmt::format(", and ran during {}",
                                      fmt::join(outside.carried_in_overlaps, ", "))));
  const int64_t others = outside.activities - outside.carried_in;
  if (others > 0)
    out.add_many(
        DiagnosticKind::kWorkOutsideRegions, 1, 0,
        fmt::format(
            "{} of the trace's {} GPU activities ({} in all) are in no "
            "region{}",
            outside.activities, outside.trace_activities, format_duration(outside.busy_ns),
            outside.carried_in > 0
                ? fmt::format(" ({} of them carried in from before the trace)", outside.carried_in)
                : std::string()));
}

}  // namespace attnprof
