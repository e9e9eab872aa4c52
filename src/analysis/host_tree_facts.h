#pragma once
// A fact of each host event that follows from the same fact of its parent and from the event
// itself: the outermost op at or above it, the nearest op of an op chain, the SDPA ops around it.
// Analyses ask such facts of every GPU activity's op, and a walk to the root each time (a dozen
// events of a module's nest per activity; quadratic under deep annotations, docs/SECURITY.md) was
// most of their time. Each fact is worked out once, for the event asked and every event walked
// through.

#include <vector>

#include "model/trace.h"

namespace attnprof {

template <typename Fact>
class HostTreeFacts {
 public:
  // `root` is the fact above an event that has no parent.
  HostTreeFacts(const Trace& trace, Fact root) : trace_(trace), root_(root) {}

  // The fact of `e`: combine(the fact of e's parent, or `root`, e). One object is asked with one
  // `combine` only (its owner wraps the call), since the answers it keeps are that function's.
  template <typename Combine>
  Fact at(HostEventId e, Combine&& combine) {
    if (known_.empty()) {
      known_.assign(trace_.host_events.size(), false);
      facts_.resize(trace_.host_events.size(), root_);
    }
    // Up to the first event already answered, then down again.
    path_.clear();
    Fact above = root_;
    for (HostEventId p = e; p != kNoId; p = trace_.host_parent[p]) {
      if (known_[p.index()]) {
        above = facts_[p.index()];
        break;
      }
      path_.push_back(p);
    }
    for (auto it = path_.rbegin(); it != path_.rend(); ++it) {
      above = combine(above, *it);
      facts_[it->index()] = above;
      known_[it->index()] = true;
    }
    return above;
  }

 private:
  const Trace& trace_;
  Fact root_;
  std::vector<Fact> facts_;  // by event, allocated at the first question
  std::vector<bool> known_;
  std::vector<HostEventId> path_;
};

}  // namespace attnprof
