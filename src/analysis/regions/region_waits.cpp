#include "analysis/regions/region_waits.h"

#include <algorithm>
#include <optional>
#include <utility>

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

namespace {

std::optional<double> wait_value(double v) {
  return v;
}

// Names of their own: the unity build compiles this file with the fact catalog's.
using WaitU = WaitUnit;
using WaitsOf = RegionWaits;
using WaitsOver = WaitFacts;

constexpr WaitMetric kWaitMetrics[] = {
    {"idle_host_wait_us", WaitU::kTime, true, false,
     "GPU idle waiting for the host to launch work, summed over the region's streams",
     [](const WaitsOf& w) { return wait_value(static_cast<double>(w.idle_host_wait_ns)); },
     &WaitsOver::idle_host_wait_ns},
    {"idle_kernel_gap_us", WaitU::kTime, true, false,
     "GPU idle between back-to-back kernels, summed over the region's streams",
     [](const WaitsOf& w) { return wait_value(static_cast<double>(w.idle_kernel_gap_ns)); },
     &WaitsOver::idle_kernel_gap_ns},
    {"idle_other_us", WaitU::kTime, true, false,
     "GPU idle for other causes (another stream, an event, a peer), summed over the streams",
     [](const WaitsOf& w) { return wait_value(static_cast<double>(w.idle_other_ns)); },
     &WaitsOver::idle_other_ns},
    {"launch_delay_median_us", WaitU::kTime, true, true,
     "median launch call to GPU start per region, over the regions that hold launch calls",
     [](const WaitsOf& w) { return w.launch_delay_median_ns; }, &WaitsOver::launch_delay_median_ns},
    {"launch_delay_p95_us", WaitU::kTime, true, true, "95th percentile launch call to GPU start",
     [](const WaitsOf& w) { return w.launch_delay_p95_ns; }, &WaitsOver::launch_delay_p95_ns},
    {"launch_delay_max_us", WaitU::kTime, false, true, "longest launch call to GPU start",
     [](const WaitsOf& w) { return w.launch_delay_max_ns; }, &WaitsOver::launch_delay_max_ns},
    {"op_to_launch_median_us", WaitU::kTime, false, true,
     "median op start to its launch call, over the regions whose launches have an op",
     [](const WaitsOf& w) { return w.op_to_launch_median_ns; }, &WaitsOver::op_to_launch_median_ns},
    {"queue_max_length", WaitU::kCount, true, false,
     "the longest launch queue of any stream per region",
     [](const WaitsOf& w) { return wait_value(w.queue_max_length); }, &WaitsOver::queue_max_length},
    {"queue_time_mean_length", WaitU::kMeanLength, false, false,
     "the longest of the streams' time-weighted mean launch queues per region",
     [](const WaitsOf& w) { return wait_value(w.queue_time_mean_length); },
     &WaitsOver::queue_time_mean_length},
    {"queue_point_mean_length", WaitU::kMeanLength, false, false,
     "the longest of the streams' mean launch queues over their points (HTA's mean) per region",
     [](const WaitsOf& w) { return wait_value(w.queue_point_mean_length); },
     &WaitsOver::queue_point_mean_length},
    {"full_queue_us", WaitU::kTime, true, false,
     "time a stream's launch queue was full (the CPU blocked), summed over the streams",
     [](const WaitsOf& w) { return wait_value(static_cast<double>(w.full_queue_ns)); },
     &WaitsOver::full_queue_ns},
};

}  // namespace

std::span<const WaitMetric> wait_metrics() {
  return kWaitMetrics;
}

WaitFacts wait_facts(const std::vector<RegionSummary>& regions) {
  std::vector<RegionWaits> waits;
  waits.reserve(regions.size());
  for (const RegionSummary& r : regions) waits.push_back(region_waits(r));
  // Over the regions that have the value (a region whose launches are not in the trace has no
  // launch delay).
  WaitFacts f;
  for (const WaitMetric& m : kWaitMetrics) {
    std::vector<double> values;
    values.reserve(waits.size());
    for (const RegionWaits& w : waits)
      if (const std::optional<double> v = m.of_region(w)) values.push_back(*v);
    f.*m.over_regions = spread_of(std::move(values));
  }
  return f;
}

}  // namespace attnprof
