#include "analysis/region_metrics.h"

#include <functional>

#include <fmt/format.h>

#include "analysis/kernel_class.h"

namespace attnprof {

namespace {

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
constexpr double kNsPerUs = 1e3;

// One metric: what it is and how to read it. `of_main_kernel` ones need the typical region to have
// run a kernel.
struct MetricDef {
  MetricInfo info;
  bool of_main_kernel = false;
  std::function<MetricValue(const RegionFacts&)> value;
};

std::vector<MetricDef> build_catalog() {
  using T = MetricType;
  auto region = [](std::string name, std::string meaning, auto get) {
    return MetricDef{{std::move(name), T::kNumber, std::move(meaning)},
                     false,
                     [get](const RegionFacts& m) { return number(get(m)); }};
  };
  auto kernel = [](std::string name, T type, std::string meaning, auto get) {
    return MetricDef{{std::move(name), type, std::move(meaning)},
                     true,
                     [get](const RegionFacts& m) { return get(*m.main_kernel); }};
  };
  auto memcpy_kind = [&region](std::string name, std::string kind, std::string meaning) {
    return region(std::move(name), std::move(meaning), [kind](const RegionFacts& m) {
      // A kind of copy no region made is zero in every region.
      auto it = m.memcpy_by_kind.find(kind);
      if (it != m.memcpy_by_kind.end()) return it->second;
      return spread_of(std::vector<double>(static_cast<size_t>(m.regions), 0.0));
    });
  };
  // A wait that some regions lack (no launch in the trace): over those that have it.
  auto waited = [](std::string name, std::string meaning, auto get) {
    return MetricDef{
        {std::move(name), T::kNumber, std::move(meaning)}, false, [get](const RegionFacts& m) {
          const Spread s = get(m.waits);
          if (s.count > 0) return number(divided(s, kNsPerUs));
          MetricValue v;
          v.why_unavailable = "no region holds a launch call of its GPU work";
          return v;
        }};
  };
  std::vector<MetricDef> c = {
      region("regions", "how many regions matched",
             [](const RegionFacts& m) { return spread_of_one(static_cast<double>(m.regions)); }),
      region("kernels", "kernels per region", [](const RegionFacts& m) { return m.kernels; }),
      region("memcpy", "memory copies per region", [](const RegionFacts& m) { return m.memcpy; }),
      memcpy_kind("memcpy_dtod", "DtoD", "device-to-device copies per region"),
      memcpy_kind("memcpy_htod", "HtoD", "host-to-device copies per region"),
      memcpy_kind("memcpy_dtoh", "DtoH", "device-to-host copies per region"),
      region("memset", "memsets per region", [](const RegionFacts& m) { return m.memset; }),
      region("gpu_time_ms", "GPU busy time per region (the union of its activities), ms",
             [](const RegionFacts& m) { return divided(m.gpu_busy_ns, kNsPerMs); }),
      region("wall_ms", "the region annotation's duration on the CPU, ms",
             [](const RegionFacts& m) { return divided(m.wall_ns, kNsPerMs); }),
      region("cpu_ms", "time in the region's top-level CPU ops, ms",
             [](const RegionFacts& m) { return divided(m.cpu_ns, kNsPerMs); }),
      // The time breakdown (attnprof/time_breakdown.h, docs/BREAKDOWN.md).
      region("span_ms", "first GPU activity's start to the last one's end, per region, ms",
             [](const RegionFacts& m) { return divided(m.breakdown.span_ns, kNsPerMs); }),
      region("idle_ms", "GPU idle time within the span (span - busy) per region, ms",
             [](const RegionFacts& m) { return divided(m.breakdown.idle_ns, kNsPerMs); }),
      region("compute_ms", "GPU time in kernels other than communication per region, ms",
             [](const RegionFacts& m) { return divided(m.breakdown.compute_ns, kNsPerMs); }),
      region("communication_ms",
             "GPU time in communication kernels (NCCL, ...) not overlapping compute per region, ms",
             [](const RegionFacts& m) { return divided(m.breakdown.communication_ns, kNsPerMs); }),
      region("memory_ms",
             "GPU time in copies and memsets overlapping neither compute nor communication per "
             "region, ms",
             [](const RegionFacts& m) { return divided(m.breakdown.memory_ns, kNsPerMs); }),
      MetricDef{{"communication_overlap_pct", T::kNumber,
                 "share of communication time that overlaps compute, %, over the regions that "
                 "communicate"},
                false,
                [](const RegionFacts& m) {
                  if (m.breakdown.communication_overlap_pct.count > 0)
                    return number(m.breakdown.communication_overlap_pct);
                  MetricValue v;
                  v.why_unavailable = "no region ran a communication kernel";
                  return v;
                }},
      // Idle time by cause, launch delays and queues (analysis/region_waits.h), in µs.
      region("idle_host_wait_us",
             "GPU idle waiting for the host to launch work, summed over streams, per region, µs",
             [](const RegionFacts& m) { return divided(m.waits.idle_host_wait_ns, kNsPerUs); }),
      region("idle_kernel_gap_us",
             "GPU idle between back-to-back kernels, summed over streams, per region, µs",
             [](const RegionFacts& m) { return divided(m.waits.idle_kernel_gap_ns, kNsPerUs); }),
      region("idle_other_us",
             "GPU idle for other causes (another stream, an event, a peer), summed over streams, "
             "per region, µs",
             [](const RegionFacts& m) { return divided(m.waits.idle_other_ns, kNsPerUs); }),
      waited("launch_delay_median_us", "median launch call to GPU start per region, µs",
             [](const WaitFacts& w) { return w.launch_delay_median_ns; }),
      waited("launch_delay_p95_us", "95th percentile launch call to GPU start per region, µs",
             [](const WaitFacts& w) { return w.launch_delay_p95_ns; }),
      waited("launch_delay_max_us", "longest launch call to GPU start per region, µs",
             [](const WaitFacts& w) { return w.launch_delay_max_ns; }),
      waited("op_to_launch_median_us", "median op start to its launch call per region, µs",
             [](const WaitFacts& w) { return w.op_to_launch_median_ns; }),
      region("queue_max_length", "the longest launch queue of any stream per region",
             [](const RegionFacts& m) { return m.waits.queue_max_length; }),
      region("queue_mean_length",
             "the longest of the streams' time-weighted mean launch queues per region",
             [](const RegionFacts& m) { return m.waits.queue_mean_length; }),
      region("full_queue_us",
             "time the launch queue was full (the CPU blocked), summed over streams, per region, "
             "µs",
             [](const RegionFacts& m) { return divided(m.waits.full_queue_ns, kNsPerUs); }),
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
  // Hardware counters (bench --counters): of the call's kernels summed, unknown without them.
  auto counter = [](std::string name, std::string meaning, auto get) {
    return MetricDef{
        {std::move(name), T::kNumber, std::move(meaning)}, false, [get](const RegionFacts& m) {
          if (!m.counters) {
            MetricValue v;
            v.why_unavailable =
                "no hardware counters (attnprof bench --counters measures them; "
                "check reads them from a study folder's summary.json)";
            return v;
          }
          return optional_number(get(*m.counters), "ncu did not report it");
        }};
  };
  using C = CounterTotals;
  auto scaled = [](std::optional<double> v, double divisor) {
    return v ? std::optional<double>(*v / divisor) : std::nullopt;
  };
  c.push_back(counter("achieved_occupancy_pct",
                      "warps active per cycle over the SM's maximum, measured (ncu), %; the "
                      "call's kernels weighted by time",
                      [](const C& t) { return t.achieved_occupancy_pct; }));
  c.push_back(counter("tensor_pipe_pct", "tensor pipe busy, % of its peak (ncu)",
                      [](const C& t) { return t.tensor_pipe_pct; }));
  c.push_back(counter("fp32_pipe_pct", "FP32 (FMA) pipe busy, % of its peak (ncu)",
                      [](const C& t) { return t.fp32_pipe_pct; }));
  c.push_back(counter("dram_bytes", "bytes read from and written to DRAM by the call (ncu)",
                      [](const C& t) { return t.dram_bytes(); }));
  c.push_back(counter("dram_read_bytes", "bytes read from DRAM by the call (ncu)",
                      [](const C& t) { return t.dram_read_bytes; }));
  c.push_back(counter("dram_write_bytes", "bytes written to DRAM by the call (ncu)",
                      [](const C& t) { return t.dram_write_bytes; }));
  c.push_back(counter("dram_throughput_pct", "DRAM throughput, % of its peak (ncu)",
                      [](const C& t) { return t.dram_throughput_pct; }));
  c.push_back(counter("l2_hit_rate_pct", "L2 sector hit rate, % (ncu)",
                      [](const C& t) { return t.l2_hit_rate_pct; }));
  c.push_back(counter("sm_throughput_pct", "the busiest SM unit, % of its peak (ncu)",
                      [](const C& t) { return t.sm_throughput_pct; }));
  c.push_back(counter("counted_kernels", "kernels of the call that ncu measured",
                      [](const C& t) { return std::optional<double>(t.kernels); }));
  c.push_back(counter("counted_tflop", "tensor and FP32 operations the hardware counted, TFLOP",
                      [scaled](const C& t) {
                        if (!t.tensor_flop && !t.fp32_flop) return std::optional<double>();
                        return scaled(t.tensor_flop.value_or(0) + t.fp32_flop.value_or(0), 1e12);
                      }));
  for (KernelClass k : kAllKernelClasses) {
    std::string id(kernel_class_id(k));
    auto i = static_cast<size_t>(k);
    c.push_back(region("kernels." + id,
                       fmt::format("GPU activities of class {} per region", kernel_class_label(k)),
                       [i](const RegionFacts& m) { return m.by_class[i].count; }));
    c.push_back(
        region("gpu_time_ms." + id,
               fmt::format("summed duration of class {} per region, ms", kernel_class_label(k)),
               [i](const RegionFacts& m) { return divided(m.by_class[i].time_ns, kNsPerMs); }));
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

MetricValue metric_value(const TraceAnalysis& t, std::string_view name) {
  MetricValue v;
  const MetricDef* d = find_definition(name);
  if (!d) {
    v.why_unavailable = fmt::format("no metric named {}", name);
    return v;
  }
  v.type = d->info.type;
  const RegionFacts& facts = t.facts;
  if (facts.regions == 0 && name != "regions") {
    v.why_unavailable = t.region_pattern.empty()
                            ? std::string("the trace has no region")
                            : fmt::format("no region matches \"{}\"", t.region_pattern);
  } else if (d->of_main_kernel && !facts.main_kernel) {
    v.why_unavailable = fmt::format("the typical region ({}) ran no kernel",
                                    t.typical_region >= 0 ? t.regions[t.typical_region].name : "");
  } else {
    v = d->value(facts);
    v.type = d->info.type;
  }
  return v;
}

}  // namespace attnprof
