#include "model/linker.h"

#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "model/huge_pages.h"
#include "reader/kineto_format.h"

namespace attnprof {

namespace {

void link_parents(Trace& trace) {
  const auto& host = trace.host_events;
  assign_on_huge_pages(trace.host_parent, host.size(), kNoId);
  std::vector<HostEventId> stack;
  for (size_t i = 0; i < host.size(); ++i) {
    const HostEvent& e = host[i];
    if (i > 0 && (host[i - 1].pid != e.pid || host[i - 1].tid != e.tid)) stack.clear();
    // Sorted by start (longest first at a tie): whatever on the stack ends before this event
    // ends cannot hold it, whether it ended before this one started or overlaps it partly.
    while (!stack.empty() && host[stack.back()].end_ns() < e.end_ns()) stack.pop_back();
    if (!stack.empty()) trace.host_parent[i] = stack.back();
    stack.push_back(static_cast<HostEventId>(i));
  }
}

void link_launches(Trace& trace) {
  const auto& host = trace.host_events;
  std::unordered_map<int64_t, HostEventId> launch_by_correlation;
  std::unordered_map<int64_t, HostEventId> op_by_external_id;
  launch_by_correlation.reserve(host.size() / 4);
  for (size_t i = 0; i < host.size(); ++i) {
    const HostEvent& e = host[i];
    if ((e.kind == HostKind::kRuntime || e.kind == HostKind::kDriver) && e.correlation != kNoValue) {
      auto [it, inserted] = launch_by_correlation.emplace(e.correlation, static_cast<HostEventId>(i));
      if (!inserted)
        trace.diagnostics.add(DiagnosticKind::kDuplicateCorrelation, 0,
                              fmt::format("correlation {} is shared by two runtime calls",
                                          e.correlation));
    } else if (e.kind == HostKind::kCpuOp && e.external_id != kNoValue) {
      op_by_external_id.emplace(e.external_id, static_cast<HostEventId>(i));
    }
  }

  const auto& gpu = trace.gpu_activities;
  assign_on_huge_pages(trace.activity_launch, gpu.size(), kNoId);
  assign_on_huge_pages(trace.activity_op, gpu.size(), kNoId);
  std::unordered_set<HostEventId> launched;
  for (size_t g = 0; g < gpu.size(); ++g) {
    const GpuActivity& a = gpu[g];
    if (a.kind == GpuKind::kUserAnnotation) continue;
    if (auto it = launch_by_correlation.find(a.correlation); it != launch_by_correlation.end()) {
      trace.activity_launch[g] = it->second;
      launched.insert(it->second);
      for (HostEventId p = trace.host_parent[it->second]; p != kNoId; p = trace.host_parent[p]) {
        if (host[p].kind == HostKind::kCpuOp) {
          trace.activity_op[g] = p;
          break;
        }
      }
    } else {
      trace.diagnostics.add(DiagnosticKind::kActivityWithoutLaunch, 0,
                            fmt::format("\"{}\" (correlation {}) has no runtime call in the trace",
                                        trace.strings.view(a.name), a.correlation));
    }
    if (trace.activity_op[g] == kNoId && a.external_id != kNoValue) {
      if (auto it = op_by_external_id.find(a.external_id); it != op_by_external_id.end())
        trace.activity_op[g] = it->second;
    }
  }
  for (size_t i = 0; i < host.size(); ++i) {
    const HostEvent& e = host[i];
    if ((e.kind == HostKind::kRuntime || e.kind == HostKind::kDriver) &&
        kineto::is_kernel_launch_api(trace.strings.view(e.name)) &&
        !launched.count(static_cast<HostEventId>(i)))
      trace.diagnostics.add(DiagnosticKind::kLaunchWithoutActivity, 0,
                            fmt::format("{} (correlation {}) launched nothing the trace shows",
                                        trace.strings.view(e.name), e.correlation));
  }
}

void check_flows(Trace& trace) {
  // Each flow id should have one start and one finish per category. ac2g flows are left out:
  // they repeat the correlation ids, which link_launches checks, and Kineto writes unpaired ones
  // by design (a start on every cudaDeviceSynchronize, which has no GPU side).
  StringId ac2g = trace.strings.intern("ac2g");
  struct Ends {
    int starts = 0, finishes = 0;
  };
  std::unordered_map<uint64_t, Ends> ends;
  for (const auto& f : trace.flows) {
    if (f.category == ac2g) continue;
    uint64_t key = (static_cast<uint64_t>(f.category) << 48) ^ static_cast<uint64_t>(f.id);
    auto& e = ends[key];
    (f.phase == 's' ? e.starts : e.finishes)++;
  }
  for (const auto& [key, e] : ends)
    if (e.starts == 0 || e.finishes == 0)
      trace.diagnostics.add(DiagnosticKind::kFlowWithoutPartner, 0,
                            fmt::format("flow id {} has {} start(s) and {} finish(es)",
                                        key & 0xffffffffffffULL, e.starts, e.finishes));
}

}  // namespace

void link_trace(Trace& trace) {
  link_parents(trace);
  link_launches(trace);
  check_flows(trace);
}

}  // namespace attnprof
