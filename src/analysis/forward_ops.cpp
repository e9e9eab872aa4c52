#include "analysis/forward_ops.h"

#include <algorithm>

#include "reader/kineto_format.h"

namespace attnprof {

void ForwardOps::index() const {
  indexed_ = true;
  // A trace spells a few categories: each is looked up once.
  std::vector<int8_t> forward_backward(trace_.strings.size(), -1);
  for (const FlowEvent& f : trace_.flows) {
    int8_t& known = forward_backward[f.category];
    if (known < 0)
      known = kineto::category_from_name(trace_.strings.view(f.category)) ==
              kineto::Category::kFlowFwdBwd;
    if (!known) continue;
    const Point at{f.pid, f.tid, f.ts_ns};
    if (f.phase == 's')
      starts_.emplace_back(f.id, at);
    else if (f.phase == 'f')
      finishes_.emplace_back(at, f.id);
  }
  std::sort(finishes_.begin(), finishes_.end());
  std::stable_sort(starts_.begin(), starts_.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
}

HostEventId ForwardOps::forward_of(HostEventId backward) const {
  if (!indexed_) index();
  const HostEvent& b = trace_.host_events[backward];
  auto it = std::lower_bound(finishes_.begin(), finishes_.end(),
                             std::pair(Point{b.pid, b.tid, b.start_ns}, INT64_MIN));
  if (it == finishes_.end() || std::get<0>(it->first) != b.pid || std::get<1>(it->first) != b.tid ||
      std::get<2>(it->first) > b.end_ns())
    return kNoId;
  const auto start =
      std::lower_bound(starts_.begin(), starts_.end(), it->second,
                       [](const std::pair<int64_t, Point>& s, int64_t id) { return s.first < id; });
  if (start == starts_.end() || start->first != it->second) return kNoId;
  // Host events are sorted by thread, then start: the forward op is among those that start at
  // the flow's start on its thread.
  const auto& [pid, tid, ts] = start->second;
  const auto& host = trace_.host_events;
  size_t lo = 0, hi = host.size();
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    const HostEvent& e = host[HostEventId(mid)];
    if (std::tuple(e.pid, e.tid, e.start_ns) < std::tuple(pid, tid, ts))
      lo = mid + 1;
    else
      hi = mid;
  }
  // At one start the longest comes first: the innermost cpu_op there is the one the flow
  // leaves from (an op's first child may start at the same nanosecond).
  HostEventId found = kNoId;
  for (size_t i = lo; i < host.size(); ++i) {
    const HostEvent& e = host[HostEventId(i)];
    if (e.pid != pid || e.tid != tid || e.start_ns != ts) break;
    if (e.kind == HostKind::kCpuOp) found = HostEventId(i);
  }
  return found;
}

}  // namespace attnprof
