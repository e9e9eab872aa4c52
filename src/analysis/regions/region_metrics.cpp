#include "analysis/regions/region_metrics.h"

#include <memory>

#include <fmt/format.h>

namespace attnprof {

namespace {

// Older names check still reads (docs/METRICS.md, "Renamed"): each becomes its current name, and
// its value is divided back into the old unit so that an old threshold keeps its meaning for one
// release.
struct RenamedMetric {
  std::string_view old_prefix;  // a whole name, or a family's prefix ending in '.'
  std::string_view current_prefix;
  double divisor;
  std::string_view old_unit;
};
constexpr RenamedMetric kRenamed[] = {
    {"gpu_time_ms", "gpu_busy_us", 1000, "ms"},
    {"wall_ms", "wall_us", 1000, "ms"},
    {"cpu_ms", "cpu_us", 1000, "ms"},
    {"span_ms", "span_us", 1000, "ms"},
    {"idle_ms", "idle_us", 1000, "ms"},
    {"compute_ms", "compute_us", 1000, "ms"},
    {"communication_ms", "communication_us", 1000, "ms"},
    {"memory_ms", "memory_us", 1000, "ms"},
    {"main_kernel_ms", "main_kernel_us", 1000, "ms"},
    {"registers", "registers_per_thread", 1, "registers"},
    {"shared_memory_kb", "shared_memory_bytes", 1024, "KiB"},
    {"gpu_time_ms.", "gpu_time_us.", 1000, "ms"},
    {"queue_mean_length", "queue_time_mean_length", 1, "launches"},
};

struct Resolved {
  const RegionFact* fact = nullptr;
  const RenamedMetric* renamed = nullptr;
};

Resolved resolve(std::string_view name) {
  if (const RegionFact* f = find_region_fact(name); f && f->check) return {f, nullptr};
  for (const RenamedMetric& r : kRenamed) {
    bool family = r.old_prefix.ends_with('.');
    if (family ? !name.starts_with(r.old_prefix) : name != r.old_prefix) continue;
    std::string current =
        std::string(r.current_prefix) + std::string(name.substr(r.old_prefix.size()));
    if (const RegionFact* f = find_region_fact(current); f && f->check) return {f, &r};
  }
  return {};
}

MetricInfo info_of(const RegionFact& f, std::string name) {
  return MetricInfo{std::move(name),
                    f.unit == FactUnit::kText ? MetricType::kText : MetricType::kNumber, f.meaning};
}

}  // namespace

const std::vector<MetricInfo>& metric_catalog() {
  static const std::vector<MetricInfo> catalog = [] {
    std::vector<MetricInfo> out;
    for (const auto& f : region_fact_catalog())
      if (f.check) out.push_back(info_of(f, f.name));
    return out;
  }();
  return catalog;
}

const MetricInfo* find_metric(std::string_view name) {
  Resolved r = resolve(name);
  if (!r.fact) return nullptr;
  if (!r.renamed) {
    for (const auto& info : metric_catalog())
      if (info.name == name) return &info;
    return nullptr;
  }
  // Old spellings are few and kept for the program's life, so that the pointer stays valid.
  static std::vector<std::unique_ptr<MetricInfo>> old_names;
  for (const auto& info : old_names)
    if (info->name == name) return info.get();
  old_names.push_back(std::make_unique<MetricInfo>(info_of(*r.fact, std::string(name))));
  return old_names.back().get();
}

std::optional<std::string> renamed_metric_note(std::string_view name) {
  Resolved r = resolve(name);
  if (!r.renamed) return std::nullopt;
  return fmt::format(
      "note: metric {} ({}) is now {} ({}); the old name is read until the next release "
      "(docs/METRICS.md)",
      name, r.renamed->old_unit, r.fact->name, fact_unit_name(r.fact->unit));
}

MetricValue metric_value(const TraceAnalysis& t, std::string_view name) {
  MetricValue v;
  Resolved r = resolve(name);
  if (!r.fact) {
    v.why_unavailable = fmt::format("no metric named {}", name);
    return v;
  }
  const RegionFact& f = *r.fact;
  v.type = f.unit == FactUnit::kText ? MetricType::kText : MetricType::kNumber;
  const RegionFacts& facts = t.facts;
  if (facts.regions == 0 && f.source != FactSource::kTrace) {
    v.why_unavailable = t.region_pattern.empty()
                            ? std::string("the trace has no region")
                            : fmt::format("no region matches \"{}\"", t.region_pattern);
    return v;
  }
  if (f.source == FactSource::kMainKernel && !facts.main_kernel) {
    v.why_unavailable = fmt::format("the typical region ({}) ran no kernel",
                                    t.typical_region >= 0 ? t.regions[t.typical_region].name : "");
    return v;
  }
  MetricType type = v.type;
  v = f.of_main_kernel ? f.of_main_kernel(*facts.main_kernel)
      : f.of_facts     ? f.of_facts(facts)
                       : fact_over_regions(f, t.regions);
  v.type = type;
  if (r.renamed && v.available && r.renamed->divisor != 1) {
    double d = r.renamed->divisor;
    v.number = Spread{v.number.median / d, v.number.min / d, v.number.max / d, v.number.count};
  }
  return v;
}

}  // namespace attnprof
