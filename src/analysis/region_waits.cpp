#include "analysis/region_waits.h"

#include <algorithm>
#include <functional>
#include <optional>

#include "analysis/spread.h"

namespace attnprof {

RegionWaits region_waits(const RegionSummary& region) {
  RegionWaits w;
  for (const StreamIdle& s : region.idle_by_stream) {
    w.idle_host_wait_ns += s.host_wait_ns;
    w.idle_kernel_gap_ns += s.kernel_gap_ns;
    w.idle_other_ns += s.other_ns;
  }
  const LaunchDelays& d = region.launch_delays;
  if (d.launched > 0) {
    w.launch_delay_median_ns = d.median_ns;
    w.launch_delay_p95_ns = d.p95_ns;
    w.launch_delay_max_ns = static_cast<double>(d.max_ns);
  }
  if (d.op_to_launch_median_ns >= 0) w.op_to_launch_median_ns = d.op_to_launch_median_ns;
  for (const StreamQueue& q : region.queues) {
    w.queue_max_length = std::max(w.queue_max_length, q.max_length);
    w.queue_time_mean_length = std::max(w.queue_time_mean_length, q.mean_length);
    w.queue_point_mean_length = std::max(w.queue_point_mean_length, q.point_mean_length);
    w.full_queue_ns += q.full_ns;
  }
  return w;
}

WaitFacts wait_facts(const std::vector<RegionSummary>& regions) {
  std::vector<RegionWaits> waits;
  waits.reserve(regions.size());
  for (const RegionSummary& r : regions) waits.push_back(region_waits(r));
  // Over the regions that have the value (a region whose launches are not in the trace has no
  // launch delay).
  auto over = [&](const std::function<std::optional<double>(const RegionWaits&)>& get) {
    std::vector<double> values;
    values.reserve(waits.size());
    for (const RegionWaits& w : waits)
      if (auto v = get(w)) values.push_back(*v);
    return spread_of(std::move(values));
  };
  auto number = [](auto v) { return std::optional<double>(static_cast<double>(v)); };
  WaitFacts f;
  f.idle_host_wait_ns = over([&](const RegionWaits& w) { return number(w.idle_host_wait_ns); });
  f.idle_kernel_gap_ns = over([&](const RegionWaits& w) { return number(w.idle_kernel_gap_ns); });
  f.idle_other_ns = over([&](const RegionWaits& w) { return number(w.idle_other_ns); });
  f.launch_delay_median_ns = over([](const RegionWaits& w) { return w.launch_delay_median_ns; });
  f.launch_delay_p95_ns = over([](const RegionWaits& w) { return w.launch_delay_p95_ns; });
  f.launch_delay_max_ns = over([](const RegionWaits& w) { return w.launch_delay_max_ns; });
  f.op_to_launch_median_ns = over([](const RegionWaits& w) { return w.op_to_launch_median_ns; });
  f.queue_max_length = over([&](const RegionWaits& w) { return number(w.queue_max_length); });
  f.queue_time_mean_length =
      over([&](const RegionWaits& w) { return number(w.queue_time_mean_length); });
  f.queue_point_mean_length =
      over([&](const RegionWaits& w) { return number(w.queue_point_mean_length); });
  f.full_queue_ns = over([&](const RegionWaits& w) { return number(w.full_queue_ns); });
  return f;
}

}  // namespace attnprof
