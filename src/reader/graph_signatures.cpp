#include "reader/graph_signatures.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include <fmt/format.h>

#include "reader/kineto_format.h"

namespace attnprof {

namespace {

// Each graph launch's GPU work whose attribution is `wanted`, by launch, in start order.
std::map<HostEventId, std::vector<GpuActivityId>> replays_of(const Trace& t, Attribution wanted) {
  std::map<HostEventId, std::vector<GpuActivityId>> replays;
  std::vector<signed char> graph_api(t.strings.size(), -1);  // per name: unknown, no, yes
  for (size_t g = 0; g < t.gpu_activities.size(); ++g) {
    const HostEventId launch = t.activity_launch[g];
    if (launch == kNoId || !is_gpu_work(t.gpu_activities[GpuActivityId(g)].kind) ||
        t.activity_attribution[g] != wanted)
      continue;
    signed char& api = graph_api[t.host_events[launch].name];
    if (api < 0) api = kineto::is_graph_launch_api(t.strings.view(t.host_events[launch].name));
    if (api) replays[launch].push_back(static_cast<GpuActivityId>(g));
  }
  for (auto& [launch, ids] : replays)
    std::stable_sort(ids.begin(), ids.end(), [&](GpuActivityId a, GpuActivityId b) {
      return t.gpu_activities[a].start_ns < t.gpu_activities[b].start_ns;
    });
  return replays;
}

// The kinds and names of a replay's activities, in order: what two traces of one graph share.
// Empty when they run on several streams, where the order is the GPU's choice.
std::string key_of(const Trace& t, const std::vector<GpuActivityId>& ids) {
  std::string key;
  for (GpuActivityId id : ids) {
    const GpuActivity& a = t.gpu_activities[id];
    const GpuActivity& first = t.gpu_activities[ids.front()];
    if (a.stream != first.stream || a.device != first.device) return {};
    key += static_cast<char>('0' + static_cast<int>(a.kind));
    key += t.strings.view(a.name);
    key += '\n';
  }
  return key;
}

}  // namespace

Result<GraphSignatures> graph_signatures(const Trace& capture) {
  GraphSignatures out;
  out.path = capture.path;
  const auto& host = capture.host_events;
  std::unordered_map<HostEventId, int32_t> copied;  // a capture trace's op -> its index in ops
  // The op and its cpu_op ancestors, copied once each.
  auto copy = [&](auto& self, HostEventId op) -> int32_t {
    if (op == kNoId) return -1;
    if (auto it = copied.find(op); it != copied.end()) return it->second;
    HostEventId above = capture.host_parent[op];
    while (above != kNoId && host[above].kind != HostKind::kCpuOp)
      above = capture.host_parent[above];
    const int32_t parent = self(self, above);
    const HostEvent& e = host[op];
    SignatureOp copy_of{
        std::string(capture.strings.view(e.name)), e.start_ns, e.dur_ns, parent, {}};
    if (e.inputs() != StringPool::kEmpty)
      copy_of.inputs = std::string(capture.op_input_texts.view(e.inputs()));
    out.ops.push_back(std::move(copy_of));
    return copied[op] = static_cast<int32_t>(out.ops.size() - 1);
  };
  // The op chain's names of each activity, to tell two graphs of one signature apart.
  auto chain_names = [&](const GraphSignature& g) {
    std::string names;
    for (int32_t op : g.ops)
      for (int32_t o = op; o >= 0; o = out.ops[o].parent) names += out.ops[o].name + "\n";
    return names;
  };
  std::map<std::string, size_t> by_key;
  for (const auto& [launch, ids] : replays_of(capture, Attribution::kCaptureOrder)) {
    ++out.replays_read;
    GraphSignature graph{key_of(capture, ids), {}, false};
    if (graph.key.empty()) continue;
    for (GpuActivityId id : ids) {
      HostEventId op = capture.activity_op[id];
      while (op != kNoId && host[op].kind != HostKind::kCpuOp) op = capture.host_parent[op];
      graph.ops.push_back(copy(copy, op));
    }
    auto [it, fresh] = by_key.try_emplace(graph.key, out.graphs.size());
    if (fresh)
      out.graphs.push_back(std::move(graph));
    else if (chain_names(out.graphs[it->second]) != chain_names(graph))
      out.graphs[it->second].ambiguous = true;
  }
  if (out.graphs.empty())
    return make_error(
        ErrorKind::kUsage,
        "{}: --graph-capture needs a trace that holds a CUDA graph's capture and "
        "a replay after it (the replay gives the kernel names to match, the "
        "capture their ops); this one has {}",
        capture.path,
        out.replays_read > 0 ? "none on one stream" : "no replay paired with a capture");
  return out;
}

int64_t attribute_by_signature(Trace& trace, const GraphSignatures& signatures) {
  std::unordered_map<std::string_view, const GraphSignature*> by_key;
  for (const GraphSignature& g : signatures.graphs) by_key.emplace(g.key, &g);
  // The copied ops end just before the trace's first event, their order and spacing kept.
  int64_t first = std::numeric_limits<int64_t>::max(), last_copied = 0;
  for (const HostEvent& e : trace.host_events) first = std::min(first, e.start_ns);
  for (const GpuActivity& a : trace.gpu_activities) first = std::min(first, a.start_ns);
  for (const SignatureOp& op : signatures.ops)
    last_copied = std::max(last_copied, op.start_ns + op.dur_ns);
  const int64_t shift = first - 1'000 - last_copied;
  std::vector<HostEventId> placed(signatures.ops.size(), kNoId);
  auto place = [&](auto& self, int32_t index, int32_t pid) -> HostEventId {
    if (index < 0) return kNoId;
    if (placed[index] != kNoId) return placed[index];
    const SignatureOp& op = signatures.ops[index];
    const HostEventId parent = self(self, op.parent, pid);  // a parent precedes its children
    HostEvent e;
    e.start_ns = op.start_ns + shift;
    e.dur_ns = op.dur_ns;
    e.pid = pid;
    e.tid = kCopiedOpsTid;
    e.name = trace.strings.intern(op.name);
    e.kind = HostKind::kCpuOp;
    if (!op.inputs.empty()) e.set_inputs(trace.op_input_texts.intern(op.inputs));
    trace.host_events.push_back(e);
    trace.host_parent.push_back(parent);
    return placed[index] = static_cast<HostEventId>(trace.host_events.size() - 1);
  };
  int64_t matched = 0;
  for (const auto& [launch, ids] : replays_of(trace, Attribution::kUnknown)) {
    const std::string key = key_of(trace, ids);
    auto it = key.empty() ? by_key.end() : by_key.find(key);
    if (it == by_key.end() || it->second->ambiguous) {
      trace.diagnostics.add(
          DiagnosticKind::kReplayNotMatched, 0,
          fmt::format("{} (correlation {}, {} activities{}): {}",
                      trace.strings.view(trace.host_events[launch].name),
                      trace.host_events[launch].correlation, ids.size(),
                      key.empty() ? ", on several streams" : "",
                      key.empty() ? "a replay on several streams has no order to match"
                      : it == by_key.end()
                          ? fmt::format("no graph of {} has its kernel names", signatures.path)
                          : fmt::format("two graphs of {} have its kernel names with other ops",
                                        signatures.path)));
      continue;
    }
    ++matched;
    const int32_t pid = trace.host_events[launch].pid;
    for (size_t n = 0; n < ids.size(); ++n) {
      trace.activity_attribution[ids[n]] = Attribution::kSignature;
      const HostEventId op = place(place, it->second->ops[n], pid);
      if (op != kNoId) trace.activity_op[ids[n]] = op;
    }
  }
  return matched;
}

}  // namespace attnprof
