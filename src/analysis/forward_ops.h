#pragma once
// The forward op of an autograd function, by the trace's fwdbwd flows: Kineto draws one from each
// forward op that records a sequence number (its start, on the forward thread) to the autograd
// function that computes its gradient (the function's start, on the autograd thread), as
// tests/data/op_families/sdpa-math.json.gz holds them for the math backend's backward. A trace
// without flows (record_shapes off does not drop them; older or C++ traces may lack them) links
// nothing.

#include <cstdint>
#include <optional>
#include <tuple>
#include <vector>

#include "model/trace.h"

namespace attnprof {

class ForwardOps {
 public:
  explicit ForwardOps(const Trace& trace) : trace_(trace) {}

  // The forward op whose gradient an autograd function within host event `backward` computes
  // (`backward` is the function, or the autograd engine's event around it): the cpu_op that
  // starts where the flow starts; kNoId where no flow finishes inside `backward`.
  HostEventId forward_of(HostEventId backward) const;

 private:
  using Point = std::tuple<int32_t, int32_t, int64_t>;  // pid, tid, ts
  void index() const;

  const Trace& trace_;
  // Built at the first question: most traces have no backward chain to ask about.
  mutable bool indexed_ = false;
  mutable std::vector<std::pair<Point, int64_t>> finishes_;  // by point: the flow id
  // By flow id, the first of each id first: sorted once, not a node allocated per flow.
  mutable std::vector<std::pair<int64_t, Point>> starts_;
};

}  // namespace attnprof
