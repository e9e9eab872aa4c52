#include "analysis/regions/region_facts.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "analysis/spread.h"

namespace attnprof {

namespace {

template <typename Field>
Spread over_regions(const std::vector<RegionSummary>& regions, Field field) {
  std::vector<double> values;
  values.reserve(regions.size());
  for (const auto& r : regions) values.push_back(static_cast<double>(field(r)));
  return spread_of(std::move(values));
}

}  // namespace

RegionFacts facts_of_summaries(const std::vector<RegionSummary>& regions) {
  RegionFacts f;
  f.regions = static_cast<int64_t>(regions.size());
  f.kernels = over_regions(regions, [](const RegionSummary& r) { return r.kernels; });
  f.memcpy = over_regions(regions, [](const RegionSummary& r) { return r.memcpy; });
  f.memset = over_regions(regions, [](const RegionSummary& r) { return r.memset; });
  f.gpu_busy_ns = over_regions(regions, [](const RegionSummary& r) { return r.gpu_busy_ns; });
  f.wall_ns = over_regions(regions, [](const RegionSummary& r) { return r.wall_ns; });
  f.cpu_ns = over_regions(regions, [](const RegionSummary& r) { return r.cpu_ns; });
  for (const auto& r : regions)
    for (const auto& [kind, n] : r.memcpy_by_kind) f.memcpy_by_kind[kind];
  for (auto& [kind, spread] : f.memcpy_by_kind) {
    spread = over_regions(regions, [&kind = kind](const RegionSummary& r) {
      auto it = r.memcpy_by_kind.find(kind);
      return it == r.memcpy_by_kind.end() ? int64_t{0} : it->second;
    });
  }
  std::vector<double> peaks;
  for (const RegionSummary& r : regions) {
    if (r.memory.empty()) continue;
    int64_t peak = 0;
    for (const RegionMemory& m : r.memory) peak = std::max(peak, m.peak_allocated_bytes);
    peaks.push_back(static_cast<double>(peak));
  }
  if (!peaks.empty()) f.peak_allocated_bytes = spread_of(std::move(peaks));
  return f;
}

MainKernel main_kernel_of(const ActivityRow& kernel) {
  MainKernel k;
  k.short_name = kernel.short_name;
  k.name = kernel.name;
  k.launch_api = kernel.launch_api;
  k.occupancy_pct = kernel.occupancy_pct;
  k.occupancy_limiter = kernel.occupancy_limiter;
  k.kineto_occupancy_pct = kernel.kineto_occupancy_pct;
  k.registers = kernel.registers_per_thread;
  k.shared_memory_bytes = kernel.shared_memory_bytes;
  k.grid_blocks = int64_t{kernel.grid[0]} * kernel.grid[1] * kernel.grid[2];
  k.duration_ns = kernel.duration_ns;
  return k;
}

int typical_region(const std::vector<RegionSummary>& regions, const RegionFacts& facts) {
  int best = -1;
  double best_count = 0, best_time = 0;
  for (size_t i = 0; i < regions.size(); ++i) {
    const RegionSummary& r = regions[i];
    double count = std::fabs(r.kernels - facts.kernels.median) +
                   std::fabs(r.memcpy - facts.memcpy.median) +
                   std::fabs(r.memset - facts.memset.median);
    double time = std::fabs(static_cast<double>(r.gpu_busy_ns) - facts.gpu_busy_ns.median);
    if (best < 0 || count < best_count || (count == best_count && time < best_time)) {
      best = static_cast<int>(i);
      best_count = count;
      best_time = time;
    }
  }
  return best;
}

}  // namespace attnprof
