#include "analysis/launch_queue.h"

#include <algorithm>
#include <tuple>

#include "analysis/kernels/kernel_names.h"

namespace attnprof {

namespace {

constexpr size_t kLongest = 5;

// The value below which `share` of the sorted values lie (nearest rank).
double quantile(const std::vector<int64_t>& sorted, double share) {
  if (sorted.empty()) return 0;
  const auto rank = static_cast<size_t>(share * static_cast<double>(sorted.size() - 1) + 0.5);
  return static_cast<double>(sorted[std::min(rank, sorted.size() - 1)]);
}

double median_of(const std::vector<int64_t>& sorted) {
  if (sorted.empty()) return 0;
  const size_t n = sorted.size();
  return n % 2 ? static_cast<double>(sorted[n / 2])
               : (static_cast<double>(sorted[n / 2 - 1]) + static_cast<double>(sorted[n / 2])) / 2;
}

}  // namespace

LaunchDelays launch_delays(const Trace& trace, const std::vector<GpuActivityId>& ids,
                           int64_t region_start, KernelShortNames& names) {
  LaunchDelays out;
  std::vector<std::pair<int64_t, GpuActivityId>> delays;
  std::vector<int64_t> op_to_launch, from_end;
  for (GpuActivityId id : ids) {
    const HostEventId launch = trace.activity_launch[id];
    if (launch == kNoId) continue;
    const int64_t call = trace.host_events[launch].start_ns;
    delays.emplace_back(trace.gpu_activities[id].start_ns - call, id);
    // HTA clips the delay from the call's end at 0: work that starts before its call returns.
    from_end.push_back(std::max<int64_t>(
        0, trace.gpu_activities[id].start_ns - call - trace.host_events[launch].dur_ns));
    const HostEventId op = trace.activity_op[id];
    if (op != kNoId) op_to_launch.push_back(call - trace.host_events[op].start_ns);
  }
  out.launched = static_cast<int64_t>(delays.size());
  if (delays.empty()) return out;
  // Longest first; among equals, the earlier activity.
  std::sort(delays.begin(), delays.end(), [](const auto& a, const auto& b) {
    return std::tie(b.first, a.second) < std::tie(a.first, b.second);
  });
  std::vector<int64_t> sorted;
  sorted.reserve(delays.size());
  for (auto it = delays.rbegin(); it != delays.rend(); ++it) sorted.push_back(it->first);
  out.median_ns = median_of(sorted);
  out.p95_ns = quantile(sorted, 0.95);
  out.max_ns = sorted.back();
  std::sort(from_end.begin(), from_end.end());
  out.end_to_start_median_ns = median_of(from_end);
  if (!op_to_launch.empty()) {
    std::sort(op_to_launch.begin(), op_to_launch.end());
    out.op_to_launch_median_ns = median_of(op_to_launch);
  }
  for (size_t i = 0; i < delays.size() && i < kLongest; ++i) {
    const GpuActivityId id = delays[i].second;
    const GpuActivity& a = trace.gpu_activities[id];
    const std::string_view name = trace.strings.view(a.name);
    LaunchDelay d;
    d.kernel = a.kind == GpuKind::kKernel ? names.of(trace.strings, a.name) : std::string(name);
    d.stream = a.stream;
    d.start_ns = a.start_ns - region_start;
    d.launch_to_start_ns = delays[i].first;
    const HostEventId op = trace.activity_op[id];
    if (op != kNoId)
      d.op_to_launch_ns =
          trace.host_events[trace.activity_launch[id]].start_ns - trace.host_events[op].start_ns;
    out.longest.push_back(std::move(d));
  }
  return out;
}

std::vector<StreamQueue> stream_queues(const Trace& trace, const std::vector<GpuActivityId>& ids) {
  struct Step {
    int32_t stream;
    int64_t ns;
    int32_t change;  // +1 at a launch, -1 at a start
  };
  std::vector<Step> steps;
  steps.reserve(2 * ids.size());
  for (GpuActivityId id : ids) {
    const HostEventId launch = trace.activity_launch[id];
    if (launch == kNoId) continue;
    const GpuActivity& a = trace.gpu_activities[id];
    steps.push_back({a.stream, trace.host_events[launch].start_ns, +1});
    steps.push_back({a.stream, a.start_ns, -1});
  }
  // At one instant a start is counted before a launch: the queue never holds what has started.
  std::sort(steps.begin(), steps.end(), [](const Step& x, const Step& y) {
    return std::tie(x.stream, x.ns, x.change) < std::tie(y.stream, y.ns, y.change);
  });
  std::vector<StreamQueue> out;
  int32_t length = 0;
  int64_t first = 0, weighted = 0, points = 0, point_sum = 0;
  for (size_t i = 0; i < steps.size(); ++i) {
    const Step& s = steps[i];
    if (i == 0 || s.stream != steps[i - 1].stream) {
      out.push_back(StreamQueue{s.stream, 0, 0, 0});
      length = 0;
      first = s.ns;
      weighted = 0;
      points = 0;
      point_sum = 0;
    }
    StreamQueue& q = out.back();
    length += s.change;
    q.max_length = std::max(q.max_length, length);
    ++points;
    point_sum += length;
    q.point_mean_length = static_cast<double>(point_sum) / static_cast<double>(points);
    const bool last_of_stream = i + 1 == steps.size() || steps[i + 1].stream != s.stream;
    if (!last_of_stream) {
      const int64_t held = steps[i + 1].ns - s.ns;
      weighted += held * std::max(length, 0);
      if (length >= kFullQueueLength) q.full_ns += held;
    } else if (s.ns > first) {
      q.mean_length = static_cast<double>(weighted) / static_cast<double>(s.ns - first);
    }
  }
  return out;
}

}  // namespace attnprof
