#include "reader/graph_replays.h"

#include <algorithm>
#include <map>
#include <vector>

#include "model/huge_pages.h"
#include "reader/kineto_format.h"

namespace attnprof {

namespace {

// The launches one cudaStreamBeginCapture ... cudaStreamEndCapture recorded into a graph, in the
// order they were made on the capturing thread.
struct Capture {
  int32_t pid = 0;
  std::vector<GpuKind> kinds;
  std::vector<HostEventId> ops;  // the innermost cpu_op above each launch (kNoId: none)
};

HostEventId innermost_op(const Trace& trace, HostEventId e) {
  for (HostEventId p = trace.host_parent[e]; p != kNoId; p = trace.host_parent[p])
    if (trace.host_events[p].kind == HostKind::kCpuOp) return p;
  return kNoId;
}

// Host events are in table order: by process and thread, then by start.
std::vector<Capture> find_captures(Trace& trace, const std::vector<bool>& ran) {
  const auto& host = trace.host_events;
  const StringId begin = trace.strings.intern(kineto::kBeginCapture);
  const StringId end = trace.strings.intern(kineto::kEndCapture);
  std::vector<Capture> captures;
  bool open = false;
  for (size_t i = 0; i < host.size(); ++i) {
    const HostEvent& e = host[i];
    if (i > 0 && (host[i - 1].pid != e.pid || host[i - 1].tid != e.tid)) open = false;
    if (e.kind != HostKind::kRuntime && e.kind != HostKind::kDriver) continue;
    if (e.name == begin) {
      captures.push_back({e.pid, {}, {}});
      open = true;
    } else if (e.name == end) {
      open = false;
    } else if (open && !ran[i]) {
      // A launch whose work ran (another stream, not capturing) put nothing into the graph.
      if (auto kind = kineto::captured_node_kind(trace.strings.view(e.name))) {
        captures.back().kinds.push_back(*kind);
        captures.back().ops.push_back(innermost_op(trace, static_cast<HostEventId>(i)));
      }
    }
  }
  return captures;
}

bool same_op_names(const Trace& trace, const Capture& a, const Capture& b) {
  auto name = [&](HostEventId op) {
    return op == kNoId ? StringPool::kEmpty : trace.host_events[op].name;
  };
  return std::equal(a.ops.begin(), a.ops.end(), b.ops.begin(), b.ops.end(),
                    [&](HostEventId x, HostEventId y) { return name(x) == name(y); });
}

}  // namespace

void attribute_graph_replays(Trace& trace) {
  const auto& gpu = trace.gpu_activities;
  const auto& host = trace.host_events;
  assign_on_huge_pages(trace.activity_attribution, gpu.size(), Attribution::kLaunch);
  std::vector<bool> ran(host.size(), false);
  // Each graph launch's activities; activities without a launch that name no op are unknown.
  std::map<HostEventId, std::vector<GpuActivityId>> replays;
  std::vector<signed char> graph_api(trace.strings.size(), -1);  // per name: unknown, no, yes
  for (size_t g = 0; g < gpu.size(); ++g) {
    const HostEventId launch = trace.activity_launch[g];
    if (launch == kNoId) {
      if (is_gpu_work(gpu[g].kind) && trace.activity_op[g] == kNoId)
        trace.activity_attribution[g] = Attribution::kUnknown;
      continue;
    }
    ran[launch.index()] = true;
    signed char& api = graph_api[host[launch].name];
    if (api < 0) api = kineto::is_graph_launch_api(trace.strings.view(host[launch].name)) ? 1 : 0;
    if (api && is_gpu_work(gpu[g].kind)) replays[launch].push_back(static_cast<GpuActivityId>(g));
  }
  if (replays.empty()) return;
  const std::vector<Capture> captures = find_captures(trace, ran);
  // Not a structured binding: clang 14 (the fuzz preset) cannot capture one in a lambda.
  for (auto& replay : replays) {
    const HostEventId launch = replay.first;
    std::vector<GpuActivityId>& activities = replay.second;
    std::stable_sort(activities.begin(), activities.end(), [&](GpuActivityId a, GpuActivityId b) {
      return gpu[a].start_ns < gpu[b].start_ns;
    });
    // Pairing by order holds on one stream only: a graph's parallel branches run in an order
    // of the GPU's choosing.
    const GpuActivity& first = gpu[activities.front()];
    const bool one_stream = std::all_of(activities.begin(), activities.end(), [&](GpuActivityId a) {
      return gpu[a].stream == first.stream && gpu[a].device == first.device;
    });
    const Capture* match = nullptr;
    int matches = 0;
    if (one_stream)
      for (const Capture& c : captures) {
        if (c.pid != host[launch].pid || c.kinds.size() != activities.size()) continue;
        bool same = true;
        for (size_t n = 0; n < activities.size() && same; ++n)
          same = gpu[activities[n]].kind == c.kinds[n];
        // Two captures of the same shape with different ops would be a guess.
        if (same && (match == nullptr || !same_op_names(trace, *match, c))) {
          match = &c;
          ++matches;
        }
      }
    for (size_t n = 0; n < activities.size(); ++n) {
      if (matches == 1) {
        trace.activity_attribution[activities[n]] = Attribution::kCaptureOrder;
        if (match->ops[n] != kNoId) trace.activity_op[activities[n]] = match->ops[n];
      } else {
        trace.activity_attribution[activities[n]] = Attribution::kUnknown;
      }
    }
  }
}

}  // namespace attnprof
