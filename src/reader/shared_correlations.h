#pragma once
// Correlation ids that several runtime/driver calls share. CUPTI numbers the calls of a process
// from 1, so ids repeat when the traces of several ranks are merged into one file, or when one
// file holds two profiling sessions of a process whose numbering restarted. A GPU activity with a
// shared id is linked to a launch of the process known to drive its device (learned from the ids
// that are not shared), and among those to the one that started last at or before the activity:
// GPU work follows its launch. Each shared id is one diagnostic saying how its activities were
// linked, and where the process was a guess.

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/trace.h"

namespace attnprof {

class SharedCorrelations {
 public:
  // `launches`: (correlation, launch) for each launch whose id another launch has, in any order
  // and possibly repeated.
  SharedCorrelations(const Trace& trace, std::vector<std::pair<int64_t, HostEventId>> launches);

  bool empty() const { return launches_.empty(); }

  // A GPU activity linked through an id nobody shares: `pid` drives `device`.
  void learn_device(int32_t device, int32_t pid);
  // The launch of `activity`, whose correlation id is shared (it must be).
  HostEventId choose(const GpuActivity& activity);
  // One diagnostic per shared id.
  void diagnose(Trace& trace) const;

 private:
  struct Id {
    int64_t correlation;
    size_t begin, end;     // its launches in launches_ (by start) and in by_pid_ (by pid, start)
    bool one_pid = false;  // all its launches are one process's
    uint64_t by_device = 0, by_time_only = 0;  // activities linked each way
    int32_t unowned_device = 0;                // one device whose process was unknown
  };
  static constexpr int32_t kSeveralPids = INT32_MIN;

  // Among `launches` (sorted by start), the last to start at or before `start_ns`, else the
  // first: a binary search, as an id may have 100k launches (docs/SECURITY.md: a scan per activity
  // takes 103 s for 100k kernels of one id).
  HostEventId latest_at_or_before(const HostEventId* first, const HostEventId* last,
                                  int64_t start_ns) const;

  const Trace& trace_;
  std::vector<HostEventId> launches_;
  std::vector<HostEventId> by_pid_;
  std::vector<Id> ids_;                              // by correlation
  std::unordered_map<int32_t, int32_t> device_pid_;  // kSeveralPids when more than one drives it
};

}  // namespace attnprof
