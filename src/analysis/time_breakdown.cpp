#include "analysis/time_breakdown.h"

#include <algorithm>
#include <utility>

#include "analysis/spread.h"

namespace attnprof {

namespace {

// Disjoint intervals, sorted by start, none touching the next.
using Intervals = std::vector<std::pair<int64_t, int64_t>>;

// Adds [start, end) to a merged list whose intervals all start at or before `start`.
void extend(Intervals& merged, int64_t start, int64_t end) {
  if (!merged.empty() && start <= merged.back().second)
    merged.back().second = std::max(merged.back().second, end);
  else
    merged.emplace_back(start, end);
}

int64_t length(const Intervals& list) {
  int64_t n = 0;
  for (const auto& [s, e] : list) n += e - s;
  return n;
}

// The length of the intersection of two merged lists.
int64_t overlap(const Intervals& a, const Intervals& b) {
  int64_t n = 0;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const int64_t lo = std::max(a[i].first, b[j].first);
    const int64_t hi = std::min(a[i].second, b[j].second);
    if (hi > lo) n += hi - lo;
    if (a[i].second < b[j].second)
      ++i;
    else
      ++j;
  }
  return n;
}

// The union of two merged lists, merged.
Intervals united(const Intervals& a, const Intervals& b) {
  Intervals out;
  out.reserve(a.size() + b.size());
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    const bool take_a = j == b.size() || (i < a.size() && a[i].first <= b[j].first);
    const auto& next = take_a ? a[i++] : b[j++];
    extend(out, next.first, next.second);
  }
  return out;
}

}  // namespace

TimeBreakdown time_breakdown(std::vector<TimedWork> work) {
  TimeBreakdown b;
  if (work.empty()) return b;
  std::sort(work.begin(), work.end(),
            [](const TimedWork& x, const TimedWork& y) { return x.start_ns < y.start_ns; });
  Intervals compute, communication, memory;
  int64_t last_end = work.front().end_ns;
  for (const TimedWork& w : work) {
    last_end = std::max(last_end, w.end_ns);
    Intervals& list = w.kind == WorkKind::kCompute         ? compute
                      : w.kind == WorkKind::kCommunication ? communication
                                                           : memory;
    extend(list, w.start_ns, w.end_ns);
  }
  b.span_ns = last_end - work.front().start_ns;
  b.compute_ns = length(compute);
  b.communication_union_ns = length(communication);
  b.communication_overlap_ns = overlap(communication, compute);
  b.communication_ns = b.communication_union_ns - b.communication_overlap_ns;
  b.memory_ns = length(memory) - overlap(memory, united(compute, communication));
  b.busy_ns = b.compute_ns + b.communication_ns + b.memory_ns;
  b.idle_ns = b.span_ns - b.busy_ns;
  return b;
}

std::vector<StreamIdle> idle_by_stream(std::vector<StreamWork> work) {
  std::sort(work.begin(), work.end(), [](const StreamWork& x, const StreamWork& y) {
    return x.stream != y.stream ? x.stream < y.stream : x.start_ns < y.start_ns;
  });
  std::vector<StreamIdle> out;
  int64_t covered_to = 0;  // the end of the stream's work so far
  for (size_t i = 0; i < work.size(); ++i) {
    const StreamWork& w = work[i];
    if (i == 0 || w.stream != work[i - 1].stream) {
      out.push_back(StreamIdle{w.stream, 0, 0, 0, 0});
      covered_to = w.start_ns;
    }
    StreamIdle& s = out.back();
    // As HTA: the gap after the previous activity's end (the stream's work so far, should a
    // stream's activities overlap), attributed by the launch of the one that ends it.
    if (i > 0 && w.stream == work[i - 1].stream && w.start_ns > covered_to) {
      const int64_t gap = w.start_ns - covered_to;
      // Without a launch in the trace, the gap is judged by its length alone.
      if (w.launch_ns > covered_to)
        s.host_wait_ns += gap;
      else if (gap < kKernelGapThresholdNs)
        s.kernel_gap_ns += gap;
      else
        s.other_ns += gap;
    }
    s.busy_ns += std::max<int64_t>(0, w.end_ns - std::max(w.start_ns, covered_to));
    covered_to = std::max(covered_to, w.end_ns);
  }
  return out;
}

BreakdownFacts breakdown_facts(const std::vector<RegionSummary>& regions) {
  BreakdownFacts f;
  auto over = [&](auto get) {
    std::vector<double> values;
    values.reserve(regions.size());
    for (const RegionSummary& r : regions) values.push_back(static_cast<double>(get(r.breakdown)));
    return spread_of(std::move(values));
  };
  f.span_ns = over([](const TimeBreakdown& b) { return b.span_ns; });
  f.idle_ns = over([](const TimeBreakdown& b) { return b.idle_ns; });
  f.compute_ns = over([](const TimeBreakdown& b) { return b.compute_ns; });
  f.communication_ns = over([](const TimeBreakdown& b) { return b.communication_ns; });
  f.memory_ns = over([](const TimeBreakdown& b) { return b.memory_ns; });
  std::vector<double> overlaps;
  for (const RegionSummary& r : regions)
    if (auto pct = r.breakdown.communication_overlap_pct()) overlaps.push_back(*pct);
  f.communication_overlap_pct = spread_of(std::move(overlaps));
  return f;
}

}  // namespace attnprof
