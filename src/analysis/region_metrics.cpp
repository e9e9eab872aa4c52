#include "analysis/region_metrics.h"

#include <algorithm>
#include <functional>

#include <fmt/format.h>

namespace attnprof {

namespace {

template <typename Field>
Spread over_regions(const std::vector<RegionSummary>& regions, Field field) {
  std::vector<double> values;
  values.reserve(regions.size());
  for (const auto& r : regions) values.push_back(static_cast<double>(field(r)));
  return spread_of(std::move(values));
}

// A region's activities are all listed when their number is the region's count of GPU activities
// (the analysis lists only the typical region's unless asked for every region's).
bool activities_listed(const RegionSummary& r) {
  return static_cast<int64_t>(r.activities.size()) == r.kernels + r.memcpy + r.memset;
}

std::optional<MainKernel> main_kernel_of(const RegionSummary& region) {
  const ActivityRow* best = nullptr;
  for (const auto& a : region.activities)
    if (a.kind == ActivityKind::kKernel && (!best || a.duration_ns > best->duration_ns)) best = &a;
  if (!best) return std::nullopt;
  MainKernel k;
  k.short_name = best->short_name;
  k.name = best->name;
  k.launch_api = best->launch_api;
  k.occupancy_pct = best->occupancy_pct;
  k.kineto_occupancy_pct = best->kineto_occupancy_pct;
  k.registers = best->registers_per_thread;
  k.shared_memory_bytes = best->shared_memory_bytes;
  k.grid_blocks = int64_t{best->grid[0]} * best->grid[1] * best->grid[2];
  k.duration_ns = best->duration_ns;
  return k;
}

// Divides rather than multiplies by a reciprocal, so that 91920 ns reads 0.09192 ms, not
// 0.09191999999999999.
Spread divided(const Spread& s, double divisor) {
  return Spread{s.median / divisor, s.min / divisor, s.max / divisor, s.count};
}

MetricValue number(const Spread& s) {
  MetricValue v;
  v.available = true;
  v.number = s;
  return v;
}

MetricValue optional_number(const std::optional<double>& value, const char* why_absent) {
  if (value) return number(spread_of_one(*value));
  MetricValue v;
  v.why_unavailable = why_absent;
  return v;
}

MetricValue text(std::vector<std::string> spellings) {
  MetricValue v;
  v.available = true;
  v.type = MetricType::kText;
  v.texts = std::move(spellings);
  return v;
}

constexpr double kNsPerMs = 1e6;

// One metric: what it is and how to read it. `of_main_kernel` ones need the typical region to have
// run a kernel.
struct MetricDef {
  MetricInfo info;
  bool of_main_kernel = false;
  std::function<MetricValue(const RegionMetrics&)> value;
};

std::vector<MetricDef> build_catalog() {
  using T = MetricType;
  auto region = [](std::string name, std::string meaning, auto get) {
    return MetricDef{{std::move(name), T::kNumber, std::move(meaning)},
                     false,
                     [get](const RegionMetrics& m) { return number(get(m)); }};
  };
  auto kernel = [](std::string name, T type, std::string meaning, auto get) {
    return MetricDef{{std::move(name), type, std::move(meaning)},
                     true,
                     [get](const RegionMetrics& m) { return get(*m.main_kernel); }};
  };
  auto memcpy_kind = [&region](std::string name, std::string kind, std::string meaning) {
    return region(std::move(name), std::move(meaning),
                  [kind](const RegionMetrics& m) { return m.memcpy_by_kind.at(kind); });
  };
  std::vector<MetricDef> c = {
      region("regions", "how many regions matched",
             [](const RegionMetrics& m) { return spread_of_one(static_cast<double>(m.regions)); }),
      region("kernels", "kernels per region", [](const RegionMetrics& m) { return m.kernels; }),
      region("memcpy", "memory copies per region", [](const RegionMetrics& m) { return m.memcpy; }),
      memcpy_kind("memcpy_dtod", "DtoD", "device-to-device copies per region"),
      memcpy_kind("memcpy_htod", "HtoD", "host-to-device copies per region"),
      memcpy_kind("memcpy_dtoh", "DtoH", "device-to-host copies per region"),
      region("memset", "memsets per region", [](const RegionMetrics& m) { return m.memset; }),
      region("gpu_time_ms", "GPU busy time per region (the union of its activities), ms",
             [](const RegionMetrics& m) { return divided(m.gpu_busy_ns, kNsPerMs); }),
      region("wall_ms", "the region annotation's duration on the CPU, ms",
             [](const RegionMetrics& m) { return divided(m.wall_ns, kNsPerMs); }),
      region("cpu_ms", "time in the region's top-level CPU ops, ms",
             [](const RegionMetrics& m) { return divided(m.cpu_ns, kNsPerMs); }),
      kernel("main_kernel", T::kText,
             "short name of the typical region's longest kernel (~ and == also try its full name)",
             [](const MainKernel& k) {
               return text({k.short_name, k.name});
             }),
      kernel("launch_api", T::kText, "the API that launched the main kernel",
             [](const MainKernel& k) { return text({k.launch_api}); }),
      kernel("main_kernel_ms", T::kNumber, "the main kernel's duration, ms",
             [](const MainKernel& k) {
               return number(spread_of_one(static_cast<double>(k.duration_ns) / kNsPerMs));
             }),
      kernel("occupancy_pct", T::kNumber, "the main kernel's occupancy as attnprof estimates it, %",
             [](const MainKernel& k) {
               return optional_number(
                   k.occupancy_pct,
                   "attnprof could not estimate it (no device properties in the trace)");
             }),
      kernel("kineto_occupancy_pct", T::kNumber,
             "the main kernel's occupancy as Kineto wrote it, %",
             [](const MainKernel& k) {
               return optional_number(k.kineto_occupancy_pct, "the trace gives none");
             }),
      kernel("registers", T::kNumber, "the main kernel's registers per thread",
             [](const MainKernel& k) { return number(spread_of_one(k.registers)); }),
      kernel("shared_memory_kb", T::kNumber, "the main kernel's shared memory per block, KiB",
             [](const MainKernel& k) {
               return number(spread_of_one(static_cast<double>(k.shared_memory_bytes) / 1024.0));
             }),
      kernel("grid_blocks", T::kNumber, "the main kernel's blocks (grid x*y*z)",
             [](const MainKernel& k) {
               return number(spread_of_one(static_cast<double>(k.grid_blocks)));
             }),
  };
  for (KernelClass k : kAllKernelClasses) {
    std::string id(kernel_class_id(k));
    auto i = static_cast<size_t>(k);
    c.push_back(region("kernels." + id,
                       fmt::format("GPU activities of class {} per region", kernel_class_label(k)),
                       [i](const RegionMetrics& m) { return m.by_class[i].count; }));
    c.push_back(
        region("gpu_time_ms." + id,
               fmt::format("summed duration of class {} per region, ms", kernel_class_label(k)),
               [i](const RegionMetrics& m) { return divided(m.by_class[i].time_ns, kNsPerMs); }));
  }
  return c;
}

const std::vector<MetricDef>& definitions() {
  static const std::vector<MetricDef> defs = build_catalog();
  return defs;
}

const MetricDef* find_definition(std::string_view name) {
  for (const auto& d : definitions())
    if (d.info.name == name) return &d;
  return nullptr;
}

}  // namespace

RegionMetrics compute_region_metrics(const TraceAnalysis& t) {
  RegionMetrics m;
  m.path = t.path;
  m.region_pattern = t.region_pattern;
  m.regions = static_cast<int64_t>(t.regions.size());
  m.typical_region = t.typical_region;
  const auto& regions = t.regions;
  m.kernels = over_regions(regions, [](const RegionSummary& r) { return r.kernels; });
  m.memcpy = over_regions(regions, [](const RegionSummary& r) { return r.memcpy; });
  m.memset = over_regions(regions, [](const RegionSummary& r) { return r.memset; });
  m.gpu_busy_ns = over_regions(regions, [](const RegionSummary& r) { return r.gpu_busy_ns; });
  m.wall_ns = over_regions(regions, [](const RegionSummary& r) { return r.wall_ns; });
  m.cpu_ns = over_regions(regions, [](const RegionSummary& r) { return r.cpu_ns; });

  std::vector<std::string> kinds = {"DtoD", "HtoD", "DtoH"};
  for (const auto& r : regions)
    for (const auto& [kind, n] : r.memcpy_by_kind)
      if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) kinds.push_back(kind);
  for (const auto& kind : kinds) {
    m.memcpy_by_kind[kind] = over_regions(regions, [&kind](const RegionSummary& r) {
      auto it = r.memcpy_by_kind.find(kind);
      return it == r.memcpy_by_kind.end() ? int64_t{0} : it->second;
    });
  }

  std::array<std::vector<double>, kKernelClassCount> counts, times;
  for (const auto& r : regions) {
    if (!activities_listed(r)) continue;
    ++m.class_regions;
    std::array<double, kKernelClassCount> count{}, time{};
    for (const auto& a : r.activities) {
      auto c = static_cast<size_t>(classify_activity(a));
      count[c] += 1;
      time[c] += static_cast<double>(a.duration_ns);
    }
    for (size_t c = 0; c < kKernelClassCount; ++c) {
      counts[c].push_back(count[c]);
      times[c].push_back(time[c]);
    }
  }
  for (size_t c = 0; c < kKernelClassCount; ++c)
    m.by_class[c] = ClassMetrics{spread_of(std::move(counts[c])), spread_of(std::move(times[c]))};

  if (t.typical_region >= 0) {
    const RegionSummary& typical = regions[t.typical_region];
    m.typical_region_name = typical.name;
    m.main_kernel = main_kernel_of(typical);
  }
  return m;
}

const std::vector<MetricInfo>& metric_catalog() {
  static const std::vector<MetricInfo> catalog = [] {
    std::vector<MetricInfo> out;
    for (const auto& d : definitions()) out.push_back(d.info);
    return out;
  }();
  return catalog;
}

const MetricInfo* find_metric(std::string_view name) {
  const MetricDef* d = find_definition(name);
  return d ? &d->info : nullptr;
}

MetricValue metric_value(const RegionMetrics& m, std::string_view name) {
  MetricValue v;
  const MetricDef* d = find_definition(name);
  if (!d) {
    v.why_unavailable = fmt::format("no metric named {}", name);
    return v;
  }
  v.type = d->info.type;
  if (m.regions == 0 && name != "regions") {
    v.why_unavailable = m.region_pattern.empty()
                            ? std::string("the trace has no region")
                            : fmt::format("no region matches \"{}\"", m.region_pattern);
  } else if (d->of_main_kernel && !m.main_kernel) {
    v.why_unavailable = fmt::format("the typical region ({}) ran no kernel", m.typical_region_name);
  } else {
    v = d->value(m);
    v.type = d->info.type;
  }
  return v;
}

}  // namespace attnprof
