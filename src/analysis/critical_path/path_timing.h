#pragma once
// A dependency graph timed: each node happens when the last of its dependencies arrives (its
// start's time plus the edge's weight), plus the time it waited beyond that in the recording (its
// slack, kept when the graph is timed again). The critical path runs back from the region's end
// through each node's last arrival. Linear in nodes and edges: a topological order (Kahn's), then
// one pass.

#include <cstdint>
#include <vector>

#include "analysis/critical_path/dependency_graph.h"

namespace attnprof {

struct PathTiming {
  std::vector<int64_t> time_ns;   // per node: as recorded, or later where a dependency says so
  std::vector<int64_t> slack_ns;  // per node: the time it happened after its last arrival
  std::vector<int32_t> binding;   // per node: the edge that arrived last (-1 for none)
  std::vector<uint32_t> order;    // a topological order of the nodes
  std::vector<uint32_t> in_offsets, in_edges;  // edges by their end node
  // Nodes whose dependencies arrive more than 1 µs after the node's recorded time (clocks out of
  // order, an event that ends before its child), and whether a cycle had to be cut.
  int64_t against_clock = 0;
  bool cycle = false;
};

// Times `g` as recorded. A cycle (possible only through edges against the clock) is cut: the
// nodes left in it are taken in index order, and their edges from nodes not yet timed ignored.
PathTiming time_graph(const DependencyGraph& g);

// The region's length with each edge's weight multiplied by the factors of the rules that
// select it (`factors` by rule index), every node keeping its recorded slack.
int64_t retimed_length(const DependencyGraph& g, const PathTiming& timing,
                       const std::vector<double>& factors);

}  // namespace attnprof
