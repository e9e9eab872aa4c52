#include "analysis/regions/region_fact_catalog.h"

#include <type_traits>

#include <fmt/format.h>

#include "analysis/kernels/kernel_class.h"
#include "analysis/regions/region_waits.h"
#include "analysis/spread.h"

namespace attnprof {

namespace {

// Divides rather than multiplies by a reciprocal, so that 91920 ns reads 91.92 µs exactly as
// the JSON always wrote it.
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

constexpr double kNsPerUs = 1000;

using U = FactUnit;
using S = FactSource;
using J = FactJson;

// A region's number as a value.
MetricValue one(double value) {
  return number(spread_of_one(value));
}

// A fact measured per region: `get` gives its Spread over the regions, `of_region` one region's
// value. Written per region where `region_json` says, and a column of the Python `regions` table
// when it is.
RegionFact region(std::string name, U unit, J json, RegionJson region_json, std::string meaning,
                  std::function<Spread(const RegionFacts&)> get,
                  std::function<MetricValue(const RegionSummary&)> of_region) {
  RegionFact f{.name = std::move(name),
               .unit = unit,
               .json = json,
               .region_json = region_json,
               .python_region = region_json != RegionJson::kNone,
               .meaning = std::move(meaning),
               .of_region = std::move(of_region)};
  if (get) f.of_facts = [get = std::move(get)](const RegionFacts& m) { return number(get(m)); };
  return f;
}

// A duration per region, measured in ns (`ns`: its spread over the regions) and given in µs; diff
// compares it in ns where `diffed`.
RegionFact region_time(std::string name, J json, RegionJson region_json, std::string meaning,
                       std::function<Spread(const RegionFacts&)> ns,
                       std::function<MetricValue(const RegionSummary&)> of_region, bool diffed) {
  RegionFact f = region(
      std::move(name), U::kMicroseconds, json, region_json, std::move(meaning),
      [ns](const RegionFacts& m) { return divided(ns(m), kNsPerUs); }, std::move(of_region));
  if (diffed)
    f.diff = FactComparison{.name = f.name,
                            .unit = U::kMicroseconds,
                            .value = [ns](const RegionFacts& m) { return number(ns(m)); }};
  return f;
}

// Shown in analyze's region tables under `label`, in `table`.
RegionFact shown(RegionFact f, std::string label, RegionTable table) {
  f.label = std::move(label);
  f.table = table;
  if (f.diff) f.diff->label = f.label;
  return f;
}

// Compared by diff as the trace's value reads it (a count, or counts by kind).
RegionFact compared(RegionFact f) {
  f.diff = FactComparison{.name = f.name, .label = f.label, .unit = f.unit, .value = f.of_facts};
  return f;
}

// A count per region, a field of analyze's JSON `regions[]`.
RegionFact region_count(std::string name, J json, std::string meaning,
                        std::function<Spread(const RegionFacts&)> get,
                        int64_t RegionSummary::*field) {
  RegionFact f = region(
      std::move(name), U::kCount, json, RegionJson::kField, std::move(meaning), std::move(get),
      [field](const RegionSummary& r) { return one(static_cast<double>(r.*field)); });
  f.whole = true;
  return f;
}

// A duration per region in µs, of a nanosecond field of the region (or of its time breakdown).
template <typename Holder>
std::function<MetricValue(const RegionSummary&)> region_us(int64_t Holder::*field) {
  return [field](const RegionSummary& r) {
    if constexpr (std::is_same_v<Holder, TimeBreakdown>)
      return one(static_cast<double>(r.breakdown.*field) / kNsPerUs);
    else
      return one(static_cast<double>(r.*field) / kNsPerUs);
  };
}

// A region's wait (analysis/regions/region_waits.h): per region in the Python module's `regions`
// table, not in analyze's JSON `regions[]`, which has the waits stream by stream. diff compares
// it where both traces have it, and shows it where it changed.
RegionFact python_region(const WaitMetric& w, std::function<Spread(const RegionFacts&)> get) {
  const bool time = w.unit == WaitUnit::kTime;
  RegionFact f = region(
      std::string(w.name), time ? U::kMicroseconds : U::kCount, J::kNone, RegionJson::kNone,
      std::string(w.meaning), std::move(get), [of = w.of_region, time](const RegionSummary& r) {
        const std::optional<double> v = of(region_waits(r));
        if (!v) {
          MetricValue none;
          none.why_unavailable = "the region holds no launch call of its GPU work";
          return none;
        }
        return one(time ? *v / kNsPerUs : *v);
      });
  f.python_region = true;
  f.whole = w.unit == WaitUnit::kCount;
  f.diff = FactComparison{.name = f.name,
                          .unit = f.unit,
                          .shown = DiffShown::kWhenChanged,
                          .value = [get = w.over_regions](const RegionFacts& m) {
                            const Spread& s = m.waits.*get;  // a time in ns, or a count
                            if (s.count > 0) return number(s);
                            MetricValue v;
                            v.why_unavailable = "no region has it";
                            return v;
                          }};
  return f;
}

// A launch delay, which a region without the launch calls of its GPU work in the trace lacks:
// over the regions that have it, unknown when none has.
RegionFact launch_wait(const WaitMetric& w) {
  RegionFact f = python_region(w, {});
  f.of_facts = [get = w.over_regions](const RegionFacts& m) {
    const Spread s = m.waits.*get;
    if (s.count > 0) return number(divided(s, kNsPerUs));
    MetricValue v;
    v.why_unavailable = "no region holds a launch call of its GPU work";
    return v;
  };
  return f;
}

// A property of the typical region's main kernel.
RegionFact main_kernel(std::string name, U unit, std::string meaning,
                       std::function<MetricValue(const MainKernel&)> get) {
  RegionFact f{.name = std::move(name),
               .unit = unit,
               .source = S::kMainKernel,
               .json = J::kMainKernel,
               .meaning = std::move(meaning)};
  f.of_main_kernel = std::move(get);
  return f;
}

// A sum over the typical call's kernels that Nsight Compute measured (bench --counters): unknown
// without counters.
RegionFact counter(std::string name, U unit, std::string meaning,
                   std::function<std::optional<double>(const CounterTotals&)> get) {
  RegionFact f{
      .name = std::move(name), .unit = unit, .source = S::kCounters, .meaning = std::move(meaning)};
  f.of_facts = [get = std::move(get)](const RegionFacts& m) {
    if (!m.counters) {
      MetricValue v;
      v.why_unavailable =
          "no hardware counters (attnprof bench --counters measures them; "
          "check reads them from a study folder's summary.json)";
      return v;
    }
    return optional_number(get(*m.counters), "ncu did not report it");
  };
  return f;
}

// Copies of one kind per region: a kind no region made is zero in every region.
RegionFact memcpy_kind_fact(std::string name, std::string kind, std::string meaning) {
  return region(std::move(name), U::kCount, J::kNone, RegionJson::kNone, std::move(meaning),
                [kind](const RegionFacts& m) {
                  auto it = m.memcpy_by_kind.find(kind);
                  if (it != m.memcpy_by_kind.end()) return it->second;
                  return spread_of(std::vector<double>(static_cast<size_t>(m.regions), 0.0));
                },
                {});
}

std::vector<RegionFact> build_catalog() {
  std::vector<RegionFact> c;
  RegionFact regions = region(
      "regions", U::kCount, J::kNone, RegionJson::kNone, "how many regions matched",
      [](const RegionFacts& m) { return spread_of_one(static_cast<double>(m.regions)); }, {});
  regions.source = S::kTrace;
  c.push_back(std::move(regions));
  using T = RegionTable;
  c.push_back(
      compared(shown(region_count(
                         "kernels", J::kMedian, "kernels per region",
                         [](const RegionFacts& m) { return m.kernels; }, &RegionSummary::kernels),
                     "kernels", T::kRegions)));
  RegionFact copies =
      compared(shown(region_count(
                         "memcpy", J::kMedian, "memory copies per region",
                         [](const RegionFacts& m) { return m.memcpy; }, &RegionSummary::memcpy),
                     "memcpy", T::kRegions));
  copies.parts = "memcpy_by_kind";
  c.push_back(std::move(copies));
  RegionFact by_kind{.name = "memcpy_by_kind",
                     .json = J::kMedian,
                     .region_json = RegionJson::kField,
                     .check = false,
                     .meaning =
                         "memory copies per region by kind (DtoD, HtoD, ...), an object; check "
                         "reads it as memcpy_dtod, ..."};
  by_kind.of_facts = [](const RegionFacts& m) {
    MetricValue v;
    v.available = true;
    v.counts_by_kind = true;
    v.by_kind = m.memcpy_by_kind;
    return v;
  };
  by_kind.of_region = [](const RegionSummary& r) {
    MetricValue v;
    v.available = true;
    v.counts_by_kind = true;
    for (const auto& [kind, n] : r.memcpy_by_kind)
      v.by_kind[kind] = spread_of_one(static_cast<double>(n));
    return v;
  };
  by_kind.label = "memcpy";  // diff's rows "memcpy DtoD", ...
  c.push_back(compared(std::move(by_kind)));
  c.push_back(memcpy_kind_fact("memcpy_dtod", "DtoD", "device-to-device copies per region"));
  c.push_back(memcpy_kind_fact("memcpy_htod", "HtoD", "host-to-device copies per region"));
  c.push_back(memcpy_kind_fact("memcpy_dtoh", "DtoH", "device-to-host copies per region"));
  c.push_back(
      compared(shown(region_count(
                         "memset", J::kMedian, "memsets per region",
                         [](const RegionFacts& m) { return m.memset; }, &RegionSummary::memset),
                     "memset", T::kRegions)));
  c.push_back(region_count("gpu_syncs", J::kNone,
                           "synchronizations on the GPU timeline (`cuda_sync`) per region, "
                           "placed by the call that asked for them: waits, not work",
                           {}, &RegionSummary::gpu_syncs));
  c.back().check = false;
  c.push_back(shown(region_time(
                        "gpu_busy_us", J::kMedian, RegionJson::kField,
                        "GPU busy time per region (the union of its activities)",
                        [](const RegionFacts& m) { return m.gpu_busy_ns; },
                        region_us(&RegionSummary::gpu_busy_ns), true),
                    "GPU busy", T::kRegions));
  c.push_back(shown(
      region_time(
          "wall_us", J::kMedian, RegionJson::kField, "the region annotation's duration on the CPU",
          [](const RegionFacts& m) { return m.wall_ns; }, region_us(&RegionSummary::wall_ns), true),
      "wall", T::kRegions));
  c.push_back(shown(
      region_time(
          "cpu_us", J::kMedian, RegionJson::kField, "time in the region's top-level CPU ops",
          [](const RegionFacts& m) { return m.cpu_ns; }, region_us(&RegionSummary::cpu_ns), true),
      "CPU", T::kRegions));
  // The time breakdown (attnprof/time_breakdown.h, docs/BREAKDOWN.md).
  using B = RegionJson;
  c.push_back(shown(region_time(
                        "span_us", J::kNone, B::kBreakdown,
                        "first GPU activity's start to the last one's end, per region",
                        [](const RegionFacts& m) { return m.breakdown.span_ns; },
                        region_us(&TimeBreakdown::span_ns), false),
                    "span", T::kBreakdown));
  RegionFact idle = shown(region_time(
                              "idle_us", J::kNone, B::kBreakdown,
                              "GPU idle time within the span (span - busy) per region",
                              [](const RegionFacts& m) { return m.breakdown.idle_ns; },
                              region_us(&TimeBreakdown::idle_ns), true),
                          "idle", T::kBreakdown);
  idle.diff->label = "GPU idle";  // among diff's rows, beside GPU busy
  c.push_back(std::move(idle));
  c.push_back(shown(region_time(
                        "compute_us", J::kNone, B::kBreakdown,
                        "GPU time in kernels other than communication per region",
                        [](const RegionFacts& m) { return m.breakdown.compute_ns; },
                        region_us(&TimeBreakdown::compute_ns), true),
                    "compute", T::kBreakdown));
  c.push_back(shown(region_time(
                        "communication_us", J::kNone, B::kBreakdown,
                        "GPU time in communication kernels (NCCL, ...) not overlapping compute per "
                        "region",
                        [](const RegionFacts& m) { return m.breakdown.communication_ns; },
                        region_us(&TimeBreakdown::communication_ns), true),
                    "communication", T::kBreakdown));
  c.push_back(
      shown(region_time(
                "memory_us", J::kNone, B::kBreakdown,
                "GPU time in copies and memsets overlapping neither compute nor communication "
                "per region",
                [](const RegionFacts& m) { return m.breakdown.memory_ns; },
                region_us(&TimeBreakdown::memory_ns), true),
            "memory", T::kBreakdown));
  RegionFact overlap =
      region("communication_overlap_pct", U::kPercent, J::kNone, B::kBreakdown,
             "share of communication time that overlaps compute, over the regions that "
             "communicate",
             {}, [](const RegionSummary& r) {
               if (auto pct = r.breakdown.communication_overlap_pct()) return one(*pct);
               MetricValue v;
               v.why_unavailable = "the region ran no communication kernel";
               return v;
             });
  overlap.of_facts = [](const RegionFacts& m) {
    if (m.breakdown.communication_overlap_pct.count > 0)
      return number(m.breakdown.communication_overlap_pct);
    MetricValue v;
    v.why_unavailable = "no region ran a communication kernel";
    return v;
  };
  c.push_back(shown(std::move(overlap), "communication overlapping compute", T::kBreakdown));
  c.push_back(region("idle_pct", U::kPercent, J::kNone, B::kField,
                     "share of the span the GPU is idle per region (HTA's idle_time_pctg)", {},
                     [](const RegionSummary& r) {
                       if (r.breakdown.span_ns > 0)
                         return one(100.0 * static_cast<double>(r.breakdown.idle_ns) /
                                    static_cast<double>(r.breakdown.span_ns));
                       MetricValue v;
                       v.why_unavailable = "the region ran no GPU work";
                       return v;
                     }));
  // Idle time by cause, launch delays and queues (analysis/regions/region_waits.h,
  // docs/BREAKDOWN.md).
  for (const WaitMetric& w : wait_metrics()) {
    if (w.needs_launches) {
      c.push_back(launch_wait(w));
      continue;
    }
    const bool time = w.unit == WaitUnit::kTime;
    c.push_back(python_region(w, [w, time](const RegionFacts& m) {
      const Spread& s = m.waits.*w.over_regions;
      return time ? divided(s, kNsPerUs) : s;
    }));
  }
  // A region's memory: analyze's JSON gives it per device in `regions[].memory`, Python in its
  // `memory` table (docs/MEMORY.md).
  RegionFact peak{.name = "peak_allocated_bytes",
                  .unit = U::kBytes,
                  .meaning =
                      "the highest \"Total Allocated\" of a region's [memory] events (the "
                      "most over its CUDA devices; profile_memory=True)"};
  peak.of_facts = [](const RegionFacts& m) {
    if (m.peak_allocated_bytes) return number(*m.peak_allocated_bytes);
    MetricValue v;
    v.why_unavailable = "no region has [memory] events (record the trace with profile_memory=True)";
    return v;
  };
  peak.label = "peak allocated";
  // diff compares it in MiB: the count's rule, and at least 5 % of A's peak.
  peak.diff = FactComparison{.name = "peak_allocated_mib",
                             .label = peak.label,
                             .unit = U::kMebibytes,
                             .value = [](const RegionFacts& m) {
                               MetricValue v;
                               if (!m.peak_allocated_bytes) return v;
                               constexpr double kMib = 1024.0 * 1024.0;
                               return number(divided(*m.peak_allocated_bytes, kMib));
                             }};
  c.push_back(std::move(peak));

  c.push_back(main_kernel(
      "main_kernel", U::kText,
      "short name of the typical region's longest kernel (~ and == also try its full name)",
      [](const MainKernel& k) {
        return text({k.short_name, k.name});
      }));
  c.push_back(main_kernel(
      "main_kernel_us", U::kMicroseconds, "the main kernel's duration", [](const MainKernel& k) {
        return number(spread_of_one(static_cast<double>(k.duration_ns) / kNsPerUs));
      }));
  c.push_back(main_kernel("launch_api", U::kText, "the API that launched the main kernel",
                          [](const MainKernel& k) { return text({k.launch_api}); }));
  c.push_back(main_kernel("occupancy_pct", U::kPercent,
                          "the main kernel's occupancy as attnprof estimates it",
                          [](const MainKernel& k) {
                            return optional_number(k.occupancy_pct,
                                                   "attnprof could not estimate it (no device "
                                                   "properties in the trace)");
                          }));
  c.push_back(main_kernel("occupancy_limiter", U::kText,
                          "what bounds the main kernel's estimated occupancy (registers, ...)",
                          [](const MainKernel& k) { return text({k.occupancy_limiter}); }));
  c.push_back(main_kernel("kineto_occupancy_pct", U::kPercent,
                          "the main kernel's occupancy as Kineto wrote it",
                          [](const MainKernel& k) {
                            return optional_number(k.kineto_occupancy_pct, "the trace gives none");
                          }));
  // Not in analyze's JSON medians (its activities carry them); check's alone.
  for (RegionFact f :
       {main_kernel("registers_per_thread", U::kCount, "the main kernel's registers per thread",
                    [](const MainKernel& k) { return number(spread_of_one(k.registers)); }),
        main_kernel("shared_memory_bytes", U::kBytes, "the main kernel's shared memory per block",
                    [](const MainKernel& k) {
                      return number(spread_of_one(static_cast<double>(k.shared_memory_bytes)));
                    }),
        main_kernel("grid_blocks", U::kCount, "the main kernel's blocks (grid x*y*z)",
                    [](const MainKernel& k) {
                      return number(spread_of_one(static_cast<double>(k.grid_blocks)));
                    })}) {
    f.json = J::kNone;
    c.push_back(std::move(f));
  }

  using C = CounterTotals;
  c.push_back(counter("achieved_occupancy_pct", U::kPercent,
                      "warps active per cycle over the SM's maximum, measured (ncu); the "
                      "call's kernels weighted by time",
                      [](const C& t) { return t.achieved_occupancy_pct; }));
  c.push_back(counter("tensor_pipe_pct", U::kPercent, "tensor pipe busy, of its peak (ncu)",
                      [](const C& t) { return t.tensor_pipe_pct; }));
  c.push_back(counter("fp32_pipe_pct", U::kPercent, "FP32 (FMA) pipe busy, of its peak (ncu)",
                      [](const C& t) { return t.fp32_pipe_pct; }));
  c.push_back(counter("dram_bytes", U::kBytes,
                      "bytes read from and written to DRAM by the call (ncu)",
                      [](const C& t) { return t.dram_bytes(); }));
  c.push_back(counter("dram_read_bytes", U::kBytes, "bytes read from DRAM by the call (ncu)",
                      [](const C& t) { return t.dram_read_bytes; }));
  c.push_back(counter("dram_write_bytes", U::kBytes, "bytes written to DRAM by the call (ncu)",
                      [](const C& t) { return t.dram_write_bytes; }));
  c.push_back(counter("dram_throughput_pct", U::kPercent, "DRAM throughput, of its peak (ncu)",
                      [](const C& t) { return t.dram_throughput_pct; }));
  c.push_back(counter("l2_hit_rate_pct", U::kPercent, "L2 sector hit rate (ncu)",
                      [](const C& t) { return t.l2_hit_rate_pct; }));
  c.push_back(counter("sm_throughput_pct", U::kPercent, "the busiest SM unit, of its peak (ncu)",
                      [](const C& t) { return t.sm_throughput_pct; }));
  c.push_back(counter("counted_kernels", U::kCount, "kernels of the call that ncu measured",
                      [](const C& t) { return std::optional<double>(t.kernels); }));
  c.push_back(counter("counted_tflop", U::kTeraflop,
                      "tensor and FP32 operations the hardware counted",
                      [](const C& t) -> std::optional<double> {
                        if (!t.tensor_flop && !t.fp32_flop) return std::nullopt;
                        return (t.tensor_flop.value_or(0) + t.fp32_flop.value_or(0)) / 1e12;
                      }));

  for (KernelClass k : kAllKernelClasses) {
    auto i = static_cast<size_t>(k);
    RegionFact count = region(fmt::format("kernels.{}", kernel_class_id(k)), U::kCount, J::kNone,
                              RegionJson::kNone, "GPU activities of class CLASS per region",
                              [i](const RegionFacts& m) { return m.by_class[i].count; }, {});
    count.family = "kernels.CLASS";
    c.push_back(std::move(count));
    RegionFact time =
        region(fmt::format("gpu_time_us.{}", kernel_class_id(k)), U::kMicroseconds, J::kNone,
               RegionJson::kNone, "summed duration of class CLASS per region",
               [i](const RegionFacts& m) { return divided(m.by_class[i].time_ns, kNsPerUs); }, {});
    time.family = "gpu_time_us.CLASS";
    c.push_back(std::move(time));
  }
  return c;
}

}  // namespace

std::string_view fact_unit_name(FactUnit unit) {
  switch (unit) {
    case FactUnit::kCount:
      return "count";
    case FactUnit::kMicroseconds:
      return "µs";
    case FactUnit::kPercent:
      return "%";
    case FactUnit::kBytes:
      return "bytes";
    case FactUnit::kMebibytes:
      return "MiB";
    case FactUnit::kTeraflop:
      return "TFLOP";
    case FactUnit::kText:
      return "text";
  }
  return "";
}

double measured_per_unit(FactUnit unit) {
  return unit == FactUnit::kMicroseconds ? kNsPerUs : 1;
}

const std::vector<RegionFact>& region_fact_catalog() {
  static const std::vector<RegionFact> catalog = build_catalog();
  return catalog;
}

const RegionFact* find_region_fact(std::string_view name) {
  for (const auto& f : region_fact_catalog())
    if (f.name == name) return &f;
  return nullptr;
}

MetricValue fact_over_regions(const RegionFact& fact, const std::vector<RegionSummary>& regions) {
  std::vector<double> values;
  values.reserve(regions.size());
  MetricValue first;
  for (const RegionSummary& r : regions) {
    MetricValue v = fact.of_region(r);
    if (v.available)
      values.push_back(v.number.median);
    else if (first.why_unavailable.empty())
      first = std::move(v);
  }
  if (values.empty()) return first;
  return number(spread_of(std::move(values)));
}

}  // namespace attnprof
