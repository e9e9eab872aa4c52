#include "analysis/collectives/collective_visits.h"

#include <algorithm>

#include "analysis/collectives/collectives.h"
#include "analysis/kernels/kernel_class.h"
#include "analysis/kernels/kernel_names.h"
#include "model/collective_text.h"

namespace attnprof {

namespace {

// The op that runs a CPU collective, not the one that submits it: c10d::allreduce_ hands the work
// to gloo's thread and returns, where gloo:all_reduce runs until every rank has joined.
bool runs_cpu_collective(std::string_view name) {
  return name.starts_with("gloo:") || name.starts_with("nccl:");
}

}  // namespace

std::vector<CollectiveVisit> kernel_collective_visits(const Trace& trace,
                                                      const std::vector<GpuActivityId>& activities,
                                                      const std::vector<uint8_t>& class_of,
                                                      KernelShortNames& kernel_names) {
  std::vector<CollectiveVisit> out;
  for (GpuActivityId id : activities) {
    const GpuActivity& a = trace.gpu_activities[id];
    if (a.kind != GpuKind::kKernel ||
        class_of[id.index()] != static_cast<uint8_t>(KernelClass::kCommunication))
      continue;
    CollectiveFields f;
    if (a.collective() != StringPool::kEmpty)
      if (auto given = split_collective_fields(trace.strings.view(a.collective()))) f = *given;
    CollectiveVisit v;
    v.name = collective_name(trace, a, f, kernel_names);
    v.group = f.process_group;
    v.start_ns = a.start_ns;
    v.end_ns = a.start_ns + a.dur_ns;
    out.push_back(std::move(v));
  }
  std::stable_sort(out.begin(), out.end(), [](const CollectiveVisit& a, const CollectiveVisit& b) {
    return a.start_ns < b.start_ns;
  });
  return out;
}

CpuCollectives::CpuCollectives(const Trace& trace) : trace_(trace) {
  for (size_t i = 0; i < trace.host_events.size(); ++i) {
    const HostEvent& e = trace.host_events[HostEventId(i)];
    if ((e.kind == HostKind::kCpuOp || e.kind == HostKind::kUserAnnotation) &&
        runs_cpu_collective(trace.strings.view(e.name)))
      events_.push_back(HostEventId(i));
  }
  std::stable_sort(events_.begin(), events_.end(), [&](HostEventId a, HostEventId b) {
    return trace.host_events[a].start_ns < trace.host_events[b].start_ns;
  });
}

std::vector<CollectiveVisit> CpuCollectives::within(int32_t pid, bool any_process, int64_t start_ns,
                                                    int64_t end_ns) const {
  std::vector<CollectiveVisit> out;
  auto it = std::lower_bound(
      events_.begin(), events_.end(), start_ns,
      [&](HostEventId e, int64_t t) { return trace_.host_events[e].start_ns < t; });
  for (; it != events_.end() && trace_.host_events[*it].start_ns < end_ns; ++it) {
    const HostEvent& e = trace_.host_events[*it];
    if (!any_process && e.pid != pid) continue;
    CollectiveVisit v;
    v.name = trace_.strings.view(e.name);
    v.start_ns = e.start_ns;
    v.end_ns = e.end_ns();
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace attnprof
