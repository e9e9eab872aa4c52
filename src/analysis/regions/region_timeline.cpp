#include "analysis/regions/region_timeline.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace attnprof {

namespace {

bool drawn_on_cpu(HostKind kind) {
  return kind == HostKind::kCpuOp || kind == HostKind::kUserAnnotation ||
         kind == HostKind::kRuntime || kind == HostKind::kDriver;
}

SpanKind span_kind(HostKind kind) {
  switch (kind) {
    case HostKind::kUserAnnotation:
      return SpanKind::kUserAnnotation;
    case HostKind::kRuntime:
      return SpanKind::kRuntime;
    case HostKind::kDriver:
      return SpanKind::kDriver;
    default:
      return SpanKind::kCpuOp;
  }
}

SpanKind span_kind(GpuKind kind) {
  switch (kind) {
    case GpuKind::kMemcpy:
      return SpanKind::kMemcpy;
    case GpuKind::kMemset:
      return SpanKind::kMemset;
    default:
      return SpanKind::kKernel;
  }
}

std::string thread_label(const Trace& trace, int32_t pid, int32_t tid) {
  std::string label;
  for (const ThreadName& n : trace.thread_names)
    if (!n.is_process && n.pid == pid && n.tid == tid)
      label = std::string(trace.strings.view(n.name));
  while (!label.empty() && label.back() == ' ') label.pop_back();
  return label.empty() ? "thread " + std::to_string(tid) : label;
}

// Keeps at most `limit` of `spans` (with their ids), in start order: first those `preferred`
// says to keep, longest first, up to half the limit; then the longest of the rest. Returns whether
// any was dropped.
template <typename Id, typename Preferred>
bool keep_longest(std::vector<std::pair<TimelineSpan, Id>>& spans, size_t limit,
                  Preferred preferred) {
  if (spans.size() <= limit) return false;
  std::stable_sort(spans.begin(), spans.end(), [](const auto& a, const auto& b) {
    return a.first.duration_ns > b.first.duration_ns;
  });
  const size_t preferred_limit = limit / 2;
  std::vector<std::pair<TimelineSpan, Id>> kept, rest;
  kept.reserve(limit);
  for (auto& span : spans) {
    if (kept.size() < preferred_limit && preferred(span.second))
      kept.push_back(std::move(span));
    else
      rest.push_back(std::move(span));
  }
  for (auto& span : rest) {
    if (kept.size() == limit) break;
    kept.push_back(std::move(span));
  }
  std::stable_sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) {
    return a.first.start_ns < b.first.start_ns;
  });
  spans = std::move(kept);
  return true;
}

template <typename Id>
bool keep_longest(std::vector<std::pair<TimelineSpan, Id>>& spans, size_t limit) {
  return keep_longest(spans, limit, [](const Id&) { return false; });
}

}  // namespace

RegionTimeline build_region_timeline(const Trace& trace, const Region& region,
                                     const std::vector<GpuActivityId>& members,
                                     const std::vector<ActivityRow>& rows,
                                     const TimelineOptions& options) {
  RegionTimeline t;
  t.region_name = region.name;
  t.region_duration_ns = region.end_ns - region.start_ns;
  t.end_ns = t.region_duration_ns;
  t.activities = rows;
  const size_t gpu_count = std::min(members.size(), rows.size());

  // CPU: the process's host events that start inside the region, per thread, parents first.
  std::vector<HostEventId> host;
  for (size_t i = 0; i < trace.host_events.size(); ++i) {
    const HostEvent& e = trace.host_events[i];
    if (!drawn_on_cpu(e.kind) || e.start_ns < region.start_ns || e.start_ns >= region.end_ns)
      continue;
    if (!region.any_process && e.pid != region.pid) continue;
    host.push_back(static_cast<HostEventId>(i));
  }
  std::sort(host.begin(), host.end(), [&](HostEventId a, HostEventId b) {
    const HostEvent& x = trace.host_events[a];
    const HostEvent& y = trace.host_events[b];
    return std::tuple(x.pid, x.tid, x.start_ns, -x.dur_ns) <
           std::tuple(y.pid, y.tid, y.start_ns, -y.dur_ns);
  });
  // Depth: the drawn ancestors (host_parent is on the same thread; ancestors that are not drawn,
  // such as Python frames or an enclosing step that began before the region, do not count).
  // Ancestors are sorted first, so each is drawn before its descendants ask. The answer for an
  // undrawn ancestor (the depth its drawn children get) is kept: without it, every top-level span
  // under a deep chain of undrawn annotations walked the whole chain (docs/SECURITY.md).
  std::unordered_map<HostEventId, int32_t> depth, below_undrawn;
  const std::unordered_set<HostEventId> drawn(host.begin(), host.end());
  depth.reserve(host.size());
  std::vector<HostEventId> walked;
  for (HostEventId id : host) {
    int32_t d = 0;
    walked.clear();
    for (HostEventId p = trace.host_parent[id]; p != kNoId; p = trace.host_parent[p]) {
      if (auto it = depth.find(p); it != depth.end()) {
        d = it->second + 1;
        break;
      }
      if (auto it = below_undrawn.find(p); it != below_undrawn.end()) {
        d = it->second;
        break;
      }
      if (!drawn.count(p)) walked.push_back(p);
    }
    for (HostEventId p : walked) below_undrawn.emplace(p, d);
    depth.emplace(id, d);
  }

  // GPU: the region's members, per (device, stream); the spans each lane keeps are chosen first,
  // so that the CPU lanes can keep the calls that launched them.
  std::map<std::pair<int32_t, int32_t>, std::vector<std::pair<TimelineSpan, GpuActivityId>>>
      streams;
  for (size_t i = 0; i < gpu_count; ++i) {
    const GpuActivity& a = trace.gpu_activities[members[i]];
    TimelineSpan s;
    s.kind = span_kind(a.kind);
    s.name = rows[i].short_name;
    s.start_ns = a.start_ns - region.start_ns;
    s.duration_ns = a.dur_ns;
    s.activity = static_cast<int32_t>(i);
    s.kernel_class = classify_activity(rows[i]);
    streams[{a.device, a.stream}].emplace_back(std::move(s), members[i]);
  }
  std::unordered_set<HostEventId> launches_kept;
  std::map<std::pair<int32_t, int32_t>, int64_t> spans_per_stream;
  for (auto& [key, spans] : streams) {
    spans_per_stream[key] = static_cast<int64_t>(spans.size());
    std::stable_sort(spans.begin(), spans.end(), [](const auto& a, const auto& b) {
      return a.first.start_ns < b.first.start_ns;
    });
    if (keep_longest(spans, options.max_spans_per_lane)) t.capped = true;
    for (const auto& [span, id] : spans)
      if (trace.activity_launch[id] != kNoId) launches_kept.insert(trace.activity_launch[id]);
  }

  std::unordered_map<HostEventId, std::pair<int32_t, int32_t>> cpu_place;  // -> lane, span
  for (size_t first = 0; first < host.size();) {
    const HostEvent& head = trace.host_events[host[first]];
    size_t last = first;
    std::vector<std::pair<TimelineSpan, HostEventId>> spans;
    for (; last < host.size(); ++last) {
      const HostEvent& e = trace.host_events[host[last]];
      if (e.pid != head.pid || e.tid != head.tid) break;
      int32_t d = depth[host[last]];
      if (d >= options.max_depth) {
        t.capped = true;
        continue;
      }
      TimelineSpan s;
      s.kind = span_kind(e.kind);
      s.name = std::string(trace.strings.view(e.name));
      s.start_ns = e.start_ns - region.start_ns;
      s.duration_ns = e.dur_ns;
      s.depth = d;
      spans.emplace_back(std::move(s), host[last]);
    }
    TimelineLane lane;
    lane.label = thread_label(trace, head.pid, head.tid);
    lane.pid = head.pid;
    lane.tid = head.tid;
    lane.spans_in_region = static_cast<int64_t>(last - first);
    first = last;
    // A capped CPU lane keeps the launches of the GPU work drawn, then its longest spans.
    if (keep_longest(spans, options.max_spans_per_lane,
                     [&](HostEventId id) { return launches_kept.count(id) > 0; }))
      t.capped = true;
    if (spans.empty()) continue;
    const auto lane_index = static_cast<int32_t>(t.lanes.size());
    for (auto& [span, id] : spans) {
      lane.levels = std::max(lane.levels, span.depth + 1);
      t.end_ns = std::max(t.end_ns, span.start_ns + span.duration_ns);
      cpu_place.emplace(id, std::pair(lane_index, static_cast<int32_t>(lane.spans.size())));
      lane.spans.push_back(std::move(span));
    }
    t.lanes.push_back(std::move(lane));
  }
  // Threads in the order they first did something in the region.
  std::vector<int32_t> order(t.lanes.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int32_t>(i);
  std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    return t.lanes[a].spans.front().start_ns < t.lanes[b].spans.front().start_ns;
  });
  std::vector<int32_t> new_index(order.size());
  std::vector<TimelineLane> sorted;
  for (size_t i = 0; i < order.size(); ++i) {
    new_index[order[i]] = static_cast<int32_t>(i);
    sorted.push_back(std::move(t.lanes[order[i]]));
  }
  t.lanes = std::move(sorted);
  for (auto& [id, place] : cpu_place) place.first = new_index[place.first];

  for (auto& [key, spans] : streams) {
    TimelineLane lane;
    lane.gpu = true;
    lane.device = key.first;
    lane.stream = key.second;
    lane.label = "GPU " + std::to_string(key.first) + " stream " + std::to_string(key.second);
    lane.spans_in_region = spans_per_stream[key];
    const auto lane_index = static_cast<int32_t>(t.lanes.size());
    for (auto& [span, id] : spans) {
      t.end_ns = std::max(t.end_ns, span.start_ns + span.duration_ns);
      HostEventId launch = trace.activity_launch[id];
      auto from = launch == kNoId ? cpu_place.end() : cpu_place.find(launch);
      if (from != cpu_place.end()) {
        t.links.push_back({from->second.first, from->second.second, lane_index,
                           static_cast<int32_t>(lane.spans.size())});
      }
      lane.spans.push_back(std::move(span));
    }
    t.lanes.push_back(std::move(lane));
  }
  return t;
}

}  // namespace attnprof
