#include "model/linker.h"

#include <string>
#include <unordered_map>
#include <vector>

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

// Host event ids by a 64-bit id (correlation, External id): open addressing, the first id
// inserted for a key wins. A node-based std::unordered_map cost ~6% of a whole read in
// allocations and rehashing on a 1 GB trace.
class IdIndex {
 public:
  explicit IdIndex(size_t expected) {
    size_t slots = 16;
    while (slots < expected * 2) slots *= 2;
    assign_on_huge_pages(slots_, slots, Slot{});
  }
  // Inserts unless `key` is there; false when it was.
  bool insert(int64_t key, HostEventId value) {
    for (size_t i = hash(key);; i = (i + 1) & (slots_.size() - 1)) {
      Slot& s = slots_[i];
      if (s.value == kNoId) {
        s = {key, value};
        return true;
      }
      if (s.key == key) return false;
    }
  }
  HostEventId find(int64_t key) const {
    for (size_t i = hash(key);; i = (i + 1) & (slots_.size() - 1)) {
      const Slot& s = slots_[i];
      if (s.value == kNoId) return kNoId;
      if (s.key == key) return s.value;
    }
  }

 private:
  struct Slot {
    int64_t key = 0;
    HostEventId value = kNoId;
  };
  size_t hash(int64_t key) const {
    uint64_t h = static_cast<uint64_t>(key) * 0x9e3779b97f4a7c15ULL;
    return static_cast<size_t>(h ^ (h >> 29)) & (slots_.size() - 1);
  }
  std::vector<Slot> slots_;
};

// A diagnostic whose detail is formatted only when it is among the few kept.
template <typename Detail>
void diagnose(Trace& trace, DiagnosticKind kind, Detail&& detail) {
  trace.diagnostics.add(
      kind, 0,
      trace.diagnostics.count(kind) < Diagnostics::kKeptPerKind ? detail() : std::string());
}

void link_launches(Trace& trace) {
  const auto& host = trace.host_events;
  size_t launches = 0;
  for (const HostEvent& e : host)
    if ((e.kind == HostKind::kRuntime || e.kind == HostKind::kDriver) && e.correlation != kNoValue)
      ++launches;
  IdIndex launch_by_correlation(launches);
  for (size_t i = 0; i < host.size(); ++i) {
    const HostEvent& e = host[i];
    if ((e.kind == HostKind::kRuntime || e.kind == HostKind::kDriver) &&
        e.correlation != kNoValue) {
      if (!launch_by_correlation.insert(e.correlation, static_cast<HostEventId>(i)))
        diagnose(trace, DiagnosticKind::kDuplicateCorrelation, [&] {
          return fmt::format("correlation {} is shared by two runtime calls", e.correlation);
        });
    }
  }

  const auto& gpu = trace.gpu_activities;
  assign_on_huge_pages(trace.activity_launch, gpu.size(), kNoId);
  assign_on_huge_pages(trace.activity_op, gpu.size(), kNoId);
  std::vector<bool> launched(host.size(), false);
  std::vector<GpuActivityId> by_external_id;  // activities whose op is found by "External id"
  for (size_t g = 0; g < gpu.size(); ++g) {
    const GpuActivity& a = gpu[g];
    if (a.kind == GpuKind::kUserAnnotation) continue;
    HostEventId launch =
        a.correlation == kNoValue ? kNoId : launch_by_correlation.find(a.correlation);
    if (launch != kNoId) {
      trace.activity_launch[g] = launch;
      launched[launch] = true;
      for (HostEventId p = trace.host_parent[launch]; p != kNoId; p = trace.host_parent[p]) {
        if (host[p].kind == HostKind::kCpuOp) {
          trace.activity_op[g] = p;
          break;
        }
      }
    } else {
      diagnose(trace, DiagnosticKind::kActivityWithoutLaunch, [&] {
        return fmt::format("\"{}\" (correlation {}) has no runtime call in the trace",
                           trace.strings.view(a.name), a.correlation);
      });
    }
    if (trace.activity_op[g] == kNoId && a.external_id != kNoValue)
      by_external_id.push_back(static_cast<GpuActivityId>(g));
  }
  if (!by_external_id.empty()) {
    // The first cpu_op (in table order) with each wanted External id.
    IdIndex wanted(by_external_id.size());
    for (GpuActivityId g : by_external_id) wanted.insert(gpu[g].external_id, kNoId + 1);
    IdIndex op_by_external_id(by_external_id.size());
    for (size_t i = 0; i < host.size(); ++i) {
      const HostEvent& e = host[i];
      if (e.kind == HostKind::kCpuOp && e.external_id != kNoValue &&
          wanted.find(e.external_id) != kNoId)
        op_by_external_id.insert(e.external_id, static_cast<HostEventId>(i));
    }
    for (GpuActivityId g : by_external_id)
      trace.activity_op[g] = op_by_external_id.find(gpu[g].external_id);
  }
  std::vector<signed char> launch_api(trace.strings.size(), -1);  // per name: unknown, no, yes
  for (size_t i = 0; i < host.size(); ++i) {
    const HostEvent& e = host[i];
    if ((e.kind != HostKind::kRuntime && e.kind != HostKind::kDriver) || launched[i]) continue;
    signed char& api = launch_api[e.name];
    if (api < 0) api = kineto::is_kernel_launch_api(trace.strings.view(e.name)) ? 1 : 0;
    if (api)
      diagnose(trace, DiagnosticKind::kLaunchWithoutActivity, [&] {
        return fmt::format("{} (correlation {}) launched nothing the trace shows",
                           trace.strings.view(e.name), e.correlation);
      });
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
