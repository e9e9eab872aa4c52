#include "analysis/critical_path/path_timing.h"

#include <cmath>
#include <limits>

namespace attnprof {

namespace {

// Counting sort of the edges by one end: offsets per node, then edge indices.
void edges_by_node(const DependencyGraph& g, bool by_end, std::vector<uint32_t>& offsets,
                   std::vector<uint32_t>& edges) {
  const size_t n = g.time_ns.size();
  offsets.assign(n + 1, 0);
  for (const GraphEdge& e : g.edges) ++offsets[(by_end ? e.to : e.from) + 1];
  for (size_t i = 0; i < n; ++i) offsets[i + 1] += offsets[i];
  edges.resize(g.edges.size());
  std::vector<uint32_t> next(offsets.begin(), offsets.end() - 1);
  for (size_t i = 0; i < g.edges.size(); ++i) {
    const GraphEdge& e = g.edges[i];
    edges[next[by_end ? e.to : e.from]++] = static_cast<uint32_t>(i);
  }
}

constexpr int64_t kNotYet = std::numeric_limits<int64_t>::min();
// Kineto's times are rounded to the nanosecond each, so a call can end a nanosecond after the op
// around it: a disagreement this small moves the node all the same, but is not worth a warning.
constexpr int64_t kClockSlackNs = 1000;

}  // namespace

PathTiming time_graph(const DependencyGraph& g) {
  PathTiming t;
  const size_t n = g.time_ns.size();
  edges_by_node(g, /*by_end=*/true, t.in_offsets, t.in_edges);
  std::vector<uint32_t> out_offsets, out_edges;
  edges_by_node(g, /*by_end=*/false, out_offsets, out_edges);

  // Kahn's order; what a cycle leaves is appended in index order.
  std::vector<uint32_t> waiting(n);
  for (size_t v = 0; v < n; ++v) waiting[v] = t.in_offsets[v + 1] - t.in_offsets[v];
  t.order.reserve(n);
  for (uint32_t v = 0; v < n; ++v)
    if (waiting[v] == 0) t.order.push_back(v);
  std::vector<uint8_t> placed(n, 0);
  for (size_t head = 0;;) {
    for (; head < t.order.size(); ++head) {
      const uint32_t v = t.order[head];
      placed[v] = 1;
      for (uint32_t i = out_offsets[v]; i < out_offsets[v + 1]; ++i) {
        const uint32_t to = g.edges[out_edges[i]].to;
        if (waiting[to] > 0 && --waiting[to] == 0) t.order.push_back(to);
      }
    }
    if (t.order.size() == n) break;
    // A cycle: take its first node as it is, and go on from it.
    t.cycle = true;
    uint32_t v = 0;
    while (placed[v]) ++v;
    waiting[v] = 0;
    t.order.push_back(v);
  }

  t.time_ns.assign(n, kNotYet);
  t.slack_ns.assign(n, 0);
  t.binding.assign(n, -1);
  for (uint32_t v : t.order) {
    int64_t arrival = kNotYet;
    for (uint32_t i = t.in_offsets[v]; i < t.in_offsets[v + 1]; ++i) {
      const GraphEdge& e = g.edges[t.in_edges[i]];
      if (t.time_ns[e.from] == kNotYet) continue;  // cut from a cycle
      const int64_t a = t.time_ns[e.from] + e.weight_ns;
      if (a > arrival) {
        arrival = a;
        t.binding[v] = static_cast<int32_t>(t.in_edges[i]);
      }
    }
    const int64_t recorded = g.time_ns[v];
    if (arrival == kNotYet) {
      t.time_ns[v] = recorded;
    } else if (arrival > recorded) {
      if (arrival - recorded > kClockSlackNs) ++t.against_clock;
      t.time_ns[v] = arrival;
    } else {
      t.time_ns[v] = recorded;
      t.slack_ns[v] = recorded - arrival;
    }
  }
  return t;
}

int64_t retimed_length(const DependencyGraph& g, const PathTiming& timing,
                       const std::vector<double>& factors) {
  std::vector<int64_t> time(g.time_ns.size(), kNotYet);
  for (uint32_t v : timing.order) {
    int64_t arrival = kNotYet;
    for (uint32_t i = timing.in_offsets[v]; i < timing.in_offsets[v + 1]; ++i) {
      const GraphEdge& e = g.edges[timing.in_edges[i]];
      if (time[e.from] == kNotYet) continue;
      double factor = 1.0;
      for (uint32_t rules = e.rules; rules != 0; rules &= rules - 1)
        factor *= factors[static_cast<size_t>(__builtin_ctz(rules))];
      const int64_t weight =
          factor == 1.0
              ? e.weight_ns
              : static_cast<int64_t>(std::llround(static_cast<double>(e.weight_ns) * factor));
      arrival = std::max(arrival, time[e.from] + weight);
    }
    time[v] = arrival == kNotYet ? timing.time_ns[v] : arrival + timing.slack_ns[v];
  }
  return time[g.end] - time[g.start];
}

}  // namespace attnprof
