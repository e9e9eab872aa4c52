#include "analysis/critical_path/attention_cpu_ops.h"

namespace attnprof {

namespace {

constexpr uint8_t kLaunchedAttention = 1;
constexpr uint8_t kLaunchedOther = 2;

}  // namespace

std::vector<uint8_t> attention_cpu_ops(const Trace& trace,
                                       const std::vector<uint8_t>& is_attention) {
  const size_t hosts = trace.host_events.size();
  // What each host event launched, itself or under it. The launch call's ancestors are the ops
  // that the CPU was in when it launched (for a graph replay, around its cudaGraphLaunch, not
  // around the capture that activity_op names). A walk up stops at an event that already has the
  // bit, whose ancestors have it too: each event is passed once per bit.
  std::vector<uint8_t> launched(hosts, 0);
  for (size_t i = 0; i < trace.gpu_activities.size(); ++i) {
    const GpuActivityId id(i);
    if (!is_gpu_work(trace.gpu_activities[id].kind)) continue;
    const uint8_t bit =
        i < is_attention.size() && is_attention[i] ? kLaunchedAttention : kLaunchedOther;
    for (HostEventId e = trace.activity_launch[id]; e != kNoId && !(launched[e.index()] & bit);
         e = trace.host_parent[e])
      launched[e.index()] |= bit;
  }
  auto attention_only = [&](HostEventId e) {
    return trace.host_events[e].kind == HostKind::kCpuOp &&
           launched[e.index()] == kLaunchedAttention;
  };
  std::vector<uint8_t> selected(hosts, 0);
  for (size_t i = 0; i < hosts; ++i) {
    const HostEventId id(i);
    if (!attention_only(id)) continue;
    // Outermost: no op above it qualifies. An op above that launched attention only holds this
    // one's work too, and is the one selected.
    bool outermost = true;
    for (HostEventId p = trace.host_parent[id]; p != kNoId && outermost; p = trace.host_parent[p])
      outermost = !attention_only(p);
    selected[i] = outermost ? 1 : 0;
  }
  return selected;
}

std::vector<uint8_t> under_selected_ops(const Trace& trace, const std::vector<uint8_t>& selected) {
  const size_t hosts = trace.host_events.size();
  // 0 unknown, 1 not under, 2 under; each chain is resolved once and its answer kept.
  std::vector<uint8_t> state(hosts, 0);
  std::vector<HostEventId> chain;
  for (size_t i = 0; i < hosts; ++i) {
    HostEventId e(i);
    while (e != kNoId && state[e.index()] == 0 && !selected[e.index()]) {
      chain.push_back(e);
      e = trace.host_parent[e];
    }
    uint8_t answer = 1;
    if (e != kNoId) answer = selected[e.index()] ? 2 : state[e.index()];
    if (e != kNoId && selected[e.index()]) state[e.index()] = 2;
    for (HostEventId c : chain) state[c.index()] = answer;
    chain.clear();
  }
  std::vector<uint8_t> under(hosts, 0);
  for (size_t i = 0; i < hosts; ++i) under[i] = state[i] == 2 ? 1 : 0;
  return under;
}

}  // namespace attnprof
